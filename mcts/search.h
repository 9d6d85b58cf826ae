// One search tree deciding one move: leaf collection with virtual loss, backup, and the result.
//
// A Search never calls the evaluator itself: a driver (mcts/search_driver.h) collects the
// pending leaves of many searches, evaluates them in one batch and hands each search its
// answers. That keeps the network's batches large whatever the number of games.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/game.h"
#include "core/player_view.h"
#include "core/rng.h"
#include "mcts/deal_belief.h"
#include "mcts/evaluator.h"
#include "mcts/gumbel.h"
#include "mcts/root_matrix.h"
#include "mcts/search_config.h"
#include "mcts/simultaneous.h"
#include "mcts/tree.h"

namespace boardlab {

// The search's verdict for one seat that acts at the root.
struct PlayerSearchResult {
  Player player = kInvalidPlayer;
  Action action = kInvalidAction;  // the seat's move
  std::vector<Action> legal;       // its root legal actions, ascending
  std::vector<int> visits;
  std::vector<float> policy;  // its training target over `legal`
  float value = 0;            // its mean value at the root
};

struct SearchResult {
  // The viewer's own decision (the view's player):
  Action action = kInvalidAction;  // the move to play
  std::vector<Action> legal;       // the root's legal actions, ascending
  std::vector<int> visits;         // root visits per legal action
  // Training target over `legal`: the visit distribution (PUCT, UCT), the improved policy
  // (Gumbel), or the average strategy played (regret matching at a simultaneous root,
  // where it is the visit distribution too).
  std::vector<float> policy;
  float value = 0;          // the root's mean value for the viewer
  int simulations = 0;      // leaf evaluations made (terminal and proven leaves included)
  bool proven_win = false;  // the search proved that `action` gives the mover the game's maximum return
  // A concealed choice (SearchConfig::concealed_moves=policy): `action` was drawn from
  // `policy`, the evaluator's prior at the root, without a search.
  bool concealed = false;
  // One entry per seat that acts at the root: the mover, or every seat of a simultaneous
  // round (in seat order).
  std::vector<PlayerSearchResult> players;
};

// Every kind of node is searched (mcts/tree.h explains how each is stored):
// - decision nodes by PUCT, UCB1 or Gumbel (sequential halving at the root);
// - chance nodes by their probabilities, without evaluator requests;
// - simultaneous nodes by decoupled selection (mcts/simultaneous.h), with one evaluator
//   request per seat at a fresh one (with lazy_seats, below the root: the first seat's
//   when reached, the others' at the next visit, itself a simulation);
// - hidden information by information-set search (each simulation descends with a deal
//   drawn from the view), or by one sampled deal searched as if known (config.hidden);
// - proven values (max^n over return vectors, expectation at chance nodes) in sequential
//   perfect-information games (mcts/solver.cc);
// - transpositions on request (config.transpositions).
// The constructor and start() refuse combinations this search does not do, naming the
// game and the reason.
// What one start() may set differently from the config: playout cap randomization
// (KataGo) searches most moves with a small budget and without root exploration, in the
// same Search, tree and all.
struct SearchBudget {
  int simulations = 0;  // leaf evaluations for this decision: at least 1, as each caller sets it
  // PUCT's root exploration as the config sets it: Dirichlet noise (dirichlet_epsilon > 0)
  // and forced playouts with policy target pruning (forced_playouts). False: neither.
  bool explore = true;
};

class Search {
 public:
  Search(const Game& game, const SearchConfig& config, std::uint64_t seed);
  // Restarts the search's random stream (noise, deals, sampling): self-play gives each game
  // a seed from its worker's stream, so that one saved stream decides every game to come.
  void reseed(std::uint64_t seed) { rng_.reseed(seed); }

  // Begins a search from what `view`'s player knows; the player must act here (its turn,
  // or any seat of a simultaneous round). With hidden information the search draws deals
  // from the view while it runs, so the viewed state must stay alive and unchanged until
  // the search is done. With reuse_tree, the subtree of the steps played since the
  // previous root is kept when the root continues that game.
  void start(const PlayerView& view);
  // The same with its own budget for this decision; the config's budget is
  // {config.simulations, true}. Gumbel's noise stays: it is how Gumbel samples a move.
  void start(const PlayerView& view, const SearchBudget& budget);
  // True once the budget is spent, the root is proven, or the root leaves no choice.
  bool done() const;
  // True once the root is evaluated: result() answers from then on, so a search stopped
  // early (core/stop.h) still gives its best move so far.
  bool has_result() const;

  // Selects up to leaves_per_step new leaves needing evaluation (terminal and proven
  // leaves are backed up on the spot) and returns the number of requests (one per leaf,
  // one per seat at a simultaneous leaf that asks for every seat); requests() lists them.
  int collect();
  std::span<const EvalRequest> requests() const { return requests_; }
  // Expands and backs up the collected leaves; evals[i] answers requests()[i].
  void backup(std::span<const Evaluation> evals);

  // The decision; call when done().
  SearchResult result();

  const Tree& tree() const { return tree_; }
  const SearchConfig& config() const { return config_; }

 private:
  // A seat's pick at a simultaneous node: the statistic (it gains a visit and value[seat])
  // among its seat's `count` statistics from `first`, and under regret matching the
  // probability it was drawn with (0 under PUCT).
  struct SeatPick {
    std::int32_t stat;
    std::int32_t first;
    std::int32_t count;
    Player seat;
    float probability;
  };
  // Aligned so that what every leaf touches (the state, the path, the mover and its
  // legal actions) shares one cache line.
  struct alignas(64) Leaf {
    std::unique_ptr<State> state;
    // The nodes from the root: each gains a visit, and the value of its parent's mover.
    std::vector<std::int32_t> path;
    // Its requests: `player` (the mover, or a simultaneous node's first seat that acts)
    // with `legal`, then at a simultaneous node every other seat that acts (`seats`).
    std::vector<Action> legal;
    Player player = kInvalidPlayer;
    std::int32_t num_seats = 0;
    std::vector<Player> seats;
    std::vector<std::vector<Action>> seat_legal;
    std::uint64_t hash = 0;  // the position's hash, with transpositions
    // Simultaneous nodes and information sets only.
    std::vector<SeatPick> picks;
    std::int32_t root_cell = -1;  // the matrix root's joint cell this simulation visits
    std::vector<std::int32_t> availed;  // children whose availability count this simulation raised
    // Lazy seats: a fresh simultaneous node whose `seats` wait for its next visit (only
    // `player` is requested), or a partly expanded one whose waiting seats are requested.
    bool defers_seats = false;
    bool completes_seats = false;

    std::size_t requests() const { return defers_seats ? 1 : 1 + static_cast<std::size_t>(num_seats); }
    Player request_player(std::size_t r) const { return r == 0 ? player : seats[r - 1]; }
    const std::vector<Action>& request_legal(std::size_t r) const { return r == 0 ? legal : seat_legal[r - 1]; }
  };
  enum class Descent { kLeaf, kPending, kBlocked };

  void check_supported() const;
  bool reuse(const State& root, const std::vector<Step>& history);
  Descent select_leaf(Leaf& leaf);
  template <bool kPlain>
  Descent select_leaf(Leaf& leaf);
  bool enter_fresh(Leaf& leaf, std::int32_t node);
  std::int32_t draw_outcome(Leaf& leaf, std::int32_t node);
  std::int32_t pick_joint(Leaf& leaf, std::int32_t node);
  // A modelled seat's pick (seats_[k]) at a simultaneous node, the other picks so far in `code`.
  std::int32_t modelled_pick(std::int32_t node, std::size_t k, std::uint64_t code);
  int leaf_picks_left(std::size_t k) const;
  std::int32_t select_available(Leaf& leaf, std::int32_t node);
  int mark_available(std::int32_t node);
  bool deal_is_over(const State& state, std::int32_t node) const;
  // Information sets: a simulation's deal, from the weighted deals or fresh from the view.
  std::unique_ptr<State> draw_deal();
  void undo(const Leaf& leaf);
  std::int32_t find_joint_child(std::int32_t node, std::span<const Step> round);
  std::int32_t select_root_child();
  std::int32_t select_forced_root_child();
  void prepare_requests(Leaf& leaf);
  void request_waiting_seats(Leaf& leaf);
  void expand(std::int32_t node, const Leaf& leaf, std::span<const Evaluation> evals);
  void expand_chance(std::int32_t node, const Leaf& leaf);
  void expand_simultaneous(std::int32_t node, const Leaf& leaf, std::span<const Evaluation> evals);
  void add_missing_children(std::int32_t node);
  void leaf_value(const Leaf& leaf, std::span<const Evaluation> evals);
  void mix_score(std::int32_t node, const Leaf& leaf, std::span<const Evaluation> evals);
  // A terminal state's value per seat: its returns, the contempt at a draw, the score utility.
  void terminal_value(const State& state, std::span<float> out);
  void mix_rollout(std::int32_t node, const Leaf& leaf);
  void backup_path(const Leaf& leaf, std::span<const float> value);
  void backup_terminal(const Leaf& leaf);
  void propagate_proven(const std::vector<std::int32_t>& path);
  void prepare_root();
  PlayerSearchResult decision_result(bool& proven_win);
  // The root's choice where it is proven (-1 where not): among the children proven as good
  // for the mover as the root, an immediate end first, else the most visited.
  std::int32_t proven_choice(bool& proven_win);
  // Gumbel's improved policy into out.policy, and its choice when `chosen` is -1: among the
  // considered children that got the most visits this search, the best Gumbel + σ(q).
  std::int32_t gumbel_choice(PlayerSearchResult& out, std::int32_t chosen);
  // PUCT's policy target into out.policy (visits, completed Q or pruned visits), and its
  // choice when `chosen` is -1: drawn with temperature, best valued, or most visited.
  std::int32_t visits_choice(PlayerSearchResult& out, int total, std::int32_t chosen);
  // A concealed choice: `policy` becomes the root's prior, and the child drawn from it is returned.
  std::int32_t concealed_choice(std::vector<float>& policy);
  // Raises `policy` to 1/concealed_temperature in place, renormalised, and draws from it.
  std::int32_t tempered_draw(std::vector<float>& policy);
  void simultaneous_results(SearchResult& out);
  // The matrix root (mcts/root_matrix.h): its candidates, a simulation's joint, the seats' results.
  void prepare_root_matrix();
  std::int32_t pick_root_cell(Leaf& leaf);
  void matrix_results(SearchResult& out);

  // What done(), collect() and backup() read on every step first, side by side.
  const Game* game_;
  int completed_ = 0;
  int started_ = 0;  // leaves selected in this search, completed or pending
  int num_leaves_ = 0;
  int simulations_ = 0;  // this decision's budget (SearchBudget)
  bool explore_ = true;
  bool forced_playouts_ = false;  // this decision: config.forced_playouts and explore
  int players_ = 0;
  float max_return_ = 1;
  Player viewer_ = 0;
  bool root_prepared_ = false;
  bool root_forced_ = false;       // the root leaves no choice (one legal action per seat)
  bool concealed_ = false;         // this decision is drawn from the prior (ConcealedMoves::kPolicy)
  bool drawn_from_search_ = false;  // ... searched, and drawn from the search's policy (kSearchMixed)
  bool solver_ = false;            // sequential perfect information: prove return vectors
  bool information_sets_ = false;  // hidden information searched by information sets
  bool simultaneous_ = false;      // the game has simultaneous nodes
  bool lazy_seats_ = false;        // ... and config.lazy_seats
  bool fresh_may_expand_ = false;  // chance nodes or transpositions: fresh nodes may need no evaluation
  bool plain_ = false;             // decision nodes only, no information sets, no transpositions
  Tree tree_;
  SearchConfig config_;
  Rng rng_;
  std::optional<PlayerView> view_;  // information sets: where each simulation draws its deal
  // config.belief_deals: the weighted deals, whether their weighing is the next collect()'s
  // requests, and whether simulations draw from them (not when no other seat has decided).
  DealBelief belief_;
  bool weighing_ = false;
  bool weighted_ = false;
  std::unique_ptr<State> root_state_;
  std::vector<Step> root_history_;
  std::vector<Leaf> leaves_;
  std::vector<EvalRequest> requests_;
  std::vector<float> scratch_;
  std::vector<float> value_;  // the value a leaf backs up
  std::vector<float> proof_;  // a proven vector on its way up
  std::vector<double> returns_;
  std::vector<float> margin_;  // score_utility: final or predicted score margins per seat
  std::vector<double> rollout_sum_;  // rollout_weight: the playouts' values, summed per seat
  std::vector<float> playout_value_;  // rollout_weight: one playout's
  // Scratch for information sets (available children, the sample's actions, missing
  // ones), chance outcomes, simultaneous seats and joint actions.
  std::vector<std::uint8_t> available_;
  std::vector<Action> actions_;
  std::vector<Action> missing_;
  std::vector<ChanceOutcome> outcomes_;
  std::vector<SeatBlock> seats_;
  std::vector<std::uint64_t> radices_;  // of seats_' blocks in the joint code
  std::vector<int> modelled_visits_;
  std::vector<Action> joint_;
  NodeTable transpositions_;  // (position hash, depth) -> expanded node, this search only
  // Gumbel root state: noise, the considered children, visits they had at start, schedule.
  std::vector<float> gumbel_;
  std::vector<std::int32_t> considered_;
  std::vector<int> base_visits_;
  HalvingSchedule schedule_;
  RootMatrix matrix_;  // SimultaneousSelection::kMatrix at a simultaneous root
};

}  // namespace boardlab
