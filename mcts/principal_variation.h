// The line a search expects from its root: for people reading an analysis (the decision itself is Search::result()).
#pragma once

#include <vector>

#include "mcts/tree.h"

namespace boardlab {

// The most visited action at each decision node from the root, up to `max_length` actions,
// stopping at a chance or simultaneous node (nobody chooses one line there) or where the
// tree ends.
std::vector<Action> principal_variation(const Tree& tree, int max_length);

}  // namespace boardlab
