// One search tree deciding one move: leaf collection with virtual loss, backup, and the result.
//
// A Search never calls the evaluator itself: a driver (mcts/search_driver.h) collects the
// pending leaves of many searches, evaluates them in one batch and hands each search its
// answers. That keeps the network's batches large whatever the number of games.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "core/game.h"
#include "core/player_view.h"
#include "core/rng.h"
#include "mcts/evaluator.h"
#include "mcts/search_config.h"
#include "mcts/tree.h"

namespace boardlab {

struct SearchResult {
  Action action = kInvalidAction;  // the move to play
  std::vector<Action> legal;       // the root's legal actions, ascending
  std::vector<int> visits;         // root visits per legal action
  // Training target over `legal`: the visit distribution (PUCT, UCT) or the improved
  // policy (Gumbel).
  std::vector<float> policy;
  float value = 0;        // the root's mean value for the mover
  int simulations = 0;    // leaf evaluations made (terminal and proven leaves included)
  bool proven_win = false;  // the search proved that `action` wins
};

class Search {
 public:
  Search(const Game& game, const SearchConfig& config, std::uint64_t seed);

  // Begins a search from what `view`'s player knows (not terminal). With reuse_tree, the
  // subtree of the steps played since the previous root is kept when the root continues
  // that game.
  void start(const PlayerView& view);
  // True once the budget is spent, the root is proven, or the root has one legal action.
  bool done() const;

  // Selects up to leaves_per_step new leaves needing evaluation (terminal and proven
  // leaves are backed up on the spot) and returns how many; requests() lists them.
  int collect();
  std::span<const EvalRequest> requests() const { return requests_; }
  // Expands and backs up the collected leaves; evals[i] answers requests()[i].
  void backup(std::span<const Evaluation> evals);

  // The decision; call when done().
  SearchResult result();

  const Tree& tree() const { return tree_; }
  const SearchConfig& config() const { return config_; }

 private:
  struct Leaf {
    std::unique_ptr<State> state;
    std::vector<std::int32_t> path;
    std::vector<Action> legal;
  };

  bool select_leaf(Leaf& leaf);
  std::int32_t select_root_child();
  void expand(std::int32_t node, const Leaf& leaf, const Evaluation& eval);
  void backup_path(const std::vector<std::int32_t>& path, std::span<const float> value);
  void backup_terminal(const Leaf& leaf);
  void propagate_solved(const std::vector<std::int32_t>& path);
  void prepare_root();
  std::vector<float> solved_value(std::int8_t solved) const;

  const Game* game_;
  SearchConfig config_;
  Rng rng_;
  Tree tree_;
  std::unique_ptr<State> root_state_;
  std::vector<Step> root_history_;
  int completed_ = 0;
  int started_ = 0;  // leaves selected in this search, completed or pending
  std::vector<Leaf> leaves_;
  int num_leaves_ = 0;
  std::vector<EvalRequest> requests_;
  std::vector<float> scratch_;
  std::vector<double> returns_;
  // Gumbel root state: noise, the considered children, visits they had at start, schedule.
  std::vector<float> gumbel_;
  std::vector<std::int32_t> considered_;
  std::vector<int> base_visits_;
  std::vector<int> schedule_;
  bool root_prepared_ = false;
};

}  // namespace boardlab
