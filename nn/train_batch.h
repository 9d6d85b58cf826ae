// A batch of training examples as plain floats, and the map between a game's returns and the network's value range.
#pragma once

#include <vector>

#include "core/game_type.h"

namespace boardlab {

// One example per (position, target player) pair, all in that player's view: for a
// hidden-information game the network sees only what the player may know.
struct TrainBatch {
  int size = 0;
  std::vector<float> obs;     // size × C×H×W, observation(player)
  std::vector<float> policy;  // size × A, the player's search policy in its view frame (Game::action_to_view), sums to 1
  std::vector<float> mask;    // size × A, 1 for the player's legal actions, in its view frame
  // size × P, value[j]: the return of seat (player + j) mod P, so the player's own is
  // value[0], mapped onto the network's range by value_target.
  std::vector<float> value;
};

// The value head ends in tanh, so the network works in [-1, 1]: a return maps linearly
// from the game's declared range [min_return, max_return] (GameType) onto it, and network
// values map back before the search sees them, next to the game's own terminal returns.
// Identity for games with returns in [-1, 1]; a range of one value maps to 0.
inline float value_target(const GameType& type, double ret) {
  const double span = type.max_return - type.min_return;
  return span > 0 ? static_cast<float>(2 * (ret - type.min_return) / span - 1) : 0.0f;
}
inline float value_from_network(const GameType& type, float value) {
  const double span = type.max_return - type.min_return;
  return static_cast<float>(type.min_return + (static_cast<double>(value) + 1) * span / 2);
}

}  // namespace boardlab
