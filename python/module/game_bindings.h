// A game's own Python bindings (games/GAME/*_bindings.cc): each file registers itself, and the module adds them all.
#pragma once

#include <pybind11/pybind11.h>

namespace boardlab::python {

using BindGameFunctions = void (*)(pybind11::module_& m);

// Registers a game's bindings when the module loads: a game's file holds, at namespace scope,
//   const GameBindings kStrategoGravon("stratego", &bind_gravon);
// so that nothing outside the game's folder names them.
struct GameBindings {
  GameBindings(const char* game, BindGameFunctions bind);
};

// Adds every registered game's bindings to `m`, and lists the names they added in
// m.GAME_FUNCTIONS (the boardlab package re-exports them).
void bind_games_own(pybind11::module_& m);

}  // namespace boardlab::python
