// The solver: proven return vectors for sequential perfect-information games, and the backup of terminal and proven leaves.
//
// A terminal node proves its real returns, one per player. A decision node is proven when
// all its children are, with the vector of the mover's best child (max^n; among children
// equally good for the mover, the one with the lowest action), or at once when a child
// gives the mover the game's maximum return (then that child's vector, the first such
// child proven: the others cannot do better for the mover, and which one the mover picks
// only matters to the other players when there are 3 or more). A chance node is proven
// when all its outcomes are, with their expectation. Simultaneous nodes are never proven
// (their value is an equilibrium, not a maximum), nor anything with hidden information
// (a node stands for many deals). A proven node stops the descent and backs up its vector.
#include "mcts/search.h"

namespace boardlab {

void Search::backup_terminal(const Leaf& leaf) {
  const std::int32_t node = leaf.path.back();
  if (tree_.is_proven(node)) {
    const std::span<const float> proven = tree_.proven_value(node);
    std::copy(proven.begin(), proven.end(), value_.begin());
    // The parent may not know yet: it shares its children with a node proven through
    // another path (transpositions).
    propagate_proven(leaf.path);
  } else {
    // Without the solver a terminal node's returns are the sampled deal's, so they are
    // read every time; under information sets whether the game is over is the deal's too,
    // so the node is not marked (information_set.cc).
    terminal_value(*leaf.state, value_);
    if (tree_[node].status != NodeStatus::kTerminal && !information_sets_) {
      tree_[node].status = NodeStatus::kTerminal;
      if (solver_) {
        tree_.prove(node, value_);
        propagate_proven(leaf.path);
      }
    }
  }
  backup_path(leaf, value_);
  ++completed_;
}

void Search::propagate_proven(const std::vector<std::int32_t>& path) {
  for (std::size_t i = path.size() - 1; i > 0; --i) {
    const std::int32_t parent = path[i - 1];
    const std::int32_t child = path[i];
    if (tree_.is_proven(parent) || !tree_.is_proven(child)) return;
    const Node& node = tree_[parent];
    const std::int32_t first = node.first_child;
    proof_.resize(players_);
    if (node.mover >= 0) {
      std::int32_t best = child;
      if (tree_.proven_value(child)[node.mover] < max_return_) {
        best = -1;
        for (std::int32_t c = first; c < first + node.num_children; ++c) {
          if (!tree_.is_proven(c)) return;
          if (best < 0 || tree_.proven_value(c)[node.mover] > tree_.proven_value(best)[node.mover]) best = c;
        }
      }
      const std::span<const float> value = tree_.proven_value(best);
      std::copy(value.begin(), value.end(), proof_.begin());
    } else if (node.mover == kChancePlayer) {
      std::fill(proof_.begin(), proof_.end(), 0.0f);
      for (std::int32_t c = first; c < first + node.num_children; ++c) {
        if (!tree_.is_proven(c)) return;
        const std::span<const float> value = tree_.proven_value(c);
        for (int p = 0; p < players_; ++p) proof_[p] += tree_[c].prior * value[p];
      }
    } else {
      return;
    }
    tree_.prove(parent, proof_);
  }
}

}  // namespace boardlab
