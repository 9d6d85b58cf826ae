// Game-independent tools for Python: perft and timed random play, run without the GIL and stopped by Ctrl-C.
#include <pybind11/pybind11.h>

#include <cmath>
#include <memory>
#include <string>

#include "../common/stoppable.h"
#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
#include "core/perft.h"
#include "core/random_play.h"
#include "core/text.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

std::uint64_t py_perft(const StateHandle& s, const IntArg& depth_arg) {
  const int depth = int_arg<int>(depth_arg, "perft: depth");
  // A clone: nothing Python can reach is read without the GIL.
  const std::unique_ptr<State> root = s.state->clone();
  return run_interruptible([&] { return perft(*root, depth); });
}

py::dict py_random_play(const GameHandle& g, double seconds, const IntArg& min_games_arg, const SeedArg& seed_value) {
  const auto min_games = int_arg<std::uint64_t>(min_games_arg, "random_play: min_games", 0, INT64_MAX);
  const std::uint64_t seed = seed_arg(seed_value, "random_play: seed");
  if (!std::isfinite(seconds) || seconds < 0)
    throw InputError("random_play: seconds must be a finite number >= 0, got " + std::to_string(seconds));
  const RandomPlayStats total = run_interruptible([&] { return random_play(*g.game, seconds, min_games, seed); });
  return py::dict(py::arg("games") = total.games, py::arg("actions") = total.actions,
                  py::arg("seconds") = total.seconds, py::arg("actions_per_second") = total.actions_per_second(),
                  py::arg("games_per_second") = total.games_per_second(), py::arg("rounds") = total.rounds,
                  py::arg("rounds_per_second") = total.rounds_per_second());
}

py::dict py_hidden_sample_bench(const GameHandle& g, double seconds, const SeedArg& seed_value) {
  const std::uint64_t seed = seed_arg(seed_value, "hidden_sample_bench: seed");
  if (!std::isfinite(seconds) || seconds < 0)
    throw InputError("hidden_sample_bench: seconds must be a finite number >= 0, got " + std::to_string(seconds));
  const HiddenSampleStats s = run_interruptible([&] { return hidden_sample_bench(*g.game, seconds, seed); });
  return py::dict(py::arg("samples") = s.samples, py::arg("seconds") = s.seconds,
                  py::arg("samples_per_second") = s.samples_per_second(),
                  py::arg("microseconds_per_sample") = s.microseconds_per_sample());
}

}  // namespace

void bind_tools(py::module_& m) {
  m.def("perft", &py_perft, py::arg("state"), py::arg("depth"),
        "The number of action sequences of exactly `depth` actions from `state` (sub-moves count one each).");
  m.def(
      "quote_input",
      [](const py::bytes& text) { return quote_input(std::string_view(text)); }, py::arg("text"),
      "How error messages show user input: quoted, control bytes, NUL and bytes that are not UTF-8 as \\xNN, "
      "at most 80 characters then '… (N bytes)'.");
  m.def(
      "check_text",
      [](const TextArg& text, const TextArg& what) { text_arg(text, text_arg(what, "check_text: what").c_str()); },
      py::arg("text"), py::arg("what"),
      "Raises InputError (a ValueError) 'WHAT: not UTF-8 text (it holds the undecodable byte \\xff)' when `text` "
      "holds a lone surrogate (what Python makes of an undecodable byte in a file name or command-line argument), "
      "as every function taking text does; nothing for text.");
  m.def("random_play", &py_random_play, py::arg("game"), py::arg("seconds") = 1.0, py::arg("min_games") = 1,
        py::arg("seed") = 0,
        "Plays uniformly random whole games on one core until `seconds` have passed and `min_games` are done; "
        "returns a dict: games, actions, seconds, actions_per_second, games_per_second, and rounds and "
        "rounds_per_second (simultaneous rounds, one joint action each; 0 for a game without them).");
  m.def("hidden_sample_bench", &py_hidden_sample_bench, py::arg("game"), py::arg("seconds") = 1.0, py::arg("seed") = 0,
        "The cost of sample_hidden: states met in random games (every 8th) are sampled for the seat to move until "
        "`seconds` of sampling are timed; returns a dict: samples, seconds, samples_per_second, "
        "microseconds_per_sample.");
}

}  // namespace boardlab::python
