// Completed Q-values, the improved policy and the sequential-halving schedule.
#include "mcts/gumbel.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "mcts/noise.h"

namespace boardlab {

namespace {

// kMasked: only the children with available[c] != 0 count (information-set search); the
// unmasked instances are the plain loops of the hot path.
// The children are `count` nodes from `first`; `own_value` is their parent's own estimate
// for the mover (a decision node's net_value, a simultaneous seat's mean value).
template <bool kMasked>
void sigma_of(const Tree& tree, std::int32_t first, std::int32_t count, float own_value, const SearchConfig& config,
              std::span<float> out, std::span<const std::uint8_t> available) {
  double visited_prior = 0, weighted_q = 0;
  int total_visits = 0, max_visits = 0;
  for (std::int32_t c = 0; c < count; ++c) {
    const Node& child = tree[first + c];
    if (child.visits == 0 || (kMasked && !available[c])) continue;
    visited_prior += child.prior;
    weighted_q += child.prior * child.mean_value();
    total_visits += child.visits;
    max_visits = std::max(max_visits, child.visits);
  }
  float v_mix = own_value;
  if (visited_prior > 0)
    v_mix = static_cast<float>((own_value + total_visits * weighted_q / visited_prior) / (1.0 + total_visits));
  float lo = v_mix, hi = v_mix;
  for (std::int32_t c = 0; c < count; ++c) {
    const Node& child = tree[first + c];
    if (kMasked && !available[c]) continue;
    out[c] = child.visits > 0 ? child.mean_value() : v_mix;
    lo = std::min(lo, out[c]);
    hi = std::max(hi, out[c]);
  }
  const float scale = (config.gumbel_c_visit + static_cast<float>(max_visits)) * config.gumbel_c_scale;
  const float range = std::max(hi - lo, 1e-8f);
  for (std::int32_t c = 0; c < count; ++c)
    out[c] = kMasked && !available[c] ? 0.0f : scale * (out[c] - lo) / range;
}

template <bool kMasked>
void policy_of(const Tree& tree, std::int32_t first, std::int32_t count, float own_value, const SearchConfig& config,
               std::span<float> out, std::span<const std::uint8_t> available) {
  sigma_of<kMasked>(tree, first, count, own_value, config, out, available);
  float top = -1e30f;
  for (std::int32_t c = 0; c < count; ++c) {
    if (kMasked && !available[c]) continue;
    out[c] += std::log(std::max(tree[first + c].prior, 1e-20f));
    top = std::max(top, out[c]);
  }
  float sum = 0;
  for (std::int32_t c = 0; c < count; ++c) sum += (out[c] = kMasked && !available[c] ? 0.0f : std::exp(out[c] - top));
  for (std::int32_t c = 0; c < count; ++c) out[c] /= sum;
}

}  // namespace

void sigma_completed_q(const Tree& tree, std::int32_t node, const SearchConfig& config, std::span<float> out,
                       std::span<const std::uint8_t> available) {
  const Node& n = tree[node];
  if (available.empty()) sigma_of<false>(tree, n.first_child, n.num_children, n.net_value, config, out, available);
  else sigma_of<true>(tree, n.first_child, n.num_children, n.net_value, config, out, available);
}

void improved_policy(const Tree& tree, std::int32_t node, const SearchConfig& config, std::span<float> out,
                     std::span<const std::uint8_t> available) {
  const Node& n = tree[node];
  if (available.empty()) policy_of<false>(tree, n.first_child, n.num_children, n.net_value, config, out, available);
  else policy_of<true>(tree, n.first_child, n.num_children, n.net_value, config, out, available);
}

void improved_policy(const Tree& tree, std::int32_t first, std::int32_t count, float own_value,
                     const SearchConfig& config, std::span<float> out) {
  policy_of<false>(tree, first, count, own_value, config, out, {});
}

void gumbel_top_k(const Tree& tree, std::int32_t first, std::int32_t count, int k, float scale, Rng& rng,
                  std::vector<float>& scores, std::vector<std::int32_t>& top) {
  scores.resize(static_cast<std::size_t>(count));
  for (std::int32_t c = 0; c < count; ++c)
    scores[c] = scale * sample_gumbel(rng) + std::log(std::max(tree[first + c].prior, 1e-20f));
  top.resize(static_cast<std::size_t>(count));
  std::iota(top.begin(), top.end(), 0);
  k = std::clamp(k, 0, count);
  std::partial_sort(top.begin(), top.begin() + k, top.end(),
                    [&](std::int32_t a, std::int32_t b) { return scores[a] > scores[b]; });
  top.resize(static_cast<std::size_t>(k));
}

HalvingSchedule::HalvingSchedule(int considered, int simulations)
    : considered_(std::max(1, considered)),
      simulations_(std::max(0, simulations)),
      phases_(considered_ <= 1 ? 0 : static_cast<int>(std::ceil(std::log2(considered_)))) {}

int HalvingSchedule::target(std::int64_t simulation) const {
  const std::int64_t k = std::clamp<std::int64_t>(simulation, 0, std::max(0, simulations_ - 1));
  if (considered_ <= 1) return static_cast<int>(k);
  // Phase by phase: a phase gives each of its survivors `rounds` visits, entry e of the
  // phase going to a survivor with base + e / survivors; from two survivors on the phases
  // are alike, so one step covers the rest.
  std::int64_t start = 0, base = 0;
  int survivors = considered_;
  while (true) {
    const std::int64_t rounds = std::max(1, simulations_ / (phases_ * survivors));
    const std::int64_t length = rounds * survivors;
    if (survivors == 2 || k < start + length) return static_cast<int>(base + (k - start) / survivors);
    start += length;
    base += rounds;
    survivors = std::max(2, survivors / 2);
  }
}

}  // namespace boardlab
