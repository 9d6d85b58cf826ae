// Golden playthroughs: a seeded random game written step by step, so that any change in a game's behaviour shows as a diff.
#pragma once

#include <cstdint>
#include <string>

#include "core/game.h"

namespace boardlab {

// Two seeded random games of `game`: for every step its turn, actor, action and text, a
// digest of each seat's legal actions and observation; at the end the returns, the
// truncation flag, the full and public records and the final board. Like OpenSpiel's
// playthrough files, but with digests to keep the files small.
std::string write_playthrough(const Game& game, std::uint64_t seed = 1);

}  // namespace boardlab
