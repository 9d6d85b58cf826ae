// Game-independent tools for Python: perft and timed random play, run without the GIL and interruptible.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "bindings.h"
#include "core/errors.h"
#include "core/perft.h"
#include "core/random_play.h"
#include "core/rng.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

// Raises KeyboardInterrupt in Python when Ctrl-C arrived while C++ ran.
void check_signals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// Walks the top of the tree here and leaves the last plies to core perft with the GIL
// released, retaking it between leaves (at most every 50 ms) to honour Ctrl-C. The walk
// starts from a clone, so nothing Python can reach is read without the GIL.
class InterruptiblePerft {
 public:
  std::uint64_t count(const State& state, int depth) {
    if (depth <= kLeafDepth || state.is_terminal()) {
      const std::uint64_t leaves = perft(state, depth);
      poll();
      return leaves;
    }
    std::uint64_t total = 0;
    for (Action action : state.legal_actions()) {
      std::unique_ptr<State> child = state.clone();
      child->apply(action);
      total += count(*child, depth - 1);
    }
    return total;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr int kLeafDepth = 3;

  void poll() {
    const auto now = Clock::now();
    if (now < next_poll_) return;
    next_poll_ = now + std::chrono::milliseconds(50);
    py::gil_scoped_acquire gil;
    check_signals();
  }

  Clock::time_point next_poll_ = Clock::now();
};

std::uint64_t py_perft(const StateHandle& s, int depth) {
  if (depth < 0) return perft(*s.state, depth);  // core's error message
  const std::unique_ptr<State> root = s.state->clone();
  py::gil_scoped_release release;
  return InterruptiblePerft().count(*root, depth);
}

// Plays in slices of at most a quarter second or 256 games, so Ctrl-C is honoured during
// long benchmarks; each slice plays whole games, so the totals are those of one long run.
py::dict py_random_play(const GameHandle& g, double seconds, std::uint64_t min_games, std::uint64_t seed) {
  if (!std::isfinite(seconds) || seconds < 0)
    throw InputError("random_play: seconds must be a finite number >= 0, got " + std::to_string(seconds));
  constexpr double kSliceSeconds = 0.25;
  constexpr std::uint64_t kSliceGames = 256;
  Rng seeds(seed);
  RandomPlayStats total;
  do {
    const double slice_seconds = std::min(kSliceSeconds, std::max(0.0, seconds - total.seconds));
    const std::uint64_t slice_games = std::min(kSliceGames, min_games - std::min(min_games, total.games));
    RandomPlayStats slice;
    {
      py::gil_scoped_release release;
      slice = random_play(*g.game, slice_seconds, slice_games, seeds());
    }
    total.games += slice.games;
    total.actions += slice.actions;
    total.seconds += slice.seconds;
    check_signals();
  } while (total.seconds < seconds || total.games < min_games);
  return py::dict(py::arg("games") = total.games, py::arg("actions") = total.actions,
                  py::arg("seconds") = total.seconds, py::arg("actions_per_second") = total.actions_per_second(),
                  py::arg("games_per_second") = total.games_per_second());
}

}  // namespace

void bind_tools(py::module_& m) {
  m.def("perft", &py_perft, py::arg("state"), py::arg("depth"),
        "The number of action sequences of exactly `depth` actions from `state` (sub-moves count one each).");
  m.def("random_play", &py_random_play, py::arg("game"), py::arg("seconds") = 1.0, py::arg("min_games") = 1,
        py::arg("seed") = 0,
        "Plays uniformly random whole games on one core until `seconds` have passed and `min_games` are done; "
        "returns a dict: games, actions, seconds, actions_per_second, games_per_second.");
}

}  // namespace boardlab::python
