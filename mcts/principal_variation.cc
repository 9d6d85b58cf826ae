// The line a search expects from its root, read off the tree by visits.
#include "mcts/principal_variation.h"

namespace boardlab {

std::vector<Action> principal_variation(const Tree& tree, int max_length) {
  std::vector<Action> line;
  std::int32_t node = Tree::kRoot;
  while (static_cast<int>(line.size()) < max_length) {
    const Node& at = tree[node];
    // Only a seat's decision has a best action; chance and simultaneous rounds have none.
    if (at.status != NodeStatus::kExpanded || at.mover < 0 || at.num_children == 0) break;
    std::int32_t best = -1;
    for (std::int32_t c = 0; c < at.num_children; ++c) {
      const std::int32_t child = at.first_child + c;
      if (tree[child].visits > 0 && (best < 0 || tree[child].visits > tree[best].visits)) best = child;
    }
    if (best < 0) break;
    line.push_back(tree[best].action);
    node = best;
  }
  return line;
}

}  // namespace boardlab
