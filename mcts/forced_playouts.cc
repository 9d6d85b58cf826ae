// Forced playouts at the root and the pruned visit counts of the policy target.
#include "mcts/forced_playouts.h"

#include <algorithm>
#include <cmath>

namespace boardlab {

double forced_playouts(float prior, int child_visits) {
  return std::sqrt(kForcedPlayoutK * static_cast<double>(prior) * static_cast<double>(child_visits));
}

std::int32_t forced_root_child(const Tree& tree) {
  const Node& root = tree[Tree::kRoot];
  int total = 0;
  for (std::int32_t c = 0; c < root.num_children; ++c)
    total += tree[root.first_child + c].visits + tree[root.first_child + c].in_flight;
  std::int32_t best = -1;
  double most_behind = 0;
  for (std::int32_t c = 0; c < root.num_children; ++c) {
    const Node& child = tree[root.first_child + c];
    const double behind = forced_playouts(child.prior, total) - (child.visits + child.in_flight);
    if (behind > most_behind) {
      most_behind = behind;
      best = root.first_child + c;
    }
  }
  return best;
}

std::vector<float> pruned_root_visits(const Tree& tree, const SearchConfig& config) {
  const Node& root = tree[Tree::kRoot];
  std::vector<float> visits(static_cast<std::size_t>(root.num_children), 0.0f);
  int total = 0;
  std::int32_t top = -1;
  for (std::int32_t c = 0; c < root.num_children; ++c) {
    const Node& child = tree[root.first_child + c];
    visits[static_cast<std::size_t>(c)] = static_cast<float>(child.visits);
    total += child.visits;
    if (top < 0 || child.visits > tree[root.first_child + top].visits) top = c;
  }
  if (total == 0) return visits;
  // PUCT's score as selection computes it once the search is over (no pending leaves).
  const double sqrt_parent = std::sqrt(static_cast<double>(std::max(1, root.visits)));
  const auto exploration = [&](const Node& child, double n) { return config.c_puct * child.prior * sqrt_parent / (1 + n); };
  const Node& best = tree[root.first_child + top];
  const double best_score = best.mean_value() + exploration(best, best.visits);
  for (std::int32_t c = 0; c < root.num_children; ++c) {
    const Node& child = tree[root.first_child + c];
    if (c == top || child.visits == 0) continue;
    // The fewest visits n with Q + c·P·sqrt(N)/(1 + n) <= best_score, but no fewer than
    // the visits minus those forced.
    const double floor_forced = child.visits - forced_playouts(child.prior, total);
    const double gap = best_score - child.mean_value();
    double needed = child.visits;  // a child that beats the best on its value keeps them all
    if (gap > 0) needed = std::min<double>(child.visits, std::ceil(config.c_puct * child.prior * sqrt_parent / gap - 1));
    const double kept = std::max({floor_forced, needed, 0.0});
    visits[static_cast<std::size_t>(c)] = kept <= 1 ? 0.0f : static_cast<float>(std::ceil(kept));
  }
  return visits;
}

}  // namespace boardlab
