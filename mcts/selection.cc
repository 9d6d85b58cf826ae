// PUCT (AlphaZero), UCB1 (UCT) and Gumbel interior selection.
#include "mcts/selection.h"

#include <cmath>
#include <limits>

#include "mcts/gumbel.h"

namespace boardlab {
namespace {

// Mean value with pending leaves counted as `virtual_loss` each.
float pending_q(const Node& child, float virtual_loss) {
  const float n = static_cast<float>(child.visits + child.in_flight);
  return (child.value_sum - virtual_loss * static_cast<float>(child.in_flight)) / n;
}

std::int32_t select_puct(const Tree& tree, const Node& node, const SearchConfig& config) {
  float visited_prior = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    const Node& child = tree[node.first_child + c];
    if (child.visits + child.in_flight > 0) visited_prior += child.prior;
  }
  const float fpu = node.net_value - config.fpu_reduction * std::sqrt(visited_prior);
  const float sqrt_total = std::sqrt(static_cast<float>(std::max(1, node.visits + node.in_flight)));
  std::int32_t best = node.first_child;
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    const Node& child = tree[node.first_child + c];
    const int n = child.visits + child.in_flight;
    const float q = n > 0 ? pending_q(child, config.virtual_loss) : fpu;
    const float score = q + config.c_puct * child.prior * sqrt_total / static_cast<float>(1 + n);
    if (score > best_score) {
      best_score = score;
      best = node.first_child + c;
    }
  }
  return best;
}

std::int32_t select_uct(const Tree& tree, const Node& node, const SearchConfig& config, Rng& rng) {
  // Every child once first, in random order so that ties do not favour low actions.
  int unvisited = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c)
    unvisited += tree[node.first_child + c].visits + tree[node.first_child + c].in_flight == 0;
  if (unvisited > 0) {
    int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(unvisited)));
    for (std::int32_t c = 0; c < node.num_children; ++c) {
      const Node& child = tree[node.first_child + c];
      if (child.visits + child.in_flight == 0 && pick-- == 0) return node.first_child + c;
    }
  }
  const float log_total = std::log(static_cast<float>(node.visits + node.in_flight));
  std::int32_t best = node.first_child;
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    const Node& child = tree[node.first_child + c];
    const float n = static_cast<float>(child.visits + child.in_flight);
    const float score = pending_q(child, config.virtual_loss) + config.uct_c * std::sqrt(log_total / n);
    if (score > best_score) {
      best_score = score;
      best = node.first_child + c;
    }
  }
  return best;
}

std::int32_t select_gumbel_interior(const Tree& tree, std::int32_t node_index, const SearchConfig& config,
                                    std::vector<float>& policy) {
  // argmax π'(a) − N(a) / (1 + Σ N): visits follow the improved policy deterministically.
  const Node& node = tree[node_index];
  policy.resize(node.num_children);
  improved_policy(tree, node_index, config, policy);
  int total = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c)
    total += tree[node.first_child + c].visits + tree[node.first_child + c].in_flight;
  std::int32_t best = node.first_child;
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    const Node& child = tree[node.first_child + c];
    const float score =
        policy[c] - static_cast<float>(child.visits + child.in_flight) / static_cast<float>(1 + total);
    if (score > best_score) {
      best_score = score;
      best = node.first_child + c;
    }
  }
  return best;
}

}  // namespace

std::int32_t select_child(const Tree& tree, std::int32_t node_index, const SearchConfig& config, Rng& rng,
                          std::vector<float>& scratch) {
  const Node& node = tree[node_index];
  for (std::int32_t c = 0; c < node.num_children; ++c)
    if (tree[node.first_child + c].solved == node.mover) return node.first_child + c;
  switch (config.algorithm) {
    case SearchAlgorithm::kPuct: return select_puct(tree, node, config);
    case SearchAlgorithm::kUct: return select_uct(tree, node, config, rng);
    default: return select_gumbel_interior(tree, node_index, config, scratch);
  }
}

}  // namespace boardlab
