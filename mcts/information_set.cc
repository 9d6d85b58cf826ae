// Information-set search: availability of children under a sampled deal, and children a deal adds.
//
// Every simulation draws a deal from the player's view (PlayerView::sample) and descends
// one tree keyed by actions, shared by every deal (single-observer information-set MCTS,
// Cowling, Powley and Whitehouse 2012). Below the root a node's legal actions can depend
// on the deal (a hidden piece that cannot move), so each simulation selects among the
// children whose action is legal in its deal, and a child's availability count (the
// simulations that could have picked it) replaces the parent's visits in PUCT and UCB1,
// as in subset-armed bandits. A deal with an action the node lacks grows the node's block;
// blocks are contiguous, so growing one moves it, which is only done while no leaf of
// this search is pending (a pending leaf's path may point into the old block). With
// leaves pending, the simulation chooses among the available children it has, and when
// there are none it stops this step's collection (collect() resumes after the backup).
// Moves and chance outcomes after the root are branched on as played, even when the
// player would not see them: the root's decision averages over them.
//
// What this search assumes: every player decides in the searcher's information sets, so
// in the tree an opponent plays without knowing its own hidden cards, and the deals are
// drawn as sample_hidden draws them, whatever the opponent's past moves said about its
// cards. Keying opponents' nodes by their own information keys instead (multiple
// observers) was measured at Kuhn poker, 100 simulations, 10000 games: it scored less
// against a random player (+0.24 a game against +0.29 here, +0.19 for single-sample
// search). Neither variant beats single-sample search head to head there (this one
// scores -0.055 ± 0.013 a game at 100 simulations, -0.05 ± 0.02 at 1000; the other about
// -0.03): facing a bet with the queen, uniform deals make calling worth 0 and folding -1,
// while a bet from that opponent means a king. search.belief_deals weighs the deals by
// how likely the opponent's past moves were in each, under the network's policy for it
// (mcts/deal_belief.h).
#include <algorithm>
#include <string>

#include "core/errors.h"
#include "mcts/search.h"
#include "mcts/selection.h"

namespace boardlab {

std::int32_t Search::select_available(Leaf& leaf, std::int32_t node) {
  leaf.state->legal_actions(tree_[node].mover, actions_);
  int available = mark_available(node);
  if (!missing_.empty() && num_leaves_ == 0) {
    add_missing_children(node);
    available = mark_available(node);
  }
  if (available == 0) return -1;
  const Node& n = tree_[node];
  for (std::int32_t c = 0; c < n.num_children; ++c) {
    if (!available_[c]) continue;
    tree_.add_available(n.first_child + c, 1);
    leaf.availed.push_back(n.first_child + c);
  }
  if (config_.model_opponents && n.mover != viewer_) return select_by_prior(tree_, n.first_child, n.num_children, available_);
  return select_child(tree_, node, config_, rng_, scratch_, available_);
}

int Search::mark_available(std::int32_t node_index) {
  // Both lists are ascending: one merge marks the available children and finds the
  // deal's actions the node lacks.
  const Node& node = tree_[node_index];
  available_.assign(node.num_children, 0);
  missing_.clear();
  int available = 0;
  std::int32_t c = 0;
  for (Action action : actions_) {
    while (c < node.num_children && tree_[node.first_child + c].action < action) ++c;
    if (c < node.num_children && tree_[node.first_child + c].action == action) {
      available_[c] = 1;
      ++available;
    } else {
      missing_.push_back(action);
    }
  }
  return available;
}

void Search::add_missing_children(std::int32_t node_index) {
  // The node was evaluated under another deal, so the new actions have no prior of their
  // own: each gets an equal share, 1 / (children), and the block is renormalized.
  tree_.extend_children(node_index, missing_);
  const Node& node = tree_[node_index];
  const float share = 1.0f / static_cast<float>(node.num_children);
  double total = 0;
  for (std::int32_t c = 0; c < node.num_children; ++c) {
    Node& child = tree_[node.first_child + c];
    if (std::binary_search(missing_.begin(), missing_.end(), child.action)) child.prior = share;
    total += child.prior;
  }
  for (std::int32_t c = 0; c < node.num_children; ++c)
    tree_[node.first_child + c].prior = static_cast<float>(tree_[node.first_child + c].prior / total);
}

bool Search::deal_is_over(const State& state, std::int32_t node_index) const {
  // Whether the game is over after the same actions can depend on the deal (a Stratego
  // strike on an unknown piece ends the game only where that piece is the Flag): such a
  // deal's simulation ends here with its own returns, and under information sets no node
  // is marked terminal (solver.cc), so the deals that play on expand it. Whose turn it is
  // while the game goes on is public (PlayerView), so every deal must agree on it.
  if (state.is_terminal()) return true;
  const Node& node = tree_[node_index];
  if (node.status == NodeStatus::kExpanded && state.current_player() != node.mover)
    throw InputError("search: " + game_->name() +
                     ": two deals drawn from the same view disagree on whose turn it is after the same actions; "
                     "information-set search needs that to be public");
  return false;
}

}  // namespace boardlab
