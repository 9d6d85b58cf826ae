// Perft: the number of legal action sequences of a given length, the standard move-generator check.
#pragma once

#include <cstdint>

#include "core/game.h"

namespace boardlab {

// Counts sequences of exactly `depth` actions from `state` (sub-moves count one each;
// a game that ends earlier contributes nothing).
std::uint64_t perft(const State& state, int depth);

}  // namespace boardlab
