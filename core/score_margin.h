// Each seat's final score margin, the one definition the score target and the search's score utility share.
#pragma once

#include <span>

#include "core/game.h"

namespace boardlab {

// At a terminal state of a game that declares a score (GameTraits::max_score_margin > 0):
// out[p] is seat p's score minus the best other seat's, over max_score_margin, clamped to
// [-1, 1] (the score itself, scaled, in a one-player game). Throws InputError when the game
// declares no score or a score is not finite.
void score_margins(const State& final, std::span<float> out);

}  // namespace boardlab
