// One search: what it refuses, its start and tree reuse, leaf collection, expansion and value backup.
#include "mcts/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "core/errors.h"
#include "mcts/gumbel.h"
#include "mcts/noise.h"
#include "mcts/selection.h"

namespace boardlab {

Search::Search(const Game& game, const SearchConfig& config, std::uint64_t seed)
    : game_(&game), config_(config), rng_(seed) {
  validate(config_);
  check_supported();
  const GameType type = game.type();
  players_ = game.num_players();
  max_return_ = static_cast<float>(type.max_return);
  solver_ = !type.simultaneous() && type.perfect_information();
  simultaneous_ = type.simultaneous();
  fresh_may_expand_ = type.has_chance() || config_.transpositions;
  information_sets_ = !type.perfect_information() && config_.hidden == HiddenInformation::kInformationSet;
  returns_.resize(players_);
  value_.resize(players_);
  tree_.clear();
  tree_.set_players(players_);
}

void Search::check_supported() const {
  const GameType type = game_->type();
  const std::string game = game_->name();
  if (game_->num_players() > std::numeric_limits<std::int8_t>::max())
    throw InputError("search: " + game + " has " + std::to_string(game_->num_players()) +
                     " players; the tree stores a player in 8 bits (at most 127)");
  if (type.simultaneous() && !type.perfect_information())
    throw InputError("search: " + game +
                     " has both simultaneous moves and hidden information; this search does not combine them "
                     "(decoupled statistics would have to be kept per information set of every seat)");
  if (type.simultaneous() && config_.algorithm == SearchAlgorithm::kGumbel)
    throw InputError("search: gumbel does not search " + game +
                     ": its sequential halving picks one root action of one mover, and a simultaneous round has "
                     "every seat choosing at once; use algorithm=puct or uct (decoupled selection per seat)");
  if (!type.perfect_information() && config_.reuse_tree)
    throw InputError("search: reuse_tree does not apply to " + game +
                     ": with hidden information the tree is built over sampled deals, and the history the player "
                     "sees does not say which of its subtrees the game continues");
  if (!type.perfect_information() && config_.transpositions)
    throw InputError("search: transpositions do not apply to " + game +
                     ": with hidden information equal positions of sampled deals are not equal information sets");
}

void Search::start(const PlayerView& view) {
  if (view.is_terminal()) throw InputError("search: the game is already over");
  if (!view.acts()) {
    const Player mover = view.current_player();
    throw InputError("search: player " + std::to_string(view.viewer()) + " does not act here in " + game_->name() +
                     (mover == kChancePlayer ? " (a chance node: play its outcome first)"
                                             : " (it is player " + std::to_string(mover) + "'s turn)"));
  }
  viewer_ = view.viewer();
  // Perfect information: the sample is the true state. Single sample: one deal, searched
  // as if known. Information sets: a deal per simulation, drawn from the kept view.
  std::unique_ptr<State> root = view.sample(rng_);
  if (information_sets_) view_.emplace(view);
  else view_.reset();
  std::vector<Step> history = root->history();
  if (!(config_.reuse_tree && reuse(*root, history))) tree_.clear();
  root_state_ = std::move(root);
  root_history_ = std::move(history);
  transpositions_.clear();
  completed_ = started_ = 0;
  num_leaves_ = 0;
  requests_.clear();
  root_prepared_ = root_forced_ = false;
  if (tree_[Tree::kRoot].status == NodeStatus::kExpanded) prepare_root();
}

bool Search::reuse(const State& root, const std::vector<Step>& history) {
  if (!root_state_ || history.size() < root_history_.size() ||
      !std::equal(root_history_.begin(), root_history_.end(), history.begin()))
    return false;
  // The history alone does not identify a position (one set up from a diagram has
  // none), so the old root with the new steps played must also be the new root.
  std::unique_ptr<State> replay = root_state_->clone();
  std::int32_t node = Tree::kRoot;
  for (std::size_t i = root_history_.size(); i < history.size() && node >= 0;) {
    if (tree_[node].status != NodeStatus::kExpanded) return false;
    if (tree_[node].mover == kSimultaneousPlayer) {
      // A simultaneous round is one step per seat, in seat order.
      if (i + static_cast<std::size_t>(players_) > history.size()) return false;
      const std::span<const Step> round(history.data() + i, static_cast<std::size_t>(players_));
      node = find_joint_child(node, round);
      if (node < 0) return false;
      joint_.resize(players_);
      for (const Step& step : round) joint_[step.player] = step.action;
      replay->apply_joint(joint_);
      i += static_cast<std::size_t>(players_);
    } else {
      node = tree_.find_child(node, history[i].action);
      if (node >= 0) replay->apply(history[i].action);
      ++i;
    }
  }
  if (node < 0 || tree_[node].status != NodeStatus::kExpanded || replay->hash() != root.hash()) return false;
  tree_.reroot(node);
  return true;
}

bool Search::done() const {
  const Node& root = tree_[Tree::kRoot];
  if (root.status != NodeStatus::kExpanded) return false;
  if (root_forced_ || root.proven != kUnproven) return true;
  return completed_ >= config_.simulations;
}

void Search::prepare_root() {
  // Called once the root has children: root noise, and Gumbel's considered actions.
  root_prepared_ = true;
  const std::int32_t n = tree_[Tree::kRoot].num_children;
  const std::int32_t first = tree_[Tree::kRoot].first_child;
  const bool noise = config_.algorithm == SearchAlgorithm::kPuct && config_.dirichlet_epsilon > 0;
  auto add_noise = [&](std::int32_t from, std::int32_t count) {
    if (!noise || count <= 1) return;
    scratch_.resize(count);
    sample_dirichlet(rng_, config_.dirichlet_alpha, scratch_);
    for (std::int32_t c = 0; c < count; ++c) {
      float& prior = tree_[from + c].prior;
      prior = (1 - config_.dirichlet_epsilon) * prior + config_.dirichlet_epsilon * scratch_[c];
    }
  };
  if (tree_[Tree::kRoot].mover == kSimultaneousPlayer) {
    seat_blocks(tree_, Tree::kRoot, seats_);
    root_forced_ = std::all_of(seats_.begin(), seats_.end(), [](const SeatBlock& b) { return b.count <= 1; });
    if (config_.simultaneous_selection == SimultaneousSelection::kPuct)
      for (const SeatBlock& block : seats_) add_noise(block.first, block.count);
    return;
  }
  root_forced_ = n <= 1;
  add_noise(first, n);
  if (config_.algorithm != SearchAlgorithm::kGumbel) return;
  gumbel_.resize(n);
  base_visits_.resize(n);
  for (std::int32_t c = 0; c < n; ++c) {
    const Node& child = tree_[first + c];
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

Search::Descent Search::select_leaf(Leaf& leaf) {
  // Walks from the root to a node without children, adding virtual loss on the way.
  // kPending: that node is already pending; kBlocked: a deal needs children that cannot
  // be added while leaves are pending. Either way the virtual loss is undone.
  leaf.state = information_sets_ ? view_->sample(rng_) : root_state_->clone();
  leaf.path.assign(1, Tree::kRoot);
  if (simultaneous_) leaf.picks.clear();
  if (information_sets_) leaf.availed.clear();
  std::int32_t node = Tree::kRoot;
  while (true) {
    if (tree_[node].status == NodeStatus::kFresh && !(fresh_may_expand_ && enter_fresh(leaf, node))) break;
    if (tree_[node].status != NodeStatus::kExpanded || tree_[node].proven != kUnproven) break;
    if (information_sets_) check_sample(*leaf.state, node);
    const Player mover = tree_[node].mover;
    std::int32_t child;
    if (mover >= 0) {
      if (node == Tree::kRoot && config_.algorithm == SearchAlgorithm::kGumbel) child = select_root_child();
      // The player's own root actions do not depend on the deal: only deeper nodes
      // have availability.
      else if (information_sets_ && node != Tree::kRoot) child = select_available(leaf, node);
      else child = select_child(tree_, node, config_, rng_, scratch_);
    } else if (mover == kChancePlayer) {
      child = information_sets_ ? draw_outcome(leaf, node) : select_chance_child(tree_, node);
    } else {
      child = pick_joint(leaf, node);
    }
    if (child < 0) {
      undo(leaf);
      return Descent::kBlocked;
    }
    ++tree_[child].in_flight;
    if (mover == kSimultaneousPlayer) leaf.state->apply_joint(joint_);
    else leaf.state->apply(tree_[child].action);
    leaf.path.push_back(child);
    node = child;
  }
  if (information_sets_) check_sample(*leaf.state, node);
  if (tree_[node].status == NodeStatus::kPending) {
    undo(leaf);
    return Descent::kPending;
  }
  return Descent::kLeaf;
}

bool Search::enter_fresh(Leaf& leaf, std::int32_t node) {
  // A fresh node that needs no evaluation is expanded on the way: a chance node, or (with
  // transpositions) a position already expanded elsewhere. Returns whether it was.
  const Player mover = leaf.state->current_player();
  if (mover == kTerminalPlayer || mover == kSimultaneousPlayer) return false;
  if (config_.transpositions) {
    leaf.hash = leaf.state->hash();
    const std::int32_t canonical = transpositions_.find(leaf.hash, leaf.path.size());
    if (canonical >= 0 && canonical != node && tree_[canonical].status == NodeStatus::kExpanded) {
      tree_.share_children(node, canonical);
      return true;
    }
  }
  if (mover != kChancePlayer) return false;
  expand_chance(node, leaf);
  return true;
}

std::int32_t Search::draw_outcome(Leaf& leaf, std::int32_t node) {
  // Information sets: the deal decides the outcomes and their probabilities, so the
  // outcome is drawn from it; an outcome the node lacks is added (or, with leaves
  // pending, the collection stops here).
  const Action outcome = leaf.state->random_legal_action(rng_);
  std::int32_t child = tree_.find_child(node, outcome);
  if (child >= 0 || num_leaves_ > 0) return child;
  missing_.assign(1, outcome);
  tree_.extend_children(node, missing_);
  return tree_.find_child(node, outcome);
}

void Search::undo(const Leaf& leaf) {
  for (std::size_t i = 1; i < leaf.path.size(); ++i) --tree_[leaf.path[i]].in_flight;
  if (simultaneous_)
    for (const SeatPick& pick : leaf.picks) --tree_[pick.stat].in_flight;
  if (information_sets_)
    for (std::int32_t child : leaf.availed) tree_.add_available(child, -1);
}

int Search::collect() {
  num_leaves_ = 0;
  requests_.clear();
  if (leaves_.size() < static_cast<std::size_t>(config_.leaves_per_step)) leaves_.resize(config_.leaves_per_step);
  if (tree_[Tree::kRoot].status == NodeStatus::kFresh) {
    // The root's own evaluation comes first and is not counted as a simulation.
    Leaf& leaf = leaves_[num_leaves_++];
    leaf.state = information_sets_ ? view_->sample(rng_) : root_state_->clone();
    leaf.path.assign(1, Tree::kRoot);
    if (simultaneous_) leaf.picks.clear();
    if (information_sets_) leaf.availed.clear();
    if (config_.transpositions) leaf.hash = leaf.state->hash();
    prepare_requests(leaf);
    tree_[Tree::kRoot].status = NodeStatus::kPending;
  }
  while (num_leaves_ == 0 && !done()) {
    // Without a pending evaluation, only terminal and proven leaves can be found: keep going.
    while (num_leaves_ < config_.leaves_per_step && started_ < config_.simulations && !done()) {
      Leaf& leaf = leaves_[num_leaves_];
      if (select_leaf(leaf) != Descent::kLeaf) break;
      ++started_;
      const std::int32_t node = leaf.path.back();
      if (tree_[node].status == NodeStatus::kTerminal || tree_[node].proven != kUnproven ||
          leaf.state->is_terminal()) {
        backup_terminal(leaf);
        continue;
      }
      prepare_requests(leaf);
      tree_[node].status = NodeStatus::kPending;
      ++num_leaves_;
    }
    if (started_ >= config_.simulations) break;
  }
  for (int i = 0; i < num_leaves_; ++i) {
    const Leaf& leaf = leaves_[i];
    for (std::size_t r = 0; r < leaf.requests(); ++r)
      requests_.push_back({leaf.state.get(), leaf.request_player(r), leaf.request_legal(r)});
  }
  return static_cast<int>(requests_.size());
}

void Search::prepare_requests(Leaf& leaf) {
  const State& state = *leaf.state;
  const Player mover = state.current_player();
  leaf.seats.clear();
  if (mover >= 0) {
    leaf.player = mover;
    state.legal_actions(mover, leaf.legal);
    return;
  }
  // A simultaneous node: one request per seat that acts.
  leaf.player = kInvalidAction;
  if (leaf.seat_legal.size() < static_cast<std::size_t>(players_)) leaf.seat_legal.resize(players_);
  for (Player p = 0; p < players_; ++p) {
    std::vector<Action>& legal = leaf.player < 0 ? leaf.legal : leaf.seat_legal[leaf.seats.size()];
    state.legal_actions(p, legal);
    if (legal.empty()) continue;
    if (leaf.player < 0) leaf.player = p;
    else leaf.seats.push_back(p);
  }
  if (leaf.player < 0)
    throw InputError("search: " + game_->name() + " has a simultaneous node where no seat has a legal action");
}

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
  double total = 0;
  for (float p : eval.prior) total += std::max(p, 0.0f);
  for (std::int32_t c = 0; c < count; ++c) {
    Node& child = tree_[first + c];
    child.action = legal[c];
    child.prior = total > 0 ? static_cast<float>(std::max(eval.prior[c], 0.0f) / total) : 1.0f / static_cast<float>(count);
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
    if (leaf.seats.empty()) {
      backup_path(leaf, mine[0].value);
    } else {
      leaf_value(leaf, mine);
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
  }
  tree_[Tree::kRoot].visits += 1;
}

}  // namespace boardlab
