// Basic vocabulary shared by every layer: actions, players and their special values.
#pragma once

#include <cstdint>

namespace boardlab {

// An action is an index into the game's action space [0, num_distinct_actions).
using Action = std::int32_t;
// A player is a seat index [0, num_players) or one of the special values below.
using Player = std::int32_t;

// current_player() at a node where all players act at once (apply_joint).
inline constexpr Player kSimultaneousPlayer = -2;
// current_player() once the game is over.
inline constexpr Player kTerminalPlayer = -4;
inline constexpr Action kInvalidAction = -1;

}  // namespace boardlab
