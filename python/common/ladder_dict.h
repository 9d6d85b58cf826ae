// A stored ladder (arena/ladder.h) as Python sees it, for both modules' functions that hand one out.
#pragma once

#include <pybind11/pybind11.h>

#include "arena/ladder.h"

namespace boardlab::python {

// {game, rungs: [{player, elo, low, high, games}] weakest first, games_per_group, opening_turns, seed, seconds, built}
inline pybind11::dict ladder_to_dict(const Ladder& ladder) {
  namespace py = pybind11;
  py::list rungs;
  for (const LadderRung& r : ladder.rungs)
    rungs.append(py::dict(py::arg("player") = r.player, py::arg("elo") = r.elo, py::arg("low") = r.low,
                          py::arg("high") = r.high, py::arg("games") = r.games));
  return py::dict(py::arg("game") = ladder.game, py::arg("rungs") = rungs,
                  py::arg("games_per_group") = ladder.games_per_group, py::arg("opening_turns") = ladder.opening_turns,
                  py::arg("seed") = ladder.seed, py::arg("seconds") = ladder.seconds, py::arg("built") = ladder.built);
}

}  // namespace boardlab::python
