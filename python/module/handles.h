// Python-side handles for games and states: each holds its Game, so no state outlives the game it points to.
#pragma once

#include <memory>
#include <utility>

#include "core/game.h"

namespace boardlab::python {

// C++ Games are shared and immutable; Python may hold one as long as it likes.
struct GameHandle {
  std::shared_ptr<const Game> game;
};

// A C++ State keeps a plain pointer to its Game (cheap clones in search), so the Python
// object owns a reference to the game as well: dropping every Game object in Python,
// or a garbage collection, cannot leave the state dangling.
struct StateHandle {
  std::shared_ptr<const Game> game;
  std::unique_ptr<State> state;

  StateHandle(std::shared_ptr<const Game> g, std::unique_ptr<State> s) : game(std::move(g)), state(std::move(s)) {}
  StateHandle clone() const { return {game, state->clone()}; }
};

}  // namespace boardlab::python
