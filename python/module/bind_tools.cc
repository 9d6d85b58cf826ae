// Game-independent tools for Python: perft, timed random play and exact exploitability, stopped by Ctrl-C.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "../common/stoppable.h"
#include "arena/exploitability.h"
#include "arena/perft.h"
#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
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

// Python's repr of `value`, cut to 80 characters: error messages name what was given.
std::string short_repr(const py::handle value) {
  const py::str text = py::repr(value);
  if (py::len(text) <= 80) return text.cast<std::string>();
  return py::str(text[py::slice(0, 77, 1)]).cast<std::string>() + "...";
}

// policy(state, player) from Python, called with the GIL held: a clone of the state, so that
// Python may keep or change what it is given. Its own exceptions pass through as they are.
PolicyFunction python_policy(const GameHandle& g, py::function policy) {
  return [game = g.game, policy = std::move(policy)](const State& state, Player player) {
    py::object out = policy(StateHandle(game, state.clone()), player);
    try {
      return out.cast<std::vector<double>>();
    } catch (const py::cast_error&) {
      throw InputError("exploitability: the policy gave " + game->player_name(player) + " " + short_repr(out) +
                       ", not a sequence of probabilities");
    }
  };
}

py::dict py_exploitability(const GameHandle& g, const py::object& policy, const IntArg& max_nodes_arg) {
  const auto max_nodes = int_arg<std::uint64_t>(max_nodes_arg, "exploitability: max_nodes", 1,
                                                static_cast<std::int64_t>(kMaxExploitabilityNodes));
  ExploitabilityResult r;
  if (py::isinstance<py::str>(policy) && text_of(policy).text == "uniform") {
    // Nothing of Python is touched: the walk runs without the GIL, and Ctrl-C stops it.
    r = run_interruptible([&] { return exploitability(*g.game, uniform_policy(), max_nodes); });
  } else if (!py::isinstance<py::str>(policy) && PyCallable_Check(policy.ptr())) {
    // A Python policy runs Python code at every information set, where Ctrl-C raises.
    r = exploitability(*g.game, python_policy(g, py::reinterpret_borrow<py::function>(policy)), max_nodes);
  } else {
    throw InputError("exploitability: policy must be a callable policy(state, player) or \"uniform\", got " +
                     short_repr(policy));
  }
  // A stop asked for elsewhere in the process (a signal here has raised above): nothing was measured.
  if (r.stopped) throw std::runtime_error("exploitability: stopped on request before the tree was walked");
  return py::dict(py::arg("nash_conv") = r.nash_conv, py::arg("exploitability") = r.exploitability,
                  py::arg("values") = r.values, py::arg("best_response_values") = r.best_response_values,
                  py::arg("nodes") = r.nodes, py::arg("information_sets") = r.information_sets);
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
  m.def("exploitability", &py_exploitability, py::arg("game"), py::arg("policy") = "uniform",
        py::arg("max_nodes") = kDefaultExploitabilityNodes,
        "The exact exploitability of `policy` in a game small enough to walk whole (at most `max_nodes` states): "
        "`policy(state, player)` returns the probabilities of state.legal_actions(player) from what `player` may "
        "know (it is asked once per information set), or \"uniform\". Returns a dict: nash_conv, exploitability "
        "(nash_conv / num_players), values and best_response_values (one per seat: the policy's expected return, "
        "and a best response's against the others playing the policy), nodes and information_sets. ValueError "
        "names a tree too big, or a policy's wrong length, negative probability or sum other than 1.");
}

}  // namespace boardlab::python
