// Tree maintenance: child lookup and re-rooting for tree reuse.
#include "mcts/tree.h"

#include <utility>

namespace boardlab {

std::int32_t Tree::find_child(std::int32_t parent, Action action) const {
  const Node& node = nodes_[parent];
  for (std::int32_t c = 0; c < node.num_children; ++c)
    if (nodes_[node.first_child + c].action == action) return node.first_child + c;
  return -1;
}

void Tree::reroot(std::int32_t new_root) {
  // Breadth-first copy keeps every children block contiguous in the new arena.
  std::vector<Node> kept;
  kept.push_back(nodes_[new_root]);
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const std::int32_t first = kept[i].first_child;
    const std::int32_t count = kept[i].num_children;
    if (first < 0) continue;
    kept[i].first_child = static_cast<std::int32_t>(kept.size());
    for (std::int32_t c = 0; c < count; ++c) kept.push_back(nodes_[first + c]);
  }
  for (Node& node : kept) {
    node.in_flight = 0;
    if (node.status == NodeStatus::kPending) node.status = NodeStatus::kFresh;
  }
  nodes_ = std::move(kept);
}

}  // namespace boardlab
