// Basic vocabulary shared by every layer: actions, players and their special values, history steps.
#pragma once

#include <cstdint>

namespace boardlab {

// An action is an index into the game's action space [0, num_distinct_actions).
using Action = std::int32_t;
// A player is a seat index [0, num_players) or one of the special values below.
using Player = std::int32_t;

// current_player() at a chance node: the game draws an outcome (State::chance_outcomes).
inline constexpr Player kChancePlayer = -1;
// current_player() at a node where all players act at once (State::apply_joint).
inline constexpr Player kSimultaneousPlayer = -2;
// A viewer who sees only what is public: a spectator (State::action_seen_by, public records).
inline constexpr Player kPublicViewer = -3;
// current_player() once the game is over (by its rules, or truncated by a cap).
inline constexpr Player kTerminalPlayer = -4;
// No player: a field not set yet, or "every seat" where a seat is optional. Distinct from every
// value above (kInvalidAction equals kChancePlayer, so it must never stand for a player).
inline constexpr Player kInvalidPlayer = -5;
inline constexpr Action kInvalidAction = -1;

// One step of a game's history: who acted (a seat or kChancePlayer) and what. A
// simultaneous round is one step per seat, in seat order, all in the same turn.
struct Step {
  Player player = kInvalidPlayer;
  Action action = kInvalidAction;
  bool operator==(const Step&) const = default;
};

}  // namespace boardlab
