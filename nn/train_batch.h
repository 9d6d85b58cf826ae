// A batch of training examples as plain floats, and the map between a game's returns and the network's value range.
#pragma once

#include <algorithm>
#include <cstdint>
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
  // size: 1 for an example whose policy trains, 0 for one searched with a fast budget
  // (playout cap randomization), whose `policy` is all zeros. Empty: every policy trains.
  std::vector<float> policy_weight;
  // size × P like `value`: the search's root value where the example has one (its own
  // seat; in a two-player constant-sum game the other seat's too, as return_sum minus it),
  // else the same as `value`. Value targets mix the two (OptimizerConfig::value_target_mix).
  // Empty: no root values.
  std::vector<float> root_value;
  // size: the game phase of the example's position, by its ply over the game's length in
  // steps: 0 opening (first third), 1 middle, 2 end. Empty: unknown. For diagnostics.
  std::vector<std::uint8_t> phase;
  // size × H×W (the observation's cells), where the game declares ownership
  // (GameTraits::has_ownership), else empty: who owns each cell at the end of the game, in the
  // example's view and frame (+1 its player's, -1 another's, 0 nobody's), mapped by the
  // same symmetry as the observation.
  std::vector<float> ownership;
  // size, where the game declares a score (GameTraits::max_score_margin), else empty: the
  // player's final score minus the best other seat's, over max_score_margin, in [-1, 1].
  std::vector<float> score;
};

inline constexpr int kGamePhases = 3;
inline int game_phase(std::int64_t ply, std::int64_t length) {
  return length > 0 ? static_cast<int>(std::min<std::int64_t>(kGamePhases - 1, kGamePhases * ply / length)) : 0;
}

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
// A network with NetworkConfig::standings_baseline learns value_target(return) minus this
// shift, its seat's standing return (State::standing_returns) in the network's units, and
// adds it back at play. A standing return and the final one are ranks of the same players,
// so their difference stays within the tanh's range.
inline float standing_shift(const GameType& type, double standing) {
  const double span = type.max_return - type.min_return;
  return span > 0 ? static_cast<float>(2 * standing / span) : 0.0f;
}

}  // namespace boardlab
