// Leaf selection, expansion, value backup, proven outcomes and the final decision of one search.
#include "mcts/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/errors.h"
#include "mcts/gumbel.h"
#include "mcts/noise.h"
#include "mcts/selection.h"

namespace boardlab {

Search::Search(const Game& game, const SearchConfig& config, std::uint64_t seed)
    : game_(&game), config_(config), rng_(seed) {
  validate(config_);
  returns_.resize(game.num_players());
  tree_.clear();
}

void Search::start(const PlayerView& view) {
  if (view.is_terminal()) throw InputError("search: the game is already over");
  if (!game_->type().perfect_information())
    throw InputError("search: " + game_->name() + " has hidden information, which this search does not handle");
  const std::unique_ptr<State> root_ptr = view.sample(rng_);  // the true state: nothing is hidden
  const State& root = *root_ptr;
  std::vector<Step> history = root.history();
  bool reused = false;
  if (config_.reuse_tree && root_state_ && history.size() >= root_history_.size() &&
      std::equal(root_history_.begin(), root_history_.end(), history.begin())) {
    // The history alone does not identify a position (one set up from a diagram has
    // none), so the old root with the new actions played must also be the new root.
    std::unique_ptr<State> replay = root_state_->clone();
    std::int32_t node = Tree::kRoot;
    for (std::size_t i = root_history_.size(); i < history.size() && node >= 0; ++i) {
      node = tree_[node].status == NodeStatus::kExpanded ? tree_.find_child(node, history[i].action) : -1;
      if (node >= 0) replay->apply(history[i].action);
    }
    if (node >= 0 && tree_[node].status == NodeStatus::kExpanded && replay->hash() == root.hash()) {
      tree_.reroot(node);
      reused = true;
    }
  }
  if (!reused) tree_.clear();
  root_state_ = root.clone();
  root_history_ = std::move(history);
  completed_ = started_ = 0;
  num_leaves_ = 0;
  requests_.clear();
  root_prepared_ = false;
  if (tree_[Tree::kRoot].status == NodeStatus::kExpanded) prepare_root();
}

bool Search::done() const {
  const Node& root = tree_[Tree::kRoot];
  if (root.status != NodeStatus::kExpanded) return false;
  if (root.num_children <= 1 || root.solved != kUnsolved) return true;
  return completed_ >= config_.simulations;
}

void Search::prepare_root() {
  // Called once the root has children: root noise, and Gumbel's considered actions.
  Node& root = tree_[Tree::kRoot];
  root_prepared_ = true;
  const std::int32_t n = root.num_children;
  if (config_.algorithm == SearchAlgorithm::kPuct && config_.dirichlet_epsilon > 0 && n > 1) {
    scratch_.resize(n);
    sample_dirichlet(rng_, config_.dirichlet_alpha, scratch_);
    for (std::int32_t c = 0; c < n; ++c) {
      float& prior = tree_[root.first_child + c].prior;
      prior = (1 - config_.dirichlet_epsilon) * prior + config_.dirichlet_epsilon * scratch_[c];
    }
  }
  if (config_.algorithm != SearchAlgorithm::kGumbel) return;
  gumbel_.resize(n);
  base_visits_.resize(n);
  for (std::int32_t c = 0; c < n; ++c) {
    const Node& child = tree_[root.first_child + c];
    gumbel_[c] = config_.gumbel_scale * sample_gumbel(rng_) + std::log(std::max(child.prior, 1e-20f));
    base_visits_[c] = child.visits;
  }
  considered_.resize(n);
  std::iota(considered_.begin(), considered_.end(), 0);
  const int m = std::min<int>(config_.gumbel_considered, n);
  std::partial_sort(considered_.begin(), considered_.begin() + m, considered_.end(),
                    [&](std::int32_t a, std::int32_t b) { return gumbel_[a] > gumbel_[b]; });
  considered_.resize(m);
  schedule_ = halving_visit_schedule(m, config_.simulations);
}

std::int32_t Search::select_root_child() {
  // Gumbel: the simulation goes to the best-scoring considered action whose visits (in
  // this search) match the halving schedule; Gumbel noise + logits fix the ranking.
  const Node& root = tree_[Tree::kRoot];
  scratch_.resize(root.num_children);
  sigma_completed_q(tree_, Tree::kRoot, config_, scratch_);
  const int target = schedule_[std::min<std::size_t>(started_, schedule_.size() - 1)];
  auto visits_of = [&](std::int32_t c) {
    const Node& child = tree_[root.first_child + c];
    return child.visits + child.in_flight - base_visits_[c];
  };
  int fewest = std::numeric_limits<int>::max();
  for (std::int32_t c : considered_) fewest = std::min(fewest, visits_of(c));
  const int wanted = std::any_of(considered_.begin(), considered_.end(), [&](std::int32_t c) {
                       return visits_of(c) == target;
                     })
                         ? target
                         : fewest;
  std::int32_t best = considered_.front();
  float best_score = -std::numeric_limits<float>::infinity();
  for (std::int32_t c : considered_) {
    if (visits_of(c) != wanted) continue;
    const float score = gumbel_[c] + scratch_[c];
    if (score > best_score) {
      best_score = score;
      best = c;
    }
  }
  return root.first_child + best;
}

bool Search::select_leaf(Leaf& leaf) {
  // Walks from the root to a node without children, adding virtual loss on the way.
  // Returns false (and undoes the virtual loss) when that node is already pending.
  leaf.state = root_state_->clone();
  leaf.path.clear();
  leaf.path.push_back(Tree::kRoot);
  std::int32_t node = Tree::kRoot;
  while (tree_[node].status == NodeStatus::kExpanded && tree_[node].solved == kUnsolved) {
    const bool gumbel_root = node == Tree::kRoot && config_.algorithm == SearchAlgorithm::kGumbel;
    const std::int32_t child = gumbel_root ? select_root_child() : select_child(tree_, node, config_, rng_, scratch_);
    tree_[child].in_flight += 1;
    leaf.state->apply(tree_[child].action);
    leaf.path.push_back(child);
    node = child;
  }
  if (tree_[node].status == NodeStatus::kPending) {
    for (std::size_t i = 1; i < leaf.path.size(); ++i) tree_[leaf.path[i]].in_flight -= 1;
    return false;
  }
  return true;
}

int Search::collect() {
  num_leaves_ = 0;
  requests_.clear();
  if (leaves_.size() < static_cast<std::size_t>(config_.leaves_per_step)) leaves_.resize(config_.leaves_per_step);
  Node& root = tree_[Tree::kRoot];
  if (root.status == NodeStatus::kFresh) {
    // The root's own evaluation comes first and is not counted as a simulation.
    Leaf& leaf = leaves_[num_leaves_++];
    leaf.state = root_state_->clone();
    leaf.path.assign(1, Tree::kRoot);
    leaf.state->legal_actions(leaf.legal);
    root.status = NodeStatus::kPending;
  }
  while (num_leaves_ == 0 && !done()) {
    // Without a pending evaluation, only terminal and proven leaves can be found: keep going.
    while (num_leaves_ < config_.leaves_per_step && started_ < config_.simulations && !done()) {
      Leaf& leaf = leaves_[num_leaves_];
      if (!select_leaf(leaf)) break;
      ++started_;
      const std::int32_t node = leaf.path.back();
      if (tree_[node].status == NodeStatus::kTerminal || tree_[node].solved != kUnsolved ||
          leaf.state->is_terminal()) {
        backup_terminal(leaf);
        continue;
      }
      leaf.state->legal_actions(leaf.legal);
      tree_[node].status = NodeStatus::kPending;
      ++num_leaves_;
    }
    if (started_ >= config_.simulations) break;
  }
  for (int i = 0; i < num_leaves_; ++i)
    requests_.push_back({leaves_[i].state.get(), leaves_[i].state->current_player(), leaves_[i].legal});
  return num_leaves_;
}

void Search::expand(std::int32_t node_index, const Leaf& leaf, const Evaluation& eval) {
  if (eval.prior.size() != leaf.legal.size() || eval.value.size() != returns_.size())
    throw InputError("evaluator returned " + std::to_string(eval.prior.size()) + " priors and " +
                     std::to_string(eval.value.size()) + " values for " + std::to_string(leaf.legal.size()) +
                     " legal actions and " + std::to_string(returns_.size()) + " players");
  const Player mover = leaf.state->current_player();
  const auto count = static_cast<std::int32_t>(leaf.legal.size());
  const std::int32_t first = tree_.add_children(node_index, count);
  double total = 0;
  for (float p : eval.prior) total += std::max(p, 0.0f);
  for (std::int32_t c = 0; c < count; ++c) {
    Node& child = tree_[first + c];
    child.action = leaf.legal[c];
    child.prior = total > 0 ? static_cast<float>(std::max(eval.prior[c], 0.0f) / total) : 1.0f / static_cast<float>(count);
  }
  Node& node = tree_[node_index];
  node.mover = static_cast<std::int8_t>(mover);
  node.net_value = eval.value[mover];
  node.status = NodeStatus::kExpanded;
}

void Search::backup(std::span<const Evaluation> evals) {
  if (evals.size() != static_cast<std::size_t>(num_leaves_))
    throw InputError("search backup: " + std::to_string(evals.size()) + " evaluations for " +
                     std::to_string(num_leaves_) + " leaves");
  for (int i = 0; i < num_leaves_; ++i) {
    const Leaf& leaf = leaves_[i];
    const std::int32_t node = leaf.path.back();
    expand(node, leaf, evals[i]);
    if (node == Tree::kRoot && leaf.path.size() == 1 && tree_[Tree::kRoot].visits == 0) {
      tree_[Tree::kRoot].visits = 1;  // the root's own evaluation
      prepare_root();
      continue;
    }
    backup_path(leaf.path, evals[i].value);
    ++completed_;
  }
  num_leaves_ = 0;
  requests_.clear();
}

void Search::backup_path(const std::vector<std::int32_t>& path, std::span<const float> value) {
  for (std::size_t i = path.size() - 1; i > 0; --i) {
    Node& child = tree_[path[i]];
    child.value_sum += value[tree_[path[i - 1]].mover];
    child.visits += 1;
    child.in_flight -= 1;
  }
  tree_[Tree::kRoot].visits += 1;
}

std::vector<float> Search::solved_value(std::int8_t solved) const {
  std::vector<float> value(returns_.size(), solved == kSolvedDraw ? 0.0f : -1.0f);
  if (solved >= 0) value[solved] = 1.0f;
  return value;
}

void Search::backup_terminal(const Leaf& leaf) {
  const std::int32_t node_index = leaf.path.back();
  Node& node = tree_[node_index];
  if (node.solved != kUnsolved && node.status != NodeStatus::kTerminal) {
    backup_path(leaf.path, solved_value(node.solved));
  } else {
    leaf.state->returns(returns_);
    std::vector<float> value(returns_.begin(), returns_.end());
    if (node.status != NodeStatus::kTerminal) {
      node.status = NodeStatus::kTerminal;
      // A unique best return is a win; equal returns for everyone a draw.
      const auto best = std::max_element(returns_.begin(), returns_.end());
      const bool unique = std::count(returns_.begin(), returns_.end(), *best) == 1;
      const bool all_equal = std::count(returns_.begin(), returns_.end(), *best) == static_cast<long>(returns_.size());
      if (unique) node.solved = static_cast<std::int8_t>(best - returns_.begin());
      else if (all_equal) node.solved = kSolvedDraw;
      propagate_solved(leaf.path);
    }
    backup_path(leaf.path, value);
  }
  ++completed_;
}

void Search::propagate_solved(const std::vector<std::int32_t>& path) {
  // A node is proven when its mover has a proven winning child, or when every child is
  // proven (then it takes the mover's best: a win, else a draw, else a loss).
  for (std::size_t i = path.size() - 1; i > 0; --i) {
    Node& parent = tree_[path[i - 1]];
    const std::int8_t child_solved = tree_[path[i]].solved;
    if (parent.solved != kUnsolved || child_solved == kUnsolved) return;
    if (child_solved == parent.mover) {
      parent.solved = parent.mover;
      continue;
    }
    std::int8_t best = kUnsolved;
    for (std::int32_t c = 0; c < parent.num_children; ++c) {
      const std::int8_t s = tree_[parent.first_child + c].solved;
      if (s == kUnsolved) return;
      if (best == kUnsolved || (s == kSolvedDraw && best != parent.mover)) best = s;
    }
    parent.solved = best;
  }
}

SearchResult Search::result() {
  const Node& root = tree_[Tree::kRoot];
  if (root.status != NodeStatus::kExpanded) throw InputError("search result requested before the root was evaluated");
  SearchResult out;
  const std::int32_t n = root.num_children;
  out.legal.resize(n);
  out.visits.resize(n);
  out.policy.assign(n, 0.0f);
  out.simulations = completed_;
  out.value = n > 0 ? 0.0f : root.net_value;
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

  std::int32_t chosen = -1;
  if (root.solved == root.mover) {
    // Play the proven win: an immediate one first, else the most visited proven child.
    for (std::int32_t c = 0; c < n; ++c) {
      const Node& child = tree_[root.first_child + c];
      if (child.solved != root.mover) continue;
      if (chosen < 0 || (child.status == NodeStatus::kTerminal &&
                         tree_[root.first_child + chosen].status != NodeStatus::kTerminal) ||
          (child.status == tree_[root.first_child + chosen].status && child.visits > out.visits[chosen]))
        chosen = c;
    }
    out.proven_win = true;
  }

  if (config_.algorithm == SearchAlgorithm::kGumbel && n > 1) {
    improved_policy(tree_, Tree::kRoot, config_, out.policy);
    if (chosen < 0) {
      if (!root_prepared_) prepare_root();
      scratch_.resize(n);
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
    }
  } else {
    for (std::int32_t c = 0; c < n; ++c)
      out.policy[c] = total > 0 ? static_cast<float>(out.visits[c]) / static_cast<float>(total)
                                : tree_[root.first_child + c].prior;
    if (chosen < 0 && config_.temperature > 0 && total > 0) {
      std::vector<double> weights(n);
      double sum = 0;
      for (std::int32_t c = 0; c < n; ++c)
        sum += weights[c] = std::pow(static_cast<double>(out.visits[c]) / total, 1.0 / config_.temperature);
      double pick = rng_.uniform() * sum;
      for (chosen = 0; chosen < n - 1 && (pick -= weights[chosen]) >= 0; ++chosen) {
      }
    } else if (chosen < 0) {
      // Most visited; ties go to the higher prior, which keeps tiny budgets sensible.
      chosen = 0;
      for (std::int32_t c = 1; c < n; ++c) {
        const Node& a = tree_[root.first_child + c];
        const Node& b = tree_[root.first_child + chosen];
        if (a.visits > b.visits || (a.visits == b.visits && a.prior > b.prior)) chosen = c;
      }
    }
  }
  out.action = out.legal[chosen];
  return out;
}

}  // namespace boardlab
