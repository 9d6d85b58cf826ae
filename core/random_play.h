// Random play of whole games: the game-core speed benchmark behind `boardlab bench`.
#pragma once

#include <cstdint>

#include "core/game.h"

namespace boardlab {

struct RandomPlayStats {
  std::uint64_t games = 0;
  std::uint64_t actions = 0;  // sub-moves and passes
  double seconds = 0;
  double actions_per_second() const { return seconds > 0 ? static_cast<double>(actions) / seconds : 0; }
  double games_per_second() const { return seconds > 0 ? static_cast<double>(games) / seconds : 0; }
};

// Plays uniformly random games from the initial state to the end, through the generic
// State API (legal-move generation and legality checks included), on the calling thread,
// until `min_seconds` have passed and at least `min_games` games are done.
RandomPlayStats random_play(const Game& game, double min_seconds, std::uint64_t min_games, std::uint64_t seed);

}  // namespace boardlab
