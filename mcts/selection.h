// Choosing which child to descend into at an interior node: PUCT, UCB1, or Gumbel's deterministic rule.
#pragma once

#include <vector>

#include "core/rng.h"
#include "mcts/search_config.h"
#include "mcts/tree.h"

namespace boardlab {

// The child of an expanded `node` to simulate next, from its mover's point of view,
// counting pending leaves as losses (virtual loss). A child proven to win for the mover
// is taken at once. `scratch` avoids an allocation per call.
std::int32_t select_child(const Tree& tree, std::int32_t node, const SearchConfig& config, Rng& rng,
                          std::vector<float>& scratch);

}  // namespace boardlab
