// PUCT (AlphaZero), UCB1 (UCT) and Gumbel interior selection, over all children or the available ones; chance outcomes.
#include "mcts/selection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mcts/gumbel.h"

namespace boardlab {
namespace {

// The candidates of one choice: `count` statistics from `first`, the chooser's passes
// through the node and its value there. kMasked: only available[c] != 0, and each child's
// availability count replaces `visits`.
struct Block {
  std::int32_t first;
  std::int32_t count;
  int visits;
  float value;
};

// Mean value with pending leaves counted as `virtual_loss` each.
float pending_q(const Node& child, float virtual_loss) {
  const float n = static_cast<float>(child.visits + child.in_flight);
  return (child.value_sum - virtual_loss * static_cast<float>(child.in_flight)) / n;
}

template <bool kMasked>
std::int32_t select_puct(const Tree& tree, const Block& b, const SearchConfig& config,
                         std::span<const std::uint8_t> available) {
  float visited_prior = 0;
  for (std::int32_t c = 0; c < b.count; ++c) {
    if (kMasked && !available[c]) continue;
    const Node& child = tree[b.first + c];
    if (child.visits + child.in_flight > 0) visited_prior += child.prior;
  }
  const float fpu = b.value - config.fpu_reduction * std::sqrt(visited_prior);
  const float sqrt_total = std::sqrt(static_cast<float>(std::max(1, b.visits)));
  std::int32_t best = kMasked ? -1 : b.first;
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < b.count; ++c) {
    if (kMasked && !available[c]) continue;
    const Node& child = tree[b.first + c];
    const int n = child.visits + child.in_flight;
    const float q = n > 0 ? pending_q(child, config.virtual_loss) : fpu;
    const float total = kMasked ? std::sqrt(static_cast<float>(std::max(1, tree.available(b.first + c)))) : sqrt_total;
    const float score = q + config.c_puct * child.prior * total / static_cast<float>(1 + n);
    if (score > best_score || (kMasked && best < 0)) {
      best_score = score;
      best = b.first + c;
    }
  }
  return best;
}

template <bool kMasked>
std::int32_t select_uct(const Tree& tree, const Block& b, const SearchConfig& config, Rng& rng,
                        std::span<const std::uint8_t> available) {
  // Every child once first, in random order so that ties do not favour low actions.
  int unvisited = 0;
  for (std::int32_t c = 0; c < b.count; ++c)
    if (!kMasked || available[c]) unvisited += tree[b.first + c].visits + tree[b.first + c].in_flight == 0;
  if (unvisited > 0) {
    int pick = static_cast<int>(rng.below(static_cast<std::uint32_t>(unvisited)));
    for (std::int32_t c = 0; c < b.count; ++c) {
      if (kMasked && !available[c]) continue;
      const Node& child = tree[b.first + c];
      if (child.visits + child.in_flight == 0 && pick-- == 0) return b.first + c;
    }
  }
  const float log_total = std::log(static_cast<float>(std::max(1, b.visits)));
  std::int32_t best = kMasked ? -1 : b.first;
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < b.count; ++c) {
    if (kMasked && !available[c]) continue;
    const Node& child = tree[b.first + c];
    const float n = static_cast<float>(child.visits + child.in_flight);
    const float log_n = kMasked ? std::log(static_cast<float>(std::max(1, tree.available(b.first + c)))) : log_total;
    const float score = pending_q(child, config.virtual_loss) + config.uct_c * std::sqrt(log_n / n);
    if (score > best_score || (kMasked && best < 0)) {
      best_score = score;
      best = b.first + c;
    }
  }
  return best;
}

template <bool kMasked>
std::int32_t select_gumbel_interior(const Tree& tree, std::int32_t node_index, const SearchConfig& config,
                                    std::vector<float>& policy, std::span<const std::uint8_t> available) {
  // argmax π'(a) − N(a) / (1 + Σ N): visits follow the improved policy deterministically.
  const Node& node = tree[node_index];
  policy.resize(node.num_children);
  improved_policy(tree, node_index, config, policy, available);
  int total = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c)
    if (!kMasked || available[c]) total += tree[node.first_child + c].visits + tree[node.first_child + c].in_flight;
  std::int32_t best = kMasked ? -1 : node.first_child;
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    if (kMasked && !available[c]) continue;
    const Node& child = tree[node.first_child + c];
    const float score =
        policy[c] - static_cast<float>(child.visits + child.in_flight) / static_cast<float>(1 + total);
    if (score > best_score || (kMasked && best < 0)) {
      best_score = score;
      best = node.first_child + c;
    }
  }
  return best;
}

}  // namespace

std::int32_t select_child(const Tree& tree, std::int32_t node_index, const SearchConfig& config, Rng& rng,
                          std::vector<float>& scratch, std::span<const std::uint8_t> available) {
  const Node& node = tree[node_index];
  const Block block{node.first_child, node.num_children, node.visits + node.in_flight, node.net_value};
  switch (config.algorithm) {
    case SearchAlgorithm::kPuct:
      return available.empty() ? select_puct<false>(tree, block, config, available)
                               : select_puct<true>(tree, block, config, available);
    case SearchAlgorithm::kUct:
      return available.empty() ? select_uct<false>(tree, block, config, rng, available)
                               : select_uct<true>(tree, block, config, rng, available);
    default:
      return available.empty() ? select_gumbel_interior<false>(tree, node_index, config, scratch, available)
                               : select_gumbel_interior<true>(tree, node_index, config, scratch, available);
  }
}

std::int32_t select_in_block(const Tree& tree, std::int32_t first, std::int32_t count, int visits, float value,
                             const SearchConfig& config, Rng& rng) {
  const Block block{first, count, visits, value};
  if (config.algorithm == SearchAlgorithm::kUct) return select_uct<false>(tree, block, config, rng, {});
  return select_puct<false>(tree, block, config, {});
}

std::int32_t select_chance_child(const Tree& tree, std::int32_t node_index) {
  const Node& node = tree[node_index];
  return select_by_prior(tree, node.first_child, node.num_children);
}

std::int32_t best_valued_child(const Tree& tree, std::int32_t first, std::int32_t count) {
  int total = 0;
  for (std::int32_t c = 0; c < count; ++c) total += tree[first + c].visits;
  const float enough = std::max(1.0f, 0.5f * static_cast<float>(total) / static_cast<float>(count));
  std::int32_t best = first;
  for (std::int32_t c = 0; c < count; ++c) {
    const Node& child = tree[first + c];
    const Node& held = tree[best];
    if (static_cast<float>(child.visits) < enough) continue;
    if (static_cast<float>(held.visits) < enough || child.mean_value() > held.mean_value() ||
        (child.mean_value() == held.mean_value() && child.visits > held.visits))
      best = first + c;
  }
  return best;
}

std::int32_t select_by_prior(const Tree& tree, std::int32_t first, std::int32_t count,
                             std::span<const std::uint8_t> available) {
  int total = 0;
  float mass = 0;
  for (std::int32_t c = 0; c < count; ++c) {
    if (!available.empty() && !available[c]) continue;
    total += tree[first + c].visits + tree[first + c].in_flight;
    mass += tree[first + c].prior;
  }
  // Among the available children the priors are renormalised; with no mass, each is equally likely.
  const float uniform = 1.0f / static_cast<float>(count);
  std::int32_t best = -1;
  float best_lag = -std::numeric_limits<float>::infinity();
  for (std::int32_t c = 0; c < count; ++c) {
    if (!available.empty() && !available[c]) continue;
    const Node& child = tree[first + c];
    const float p = mass > 0 ? child.prior / mass : uniform;
    const float lag = p * static_cast<float>(total + 1) - static_cast<float>(child.visits + child.in_flight);
    if (lag > best_lag) {
      best_lag = lag;
      best = first + c;
    }
  }
  return best;
}

}  // namespace boardlab
