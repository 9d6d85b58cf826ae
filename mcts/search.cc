// One search: what it refuses, its start, tree reuse, and the root's noise and Gumbel actions.
#include "mcts/search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.h"
#include "mcts/gumbel.h"
#include "mcts/noise.h"

namespace boardlab {

Search::Search(const Game& game, const SearchConfig& config, std::uint64_t seed)
    : game_(&game), simulations_(config.simulations), config_(config), rng_(seed) {
  validate(config_);
  check_supported();
  const GameType type = game.type();
  players_ = game.num_players();
  max_return_ = static_cast<float>(type.max_return);
  solver_ = !type.simultaneous() && type.perfect_information();
  simultaneous_ = type.simultaneous();
  lazy_seats_ = simultaneous_ && config_.lazy_seats;
  fresh_may_expand_ = type.has_chance() || config_.transpositions;
  information_sets_ = !type.perfect_information() && config_.hidden == HiddenInformation::kInformationSet;
  plain_ = !simultaneous_ && !fresh_may_expand_ && !information_sets_;
  returns_.resize(players_);
  rollout_sum_.resize(players_);
  margin_.resize(players_);
  playout_value_.resize(players_);
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
  if (type.simultaneous() && config_.simultaneous_selection == SimultaneousSelection::kMatrix &&
      config_.model_opponents)
    throw InputError("search: simultaneous_selection=matrix solves " + game +
                     "'s round for every seat, and model_opponents has the other seats follow their policy "
                     "instead; a best response's search uses simultaneous_selection=puct");
  if (type.simultaneous() && config_.algorithm == SearchAlgorithm::kGumbel)
    throw InputError("search: gumbel does not search " + game +
                     ": its sequential halving picks one root action of one mover, and a simultaneous round has "
                     "every seat choosing at once; use algorithm=puct or uct (decoupled selection per seat)");
  if (config_.score_utility > 0 && !(game_->traits().max_score_margin > 0))
    throw InputError("search: score_utility weighs the final score margin, and " + game +
                     " declares no final score (GameTraits::max_score_margin)");
  if (config_.score_utility > 0 && game_->num_players() != 2)
    throw InputError("search: score_utility needs a two-player game, and " + game + " has " +
                     std::to_string(game_->num_players()) +
                     " players: a network's score head predicts the mover's margin only, which fixes the "
                     "other seat's in a two-player game alone");
  if (!type.perfect_information() && config_.reuse_tree)
    throw InputError("search: reuse_tree does not apply to " + game +
                     ": with hidden information the tree is built over sampled deals, and the history the player "
                     "sees does not say which of its subtrees the game continues");
  if (config_.belief_deals > 0 && (type.perfect_information() || config_.hidden != HiddenInformation::kInformationSet))
    throw InputError("search: belief_deals weighs the deals of information-set search, and " +
                     (type.perfect_information() ? game + " has no hidden information"
                                                 : std::string("hidden=single_sample searches one deal")));
  if (config_.concealed_moves != ConcealedMoves::kSearch && type.perfect_information())
    throw InputError("search: concealed_moves=" + std::string(enum_name(kConcealedMovesNames, config_.concealed_moves)) +
                     " draws the choices other seats do not see from a policy, and " + game +
                     " has no hidden information: every choice is seen");
  if (!type.perfect_information() && config_.transpositions)
    throw InputError("search: transpositions do not apply to " + game +
                     ": with hidden information equal positions of sampled deals are not equal information sets");
}

void Search::start(const PlayerView& view) { start(view, {config_.simulations, true}); }

void Search::start(const PlayerView& view, const SearchBudget& budget) {
  if (budget.simulations < 1)
    throw InputError("search: a decision needs a budget of at least 1 simulation, got " + std::to_string(budget.simulations));
  if (view.is_terminal()) throw InputError("search: the game is already over");
  if (!view.acts()) {
    const Player mover = view.current_player();
    throw InputError("search: player " + std::to_string(view.viewer()) + " does not act here in " + game_->name() +
                     (mover == kChancePlayer ? " (a chance node: play its outcome first)"
                                             : " (it is player " + std::to_string(mover) + "'s turn)"));
  }
  viewer_ = view.viewer();
  // A concealed choice drawn from the policy needs the root's evaluation alone (done()).
  concealed_ = config_.concealed_moves == ConcealedMoves::kPolicy && view.choice_concealed();
  drawn_from_search_ = config_.concealed_moves == ConcealedMoves::kSearchMixed && view.choice_concealed();
  simulations_ = budget.simulations;
  explore_ = budget.explore && !concealed_;
  forced_playouts_ = explore_ && config_.forced_playouts;
  // Perfect information: the sample is the true state. Single sample: one deal, searched
  // as if known. Information sets: a deal per simulation, drawn from the kept view.
  std::unique_ptr<State> root = view.sample(rng_);
  if (information_sets_) view_.emplace(view);
  else view_.reset();
  weighing_ = weighted_ = false;
  if (information_sets_ && config_.belief_deals > 0 && !concealed_) {
    belief_.start(view, config_.belief_deals, config_.belief_window, rng_);
    weighing_ = weighted_ = !belief_.requests().empty();
  }
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
  if (root_forced_ || concealed_ || root.proven != kUnproven) return true;
  return completed_ >= simulations_;
}

bool Search::has_result() const { return tree_[Tree::kRoot].status == NodeStatus::kExpanded; }

void Search::prepare_root() {
  // Called once the root has children: root noise, and Gumbel's considered actions.
  root_prepared_ = true;
  const std::int32_t n = tree_[Tree::kRoot].num_children;
  const std::int32_t first = tree_[Tree::kRoot].first_child;
  const bool noise = explore_ && config_.algorithm == SearchAlgorithm::kPuct && config_.dirichlet_epsilon > 0;
  auto add_noise = [&](std::int32_t from, std::int32_t count) {
    if (!noise || count <= 1) return;
    scratch_.resize(count);
    sample_dirichlet(rng_, config_.dirichlet_alpha, scratch_);
    for (std::int32_t c = 0; c < count; ++c) {
      float& prior = tree_[from + c].prior;
      prior = (1 - config_.dirichlet_epsilon) * prior + config_.dirichlet_epsilon * scratch_[c];
    }
  };
  matrix_.stop();
  if (tree_[Tree::kRoot].mover == kSimultaneousPlayer) {
    seat_blocks(tree_, Tree::kRoot, seats_);
    root_forced_ = std::all_of(seats_.begin(), seats_.end(), [](const SeatBlock& b) { return b.count <= 1; });
    if (config_.simultaneous_selection == SimultaneousSelection::kRegretMatching) return;
    for (const SeatBlock& block : seats_) add_noise(block.first, block.count);
    if (config_.simultaneous_selection == SimultaneousSelection::kMatrix && !root_forced_) prepare_root_matrix();
    return;
  }
  root_forced_ = n <= 1;
  add_noise(first, n);
  if (config_.algorithm != SearchAlgorithm::kGumbel) return;
  base_visits_.resize(n);
  for (std::int32_t c = 0; c < n; ++c) base_visits_[c] = tree_[first + c].visits;
  gumbel_top_k(tree_, first, n, config_.gumbel_considered, config_.gumbel_scale, rng_, gumbel_, considered_);
  schedule_ = HalvingSchedule(static_cast<int>(considered_.size()), simulations_);
}

}  // namespace boardlab
