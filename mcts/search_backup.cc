// Expansion of evaluated leaves and the backup of their values up the path.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"
#include "core/random_play.h"
#include "core/score_margin.h"
#include "mcts/search.h"

namespace boardlab {

void Search::expand(std::int32_t node_index, const Leaf& leaf, std::span<const Evaluation> evals) {
  for (std::size_t r = 0; r < evals.size(); ++r) {
    const std::size_t legal = leaf.request_legal(r).size();
    if (evals[r].prior.size() != legal || evals[r].value.size() != returns_.size())
      throw InputError("evaluator returned " + std::to_string(evals[r].prior.size()) + " priors and " +
                       std::to_string(evals[r].value.size()) + " values for " + std::to_string(legal) +
                       " legal actions and " + std::to_string(returns_.size()) + " players");
  }
  if (simultaneous_ && leaf.state->is_simultaneous_node()) return expand_simultaneous(node_index, leaf, evals);
  const Player mover = leaf.player;
  const std::vector<Action>& legal = leaf.legal;
  const Evaluation& eval = evals[0];
  const auto count = static_cast<std::int32_t>(legal.size());
  const std::int32_t first = tree_.add_children(node_index, count);
  // Each child holds its tempered prior, then the share of their sum.
  const float exponent = 1.0f / config_.prior_temperature;
  double total = 0;
  for (std::int32_t c = 0; c < count; ++c) {
    Node& child = tree_[first + c];
    child.action = legal[c];
    const float p = std::max(eval.prior[c], 0.0f);
    child.prior = exponent == 1.0f ? p : std::pow(p, exponent);
    total += child.prior;
  }
  for (std::int32_t c = 0; c < count; ++c) {
    Node& child = tree_[first + c];
    child.prior = total > 0 ? static_cast<float>(child.prior / total) : 1.0f / static_cast<float>(count);
  }
  Node& node = tree_[node_index];
  node.mover = static_cast<std::int8_t>(mover);
  node.net_value = eval.value[mover];
  node.status = NodeStatus::kExpanded;
  if (config_.transpositions) transpositions_.insert(leaf.hash, leaf.path.size(), node_index);
}

void Search::expand_chance(std::int32_t node_index, const Leaf& leaf) {
  leaf.state->chance_outcomes(outcomes_);
  const auto count = static_cast<std::int32_t>(outcomes_.size());
  const std::int32_t first = tree_.add_children(node_index, count);
  for (std::int32_t c = 0; c < count; ++c) {
    tree_[first + c].action = outcomes_[c].action;
    tree_[first + c].prior = static_cast<float>(outcomes_[c].probability);
  }
  Node& node = tree_[node_index];
  node.mover = static_cast<std::int8_t>(kChancePlayer);
  node.status = NodeStatus::kExpanded;
  if (config_.transpositions) transpositions_.insert(leaf.hash, leaf.path.size(), node_index);
}

void Search::backup(std::span<const Evaluation> evals) {
  if (evals.size() != requests_.size())
    throw InputError("search backup: " + std::to_string(evals.size()) + " evaluations for " +
                     std::to_string(num_leaves_) + " leaves" +
                     (requests_.size() != static_cast<std::size_t>(num_leaves_)
                          ? " (" + std::to_string(requests_.size()) + " requests: one per seat at a simultaneous leaf)"
                          : std::string()));
  // Before anything is backed up: selection compares priors and values, and a NaN among
  // them picks no child, so the search would return an action that is not legal.
  for (const Evaluation& eval : evals) {
    const bool finite_prior =
        std::all_of(eval.prior.begin(), eval.prior.end(), [](float p) { return p >= 0 && std::isfinite(p); });
    if (!finite_prior || !std::all_of(eval.value.begin(), eval.value.end(), [](float v) { return std::isfinite(v); }))
      throw InputError(std::string("search: the evaluator's ") + (finite_prior ? "values are" : "priors are") +
                       " not finite (or a prior is negative): the search stops rather than choose from them");
  }
  if (weighing_) {
    belief_.weigh(evals, config_.belief_floor);
    weighing_ = false;
    requests_.clear();
    return;
  }
  std::size_t offset = 0;
  for (int i = 0; i < num_leaves_; ++i) {
    const Leaf& leaf = leaves_[i];
    const std::span<const Evaluation> mine = evals.subspan(offset, leaf.requests());
    offset += leaf.requests();
    const std::int32_t node = leaf.path.back();
    expand(node, leaf, mine);
    if (node == Tree::kRoot && leaf.path.size() == 1 && tree_[Tree::kRoot].visits == 0) {
      tree_[Tree::kRoot].visits = 1;  // the root's own evaluation
      prepare_root();
      continue;
    }
    if (leaf.num_seats == 0 && config_.rollout_weight == 0 && config_.score_utility == 0) {
      backup_path(leaf, mine[0].value);
    } else {
      leaf_value(leaf, mine);
      if (config_.score_utility > 0) mix_score(node, leaf, mine);
      if (config_.rollout_weight > 0) mix_rollout(node, leaf);
      backup_path(leaf, value_);
    }
    ++completed_;
  }
  num_leaves_ = 0;
  requests_.clear();
}

void Search::leaf_value(const Leaf& leaf, std::span<const Evaluation> evals) {
  // A simultaneous leaf: each seat's value from its own request (the first request's for
  // a seat without one).
  const std::vector<float>& first = evals[0].value;
  std::copy(first.begin(), first.end(), value_.begin());
  for (std::size_t r = 1; r < evals.size(); ++r) value_[leaf.seats[r - 1]] = evals[r].value[leaf.seats[r - 1]];
}

void Search::mix_score(std::int32_t node, const Leaf& leaf, std::span<const Evaluation> evals) {
  // Two players (check_supported): a seat's margin is the other's negated, so the first
  // request gives both; at a simultaneous leaf each other seat's own request overrides.
  for (std::size_t r = 0; r < evals.size(); ++r) {
    const float margin = evals[r].score_margin;
    if (!std::isfinite(margin))
      throw InputError("search: score_utility weighs the final score margin, and the evaluator predicts none "
                       "(a network predicts it with network.score_head)");
    const Player seat = leaf.request_player(r);
    margin_[seat] = margin;
    if (r == 0) margin_[1 - seat] = -margin;
  }
  const float w = config_.score_utility;
  for (std::size_t p = 0; p < value_.size(); ++p) value_[p] = (1 - w) * value_[p] + w * margin_[p];
  // The node's own evaluation (first-play urgency, Gumbel's completed Q) is the mixed one.
  if (tree_[node].mover >= 0) tree_[node].net_value = value_[tree_[node].mover];
}

void Search::terminal_value(const State& state, std::span<float> out) {
  state.returns(returns_);
  const double contempt = config_.draw_value != 0 && is_draw(returns_) ? config_.draw_value : 0.0;
  const float w = config_.score_utility;
  if (w > 0) score_margins(state, margin_);
  for (std::size_t p = 0; p < out.size(); ++p) {
    const auto value = static_cast<float>(returns_[p] + contempt);
    out[p] = w > 0 ? (1 - w) * value + w * margin_[p] : value;
  }
}

void Search::mix_rollout(std::int32_t node, const Leaf& leaf) {
  // The leaf's state is its own copy and is not read again after expansion: the last
  // playout runs on it, the others on clones. A playout's end is worth what a terminal
  // leaf's is (terminal_value).
  const int rollouts = config_.rollouts;
  std::fill(rollout_sum_.begin(), rollout_sum_.end(), 0.0);
  for (int r = 0; r < rollouts; ++r) {
    std::unique_ptr<State> copy = r + 1 < rollouts ? leaf.state->clone() : nullptr;
    State& playout = copy ? *copy : *leaf.state;
    while (!playout.is_terminal()) apply_random_step(playout, rng_, joint_);
    terminal_value(playout, playout_value_);
    for (std::size_t p = 0; p < value_.size(); ++p) rollout_sum_[p] += playout_value_[p];
  }
  const float w = config_.rollout_weight;
  for (std::size_t p = 0; p < value_.size(); ++p)
    value_[p] = (1 - w) * value_[p] + w * static_cast<float>(rollout_sum_[p] / rollouts);
  // The node's own evaluation (first-play urgency, Gumbel's completed Q) is the mixed one.
  if (tree_[node].mover >= 0) tree_[node].net_value = value_[tree_[node].mover];
}

void Search::backup_path(const Leaf& leaf, std::span<const float> value) {
  for (std::size_t i = leaf.path.size() - 1; i > 0; --i) {
    Node& node = tree_[leaf.path[i]];
    const Player chooser = tree_[leaf.path[i - 1]].mover;  // none for chance and joint children
    node.visits += 1;
    --node.in_flight;
    if (chooser >= 0) node.value_sum += value[chooser];
  }
  if (simultaneous_) {
    for (const SeatPick& pick : leaf.picks) {
      Node& stat = tree_[pick.stat];
      stat.visits += 1;
      --stat.in_flight;
      stat.value_sum += value[pick.seat];
      if (pick.probability > 0)
        update_regrets(tree_, pick.stat, pick.first, pick.count, pick.probability, value[pick.seat]);
    }
    if (leaf.root_cell >= 0) matrix_.add(leaf.root_cell, value);
  }
  tree_[Tree::kRoot].visits += 1;
}

}  // namespace boardlab
