// Completed Q-values, the improved policy and the sequential-halving schedule.
#include "mcts/gumbel.h"

#include <algorithm>
#include <cmath>

namespace boardlab {

void sigma_completed_q(const Tree& tree, std::int32_t node_index, const SearchConfig& config,
                       std::span<float> out, std::span<const std::uint8_t> available) {
  const Node& node = tree[node_index];
  auto counts = [&](std::int32_t c) { return available.empty() || available[c] != 0; };
  double visited_prior = 0, weighted_q = 0;
  int total_visits = 0, max_visits = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    const Node& child = tree[node.first_child + c];
    if (child.visits == 0 || !counts(c)) continue;
    visited_prior += child.prior;
    weighted_q += child.prior * child.mean_value();
    total_visits += child.visits;
    max_visits = std::max(max_visits, child.visits);
  }
  float v_mix = node.net_value;
  if (visited_prior > 0)
    v_mix = static_cast<float>((node.net_value + total_visits * weighted_q / visited_prior) / (1.0 + total_visits));
  float lo = v_mix, hi = v_mix;
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    const Node& child = tree[node.first_child + c];
    if (!counts(c)) continue;
    out[c] = child.visits > 0 ? child.mean_value() : v_mix;
    lo = std::min(lo, out[c]);
    hi = std::max(hi, out[c]);
  }
  const float scale = (config.gumbel_c_visit + static_cast<float>(max_visits)) * config.gumbel_c_scale;
  const float range = std::max(hi - lo, 1e-8f);
  for (std::int32_t c = 0; c < node.num_children; ++c) out[c] = counts(c) ? scale * (out[c] - lo) / range : 0.0f;
}

void improved_policy(const Tree& tree, std::int32_t node_index, const SearchConfig& config, std::span<float> out,
                     std::span<const std::uint8_t> available) {
  const Node& node = tree[node_index];
  auto counts = [&](std::int32_t c) { return available.empty() || available[c] != 0; };
  sigma_completed_q(tree, node_index, config, out, available);
  float top = -1e30f;
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    if (!counts(c)) continue;
    out[c] += std::log(std::max(tree[node.first_child + c].prior, 1e-20f));
    top = std::max(top, out[c]);
  }
  float sum = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c) sum += (out[c] = counts(c) ? std::exp(out[c] - top) : 0.0f);
  for (std::int32_t c = 0; c < node.num_children; ++c) out[c] /= sum;
}

std::vector<int> halving_visit_schedule(int considered, int simulations) {
  std::vector<int> schedule;
  schedule.reserve(simulations);
  if (considered <= 1) {
    for (int k = 0; k < simulations; ++k) schedule.push_back(k);
    return schedule;
  }
  const int phases = static_cast<int>(std::ceil(std::log2(considered)));
  std::vector<int> visits(considered, 0);
  int survivors = considered;
  while (static_cast<int>(schedule.size()) < simulations) {
    const int rounds = std::max(1, simulations / (phases * survivors));
    for (int r = 0; r < rounds; ++r) {
      for (int i = 0; i < survivors; ++i) schedule.push_back(visits[i]++);
    }
    survivors = std::max(2, survivors / 2);
  }
  schedule.resize(simulations);
  return schedule;
}

}  // namespace boardlab
