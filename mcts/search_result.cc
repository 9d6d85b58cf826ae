// The search's decision: each acting seat's move, policy target, visits and value at the root.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.h"
#include "mcts/forced_playouts.h"
#include "mcts/gumbel.h"
#include "mcts/search.h"
#include "mcts/selection.h"

namespace boardlab {

SearchResult Search::result() {
  const Node& root = tree_[Tree::kRoot];
  if (root.status != NodeStatus::kExpanded) throw InputError("search result requested before the root was evaluated");
  SearchResult out;
  out.simulations = completed_;
  if (root.mover == kSimultaneousPlayer) simultaneous_results(out);
  else out.players.push_back(decision_result(out.proven_win));
  out.concealed = concealed_;
  for (const PlayerSearchResult& seat : out.players) {
    if (seat.player != viewer_) continue;
    out.action = seat.action;
    out.legal = seat.legal;
    out.visits = seat.visits;
    out.policy = seat.policy;
    out.value = seat.value;
  }
  return out;
}

PlayerSearchResult Search::decision_result(bool& proven_win) {
  const Node& root = tree_[Tree::kRoot];
  PlayerSearchResult out;
  out.player = root.mover;
  const std::int32_t n = root.num_children;
  out.legal.resize(n);
  out.visits.resize(n);
  out.policy.assign(n, 0.0f);
  int total = 0;
  for (std::int32_t c = 0; c < n; ++c) {
    const Node& child = tree_[root.first_child + c];
    out.legal[c] = child.action;
    out.visits[c] = child.visits;
    total += child.visits;
  }
  double value_sum = root.net_value;
  for (std::int32_t c = 0; c < n; ++c) value_sum += tree_[root.first_child + c].value_sum;
  out.value = static_cast<float>(value_sum / (1 + total));
  if (concealed_) {
    out.action = out.legal[concealed_choice(out.policy)];
    return out;
  }
  std::int32_t chosen = proven_choice(proven_win);
  if (config_.algorithm == SearchAlgorithm::kGumbel && n > 1) chosen = gumbel_choice(out, chosen);
  else chosen = visits_choice(out, total, chosen);
  if (drawn_from_search_ && !tree_.is_proven(Tree::kRoot)) chosen = tempered_draw(out.policy);
  out.action = out.legal[chosen];
  return out;
}

std::int32_t Search::proven_choice(bool& proven_win) {
  if (!tree_.is_proven(Tree::kRoot)) return -1;
  const Node& root = tree_[Tree::kRoot];
  const float best = tree_.proven_value(Tree::kRoot)[root.mover];
  std::int32_t chosen = -1;
  for (std::int32_t c = 0; c < root.num_children; ++c) {
    const std::int32_t child = root.first_child + c;
    if (!tree_.is_proven(child) || tree_.proven_value(child)[root.mover] != best) continue;
    const Node& candidate = tree_[child];
    const Node* current = chosen >= 0 ? &tree_[root.first_child + chosen] : nullptr;
    if (!current || (candidate.status == NodeStatus::kTerminal && current->status != NodeStatus::kTerminal) ||
        (candidate.status == current->status && candidate.visits > current->visits))
      chosen = c;
  }
  proven_win = best >= max_return_;
  return chosen;
}

std::int32_t Search::gumbel_choice(PlayerSearchResult& out, std::int32_t chosen) {
  improved_policy(tree_, Tree::kRoot, config_, out.policy);
  if (chosen >= 0) return chosen;
  if (!root_prepared_) prepare_root();
  scratch_.resize(out.legal.size());
  sigma_completed_q(tree_, Tree::kRoot, config_, scratch_);
  int most = -1;
  for (std::int32_t c : considered_) most = std::max(most, out.visits[c] - base_visits_[c]);
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c : considered_) {
    if (out.visits[c] - base_visits_[c] != most) continue;
    if (gumbel_[c] + scratch_[c] > best_score) {
      best_score = gumbel_[c] + scratch_[c];
      chosen = c;
    }
  }
  return chosen;
}

std::int32_t Search::visits_choice(PlayerSearchResult& out, int total, std::int32_t chosen) {
  const Node& root = tree_[Tree::kRoot];
  const std::int32_t n = root.num_children;
  if (config_.policy_target == PolicyTarget::kCompletedQ && total > 0 && n > 1) {
    improved_policy(tree_, Tree::kRoot, config_, out.policy);
  } else if (forced_playouts_ && total > 0) {
    // The target without the visits that only forcing gave (the move is still chosen
    // from the real visits below).
    const std::vector<float> pruned = pruned_root_visits(tree_, config_);
    double kept = 0;
    for (float v : pruned) kept += v;
    for (std::int32_t c = 0; c < n; ++c) out.policy[c] = static_cast<float>(pruned[c] / kept);
  } else {
    for (std::int32_t c = 0; c < n; ++c)
      out.policy[c] = total > 0 ? static_cast<float>(out.visits[c]) / static_cast<float>(total)
                                : tree_[root.first_child + c].prior;
  }
  if (chosen >= 0) return chosen;
  if (config_.temperature > 0 && total > 0) {
    std::vector<double> weights(n);
    double sum = 0;
    for (std::int32_t c = 0; c < n; ++c)
      sum += weights[c] = std::pow(static_cast<double>(out.visits[c]) / total, 1.0 / config_.temperature);
    return static_cast<std::int32_t>(draw_index(rng_, weights, sum));
  }
  if (config_.model_opponents && total > 0) return best_valued_child(tree_, root.first_child, n) - root.first_child;
  // Most visited; ties go to the higher prior, which keeps tiny budgets sensible.
  chosen = 0;
  for (std::int32_t c = 1; c < n; ++c) {
    const Node& a = tree_[root.first_child + c];
    const Node& b = tree_[root.first_child + chosen];
    if (a.visits > b.visits || (a.visits == b.visits && a.prior > b.prior)) chosen = c;
  }
  return chosen;
}

std::int32_t Search::concealed_choice(std::vector<float>& policy) {
  // The prior, tempered, is drawn from and returned as the policy: self-play (at 1,
  // nn/self_play.cc) turns it into a target from the game's outcome.
  const Node& root = tree_[Tree::kRoot];
  for (std::int32_t c = 0; c < root.num_children; ++c) policy[c] = tree_[root.first_child + c].prior;
  return tempered_draw(policy);
}

std::int32_t Search::tempered_draw(std::vector<float>& policy) {
  const std::size_t n = policy.size();
  double total = 0;
  std::size_t likeliest = 0;
  for (std::size_t c = 0; c < n; ++c) {
    total += policy[c];
    if (policy[c] > policy[likeliest]) likeliest = c;
  }
  if (!(total > 0)) throw InputError("search: the policy at a concealed choice sums to " + std::to_string(total));
  const double t = config_.concealed_temperature;
  std::vector<double> weights(n);
  double sharpened = 0;
  for (std::size_t c = 0; c < n; ++c) {
    const double p = policy[c];
    sharpened += weights[c] = t == 1 ? p : t > 0 ? std::pow(p, 1 / t) : 0;
  }
  if (!(sharpened > 0)) {  // temperature 0, or so low that every power underflowed: the likeliest
    weights[likeliest] = 1;
    sharpened = 1;
  }
  for (std::size_t c = 0; c < n; ++c) policy[c] = static_cast<float>(weights[c] / sharpened);
  return static_cast<std::int32_t>(draw_index(rng_, weights, sharpened));
}

}  // namespace boardlab
