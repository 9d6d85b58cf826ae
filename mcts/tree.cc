// Tree maintenance: child lookup, joint children, proven values, shared and growing blocks, re-rooting.
#include "mcts/tree.h"

#include <unordered_map>
#include <utility>

namespace boardlab {

void Tree::clear() {
  nodes_.clear();
  nodes_.emplace_back();
  joints_.clear();
  proven_.clear();
  available_.clear();
}

std::int32_t Tree::find_child(std::int32_t parent, Action action) const {
  const Node& node = nodes_[parent];
  for (std::int32_t c = 0; c < node.num_children; ++c)
    if (nodes_[node.first_child + c].action == action) return node.first_child + c;
  return -1;
}

std::int32_t Tree::add_joint_child(std::int32_t node, std::uint64_t code) {
  const auto child = size();
  nodes_.emplace_back();
  joints_.insert(static_cast<std::uint64_t>(node), code, child);
  return child;
}

void Tree::prove(std::int32_t node, std::span<const float> value) {
  nodes_[node].proven = static_cast<std::int32_t>(proven_.size() / static_cast<std::size_t>(players_));
  proven_.insert(proven_.end(), value.begin(), value.end());
}

void Tree::share_children(std::int32_t node, std::int32_t canonical) {
  const Node& from = nodes_[canonical];
  Node& to = nodes_[node];
  to.first_child = from.first_child;
  to.num_children = from.num_children;
  to.mover = from.mover;
  to.net_value = from.net_value;
  to.proven = from.proven;
  to.status = NodeStatus::kExpanded;
}

void Tree::extend_children(std::int32_t node, std::span<const Action> actions) {
  const std::int32_t old_first = nodes_[node].first_child;
  const std::int32_t old_count = nodes_[node].num_children;
  const std::int32_t count = old_count + static_cast<std::int32_t>(actions.size());
  const std::int32_t first = size();
  nodes_.resize(nodes_.size() + count);
  // Merge the old block and the new actions, both ascending.
  std::int32_t i = 0;
  std::size_t j = 0;
  if (!available_.empty()) available_.resize(nodes_.size(), 0);
  for (std::int32_t c = 0; c < count; ++c) {
    if (j == actions.size() || (i < old_count && nodes_[old_first + i].action < actions[j])) {
      if (!available_.empty()) available_[first + c] = available_[old_first + i];
      nodes_[first + c] = nodes_[old_first + i++];
    } else {
      nodes_[first + c].action = actions[j++];
    }
  }
  nodes_[node].first_child = first;
  nodes_[node].num_children = count;
}

void Tree::reroot(std::int32_t new_root) {
  // Breadth-first copy keeps every children block contiguous in the new arena. A block
  // shared by several nodes (transpositions) is copied once; joint children follow their
  // simultaneous node; proven vectors move to a compacted table.
  std::unordered_map<std::int32_t, std::vector<std::pair<std::uint64_t, std::int32_t>>> joints_of;
  joints_.for_each([&](std::uint64_t parent, std::uint64_t code, std::int32_t child) {
    joints_of[static_cast<std::int32_t>(parent)].emplace_back(code, child);
  });
  std::unordered_map<std::int32_t, std::int32_t> moved_blocks;
  std::vector<Node> kept{nodes_[new_root]};
  std::vector<std::int32_t> origin{new_root};
  NodeTable joints;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const std::int32_t first = kept[i].first_child;
    if (first >= 0) {
      const auto [it, fresh] = moved_blocks.try_emplace(first, static_cast<std::int32_t>(kept.size()));
      if (fresh) {
        for (std::int32_t c = 0; c < kept[i].num_children; ++c) {
          kept.push_back(nodes_[first + c]);
          origin.push_back(first + c);
        }
      }
      kept[i].first_child = it->second;
    }
    if (const auto it = joints_of.find(origin[i]); it != joints_of.end()) {
      for (const auto& [code, child] : it->second) {
        joints.insert(i, code, static_cast<std::int32_t>(kept.size()));
        kept.push_back(nodes_[child]);
        origin.push_back(child);
      }
    }
  }
  std::vector<float> proven;
  for (Node& node : kept) {
    node.in_flight = 0;
    // A pending evaluation that will never be backed up: a node with children was waiting
    // for its other seats.
    if (node.status == NodeStatus::kPending)
      node.status = node.num_children > 0 ? NodeStatus::kPartlyExpanded : NodeStatus::kFresh;
    if (node.proven == kUnproven) continue;
    const auto from = proven_.begin() + static_cast<std::ptrdiff_t>(node.proven) * players_;
    node.proven = static_cast<std::int32_t>(proven.size() / static_cast<std::size_t>(players_));
    proven.insert(proven.end(), from, from + players_);
  }
  std::vector<std::int32_t> available;
  if (!available_.empty())
    for (std::int32_t old : origin) available.push_back(this->available(old));
  nodes_ = std::move(kept);
  joints_ = std::move(joints);
  proven_ = std::move(proven);
  available_ = std::move(available);
}

}  // namespace boardlab
