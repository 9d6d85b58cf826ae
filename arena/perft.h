// Perft: the number of legal step sequences of a given length, the standard move-generator check.
#pragma once

#include <cstdint>

#include "core/game.h"

namespace boardlab {

// Counts sequences of exactly `depth` steps from `state`: a sub-move or a chance outcome
// counts one (chance outcomes are counted, not weighted), and a simultaneous round counts
// one with a branch per joint action. A game that ends earlier contributes nothing. A stop
// request (core/stop.h) ends it early with a partial count: the caller reports the stop.
std::uint64_t perft(const State& state, int depth);

}  // namespace boardlab
