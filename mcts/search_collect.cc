// Leaf collection: the walk from the root through every kind of node, with virtual loss, and the requests it makes.
#include <algorithm>
#include <limits>
#include <string>

#include "core/errors.h"
#include "mcts/forced_playouts.h"
#include "mcts/gumbel.h"
#include "mcts/search.h"
#include "mcts/selection.h"

namespace boardlab {

std::int32_t Search::select_root_child() {
  // Gumbel: the simulation goes to the best-scoring considered action whose visits (in
  // this search) match the halving schedule; Gumbel noise + logits fix the ranking.
  const Node& root = tree_[Tree::kRoot];
  scratch_.resize(root.num_children);
  sigma_completed_q(tree_, Tree::kRoot, config_, scratch_);
  const int target = schedule_.target(started_);
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

std::int32_t Search::select_forced_root_child() {
  // A child owed forced playouts goes first; PUCT chooses among the rest.
  const std::int32_t forced = forced_root_child(tree_);
  return forced >= 0 ? forced : select_child(tree_, Tree::kRoot, config_, rng_, scratch_);
}

Search::Descent Search::select_leaf(Leaf& leaf) {
  // Walks from the root to a node without children, adding virtual loss on the way.
  // kPending: that node is already pending; kBlocked: a deal needs children that cannot
  // be added while leaves are pending. Either way the virtual loss is undone.
  return plain_ ? select_leaf<true>(leaf) : select_leaf<false>(leaf);
}

template <bool kPlain>
Search::Descent Search::select_leaf(Leaf& leaf) {
  // kPlain: only decision nodes, no information sets, no transpositions (the loop of
  // most games, kept free of the other kinds' tests).
  leaf.state = !kPlain && information_sets_ ? draw_deal() : root_state_->clone();
  leaf.path.assign(1, Tree::kRoot);
  if (!kPlain && simultaneous_) {
    leaf.picks.clear();
    leaf.root_cell = -1;
  }
  if (!kPlain && information_sets_) leaf.availed.clear();
  std::int32_t node = Tree::kRoot;
  while (true) {
    if (!kPlain && tree_[node].status == NodeStatus::kFresh && !(fresh_may_expand_ && enter_fresh(leaf, node))) break;
    if (tree_[node].status != NodeStatus::kExpanded || tree_[node].proven != kUnproven) break;
    if (!kPlain && information_sets_ && deal_is_over(*leaf.state, node)) break;
    const Player mover = tree_[node].mover;
    std::int32_t child;
    if (kPlain || mover >= 0) {
      if (node == Tree::kRoot && config_.algorithm == SearchAlgorithm::kGumbel) child = select_root_child();
      else if (node == Tree::kRoot && forced_playouts_) child = select_forced_root_child();
      // The player's own root actions do not depend on the deal: only deeper nodes
      // have availability.
      else if (!kPlain && information_sets_ && node != Tree::kRoot) child = select_available(leaf, node);
      else if (config_.model_opponents && mover != viewer_)
        child = select_by_prior(tree_, tree_[node].first_child, tree_[node].num_children);
      else child = select_child(tree_, node, config_, rng_, scratch_);
    } else if (mover == kChancePlayer) {
      child = information_sets_ ? draw_outcome(leaf, node) : select_chance_child(tree_, node);
    } else {
      child = pick_joint(leaf, node);
    }
    if (!kPlain && child < 0) {
      undo(leaf);
      return Descent::kBlocked;
    }
    ++tree_[child].in_flight;
    if (!kPlain && mover == kSimultaneousPlayer) leaf.state->apply_joint(joint_);
    else leaf.state->apply(tree_[child].action);
    leaf.path.push_back(child);
    node = child;
  }
  // A deal whose game is over here backs up its returns, even where another deal's
  // evaluation of the node is pending.
  if (!kPlain && information_sets_ && deal_is_over(*leaf.state, node)) return Descent::kLeaf;
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

std::unique_ptr<State> Search::draw_deal() { return weighted_ ? belief_.draw(rng_) : view_->sample(rng_); }

void Search::undo(const Leaf& leaf) {
  for (std::size_t i = 1; i < leaf.path.size(); ++i) --tree_[leaf.path[i]].in_flight;
  if (simultaneous_)
    for (const SeatPick& pick : leaf.picks) --tree_[pick.stat].in_flight;
  if (leaf.root_cell >= 0) matrix_.cancel(leaf.root_cell);
  if (information_sets_)
    for (std::int32_t child : leaf.availed) tree_.add_available(child, -1);
}

int Search::collect() {
  num_leaves_ = 0;
  requests_.clear();
  if (weighing_) {
    // Before any simulation: the other seats' past decisions in each deal (backup() weighs them).
    const std::span<const EvalRequest> belief = belief_.requests();
    requests_.assign(belief.begin(), belief.end());
    return static_cast<int>(requests_.size());
  }
  if (leaves_.size() < static_cast<std::size_t>(config_.leaves_per_step)) leaves_.resize(config_.leaves_per_step);
  if (tree_[Tree::kRoot].status == NodeStatus::kFresh) {
    // The root's own evaluation comes first and is not counted as a simulation.
    Leaf& leaf = leaves_[num_leaves_++];
    leaf.state = information_sets_ ? draw_deal() : root_state_->clone();
    leaf.path.assign(1, Tree::kRoot);
    if (simultaneous_) {
      leaf.picks.clear();
      leaf.root_cell = -1;
    }
    if (information_sets_) leaf.availed.clear();
    if (config_.transpositions) leaf.hash = leaf.state->hash();
    prepare_requests(leaf);
    leaf.defers_seats = leaf.completes_seats = false;  // the root's result needs every seat
    tree_[Tree::kRoot].status = NodeStatus::kPending;
  }
  while (num_leaves_ == 0 && !done()) {
    // Without a pending evaluation, only terminal and proven leaves can be found: keep going.
    while (num_leaves_ < config_.leaves_per_step && started_ < simulations_ && !done()) {
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
      leaf.completes_seats = tree_[node].status == NodeStatus::kPartlyExpanded;
      leaf.defers_seats = lazy_seats_ && !leaf.completes_seats && leaf.num_seats > 0 && node != Tree::kRoot;
      if (leaf.completes_seats) request_waiting_seats(leaf);
      tree_[node].status = NodeStatus::kPending;
      ++num_leaves_;
    }
    if (started_ >= simulations_) break;
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
  leaf.num_seats = 0;
  if (mover >= 0) {
    leaf.player = mover;
    state.legal_actions(mover, leaf.legal);
    return;
  }
  leaf.seats.clear();
  // A simultaneous node: one request per seat that acts.
  leaf.player = kInvalidPlayer;
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
  leaf.num_seats = static_cast<std::int32_t>(leaf.seats.size());
}

void Search::request_waiting_seats(Leaf& leaf) {
  // The node's first seat was evaluated when it was reached; every other seat waits, and
  // becomes this leaf's requests.
  leaf.player = leaf.seats.front();
  std::swap(leaf.legal, leaf.seat_legal.front());
  std::rotate(leaf.seat_legal.begin(), leaf.seat_legal.begin() + 1, leaf.seat_legal.begin() + leaf.num_seats);
  leaf.seats.erase(leaf.seats.begin());
  --leaf.num_seats;
}

}  // namespace boardlab
