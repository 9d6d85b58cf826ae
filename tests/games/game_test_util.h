// Test helpers every game's tests share: the observable state, and an action that must be refused.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/game.h"

namespace boardlab {

// Everything observable that an illegal action must leave alone.
struct Snapshot {
  std::uint64_t hash;
  std::string text;
  std::vector<Action> legal;
  std::vector<Step> history;
  explicit Snapshot(const State& s)
      : hash(s.hash()), text(s.to_string()), legal(s.legal_actions()), history(s.history()) {}
  bool operator==(const Snapshot&) const = default;
};

// Applies an action that must be illegal; returns the error message and checks nothing changed.
inline std::string rejected(State& state, Action action) {
  const Snapshot before(state);
  std::string message;
  try {
    state.apply(action);
    ADD_FAILURE() << "action " << action << " was accepted in\n" << before.text;
  } catch (const IllegalActionError& e) {
    message = e.what();
  }
  EXPECT_TRUE(Snapshot(state) == before) << "an illegal action changed the state:\n" << before.text;
  return message;
}

}  // namespace boardlab
