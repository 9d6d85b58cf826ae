// Every knob of the tree search, with defaults that suit small CPU budgets, and its config keys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/config_schema.h"

namespace boardlab {

enum class SearchAlgorithm {
  kPuct,    // AlphaZero: priors, PUCT selection, visit-count policy
  kGumbel,  // Gumbel AlphaZero: sequential halving at the root, improved policy (budgets of 8-64)
  kUct,     // UCB1 selection, unvisited children first: classic UCT with a rollout evaluator
};

// How each seat chooses at a simultaneous node (decoupled: every seat from its own statistics).
enum class SimultaneousSelection {
  // Regret matching with exploration mixing (Lanctot et al. 2013): the seats' average
  // strategies approach an equilibrium; the root policy is the average strategy.
  kRegretMatching,
  // Each seat by the algorithm's own rule (PUCT; UCB1 under uct) on its own values; the
  // root policy is the visit distribution. No convergence guarantee: mixed equilibria
  // need not be found.
  kPuct,
  // The root as the matrix game it is (mcts/root_matrix.h): each seat considers
  // matrix_candidates actions drawn from its prior, every joint of them is visited in
  // turn, and each seat's policy (its training target, and what it plays from) is its
  // strategy in an equilibrium of the joints' values; PUCT per seat below the root.
  kMatrix,
};

// What a PUCT or UCT root reports as its policy, the training target (Gumbel always uses
// the improved policy).
enum class PolicyTarget {
  // AlphaZero: the visit distribution (with forced playouts, the pruned one).
  kVisits,
  // Gumbel AlphaZero's improved policy, softmax(log prior + σ(completed Q)): visits follow
  // the prior at small budgets, so a prior that favours a move the search values lower
  // would train itself; this target moves mass by value instead. At a simultaneous round
  // (decoupled PUCT) per seat.
  kCompletedQ,
};

// How a search treats what its player cannot see (hidden-information games).
enum class HiddenInformation {
  // Information-set MCTS: every simulation draws a deal consistent with the player's
  // view and descends one tree shared by all deals.
  kInformationSet,
  // Determinization with one sample: draw one deal at the start and search it as if it
  // were the truth (a baseline).
  kSingleSample,
};

// How a search makes a choice that some other seat does not see in full
// (PlayerView::choice_concealed: Stratego's setup).
enum class ConcealedMoves {
  kSearch,  // like any other: searched, the most visited (or Gumbel's choice) played
  // Drawn from the evaluator's policy after the root's one evaluation, unsearched. A search
  // over a choice the opponent never sees converges on one answer, and a setup that is
  // always the same is exploitable by construction; the policy is a mixed strategy, and
  // self-play trains it from the games' outcomes (nn/outcome_target.h).
  kPolicy,
  // Searched like any other, and the move drawn from the search's policy (its visits, or
  // Gumbel's improved policy) raised to 1/concealed_temperature: what the search knows about
  // the choice, kept a mixed strategy. Searching to the most visited setup settles on one.
  kSearchMixed,
};

inline constexpr EnumName<SearchAlgorithm> kSearchAlgorithmNames[] = {
    {SearchAlgorithm::kPuct, "puct"}, {SearchAlgorithm::kGumbel, "gumbel"}, {SearchAlgorithm::kUct, "uct"}};
inline constexpr EnumName<SimultaneousSelection> kSimultaneousSelectionNames[] = {
    {SimultaneousSelection::kRegretMatching, "regret_matching"},
    {SimultaneousSelection::kPuct, "puct"},
    {SimultaneousSelection::kMatrix, "matrix"}};
inline constexpr EnumName<PolicyTarget> kPolicyTargetNames[] = {{PolicyTarget::kVisits, "visits"},
                                                              {PolicyTarget::kCompletedQ, "completed_q"}};
inline constexpr EnumName<HiddenInformation> kHiddenInformationNames[] = {
    {HiddenInformation::kInformationSet, "information_set"}, {HiddenInformation::kSingleSample, "single_sample"}};
inline constexpr EnumName<ConcealedMoves> kConcealedMovesNames[] = {{ConcealedMoves::kSearch, "search"},
                                                                  {ConcealedMoves::kPolicy, "policy"},
                                                                  {ConcealedMoves::kSearchMixed, "search_mixed"}};

// The largest budget a player is given where a limit is needed (evaluation games, a page's
// analysis): a few seconds of search on this kind of machine.
inline constexpr int kMaxSimulations = 100000;

struct SearchConfig {
  SearchAlgorithm algorithm = SearchAlgorithm::kPuct;
  int simulations = 64;  // leaf evaluations per decision (the root's own evaluation not counted)
  // Leaves one search collects per evaluator call; >1 uses virtual loss so that they differ.
  int leaves_per_step = 1;
  float virtual_loss = 1.0f;  // value a pending path counts as losing, per pending leaf

  float c_puct = 1.25f;
  // An unvisited child's value: the node's value minus this × sqrt(prior mass already visited).
  float fpu_reduction = 0.25f;
  float dirichlet_alpha = 0.3f;
  float dirichlet_epsilon = 0.0f;  // weight of root noise; 0 disables it (evaluation), 0.25 for self-play

  float uct_c = 1.4f;  // UCB1 exploration constant

  int gumbel_considered = 16;  // root actions sampled for sequential halving (m)
  float gumbel_scale = 1.0f;   // 0 makes Gumbel search deterministic (evaluation)
  float gumbel_c_visit = 50.0f;
  float gumbel_c_scale = 0.1f;  // with Q rescaled to [0, 1], as in mctx

  // Move choice from root visits (PUCT, UCT): 0 plays the most visited, 1 samples by visits.
  float temperature = 0.0f;
  // Keep the subtree of the actions played since the last search.
  bool reuse_tree = false;
  // A best response's search (`boardlab exploit`): at every node where another seat than the
  // searcher's acts, follow the network's policy for that seat as a chance node follows its
  // probabilities, instead of choosing the best move for that seat. Self-play's search
  // assumes every seat plays well; a best response must expect the moves its opponent really
  // makes. Self-play against a fixed opponent (self_play.opponent) then trains the policy head
  // on the opponent's moves alone, so the searcher's own prior is the opponent's policy and
  // its choices come from the values its search finds.
  bool model_opponents = false;
  // PUCT self-play: KataGo's forced playouts at the root and policy target pruning
  // (mcts/forced_playouts.h). Off for play and evaluation.
  bool forced_playouts = false;
  // Contempt: what a drawn end (every seat's return equal, a capped game included) is
  // worth to every seat inside the search, added to its return. Below 0 the search avoids
  // draws it does not need. In self-play it stops a feedback loop: a terminal draw is
  // worth exactly 0 while the network's estimates of playing on are noisy, so at a
  // balanced position the draw (a pass answered by a pass, in Virus War) looks best, the
  // policy learns it and the value learns draws. Training targets keep the real returns.
  float draw_value = 0.0f;
  // AlphaGo's leaf evaluation: the value a leaf backs up is (1 - w) · the evaluator's value
  // + w · the mean return of `rollouts` uniformly random playouts from it. Random playouts
  // are what uct:N knows; a young network's value knows less, and in a territory game a
  // playout costs a tenth of a small network's evaluation. 0: the evaluator alone.
  float rollout_weight = 0.0f;
  // Random playouts per leaf, averaged: by the rollout evaluator of uct:N and mcts(...), and
  // for rollout_weight. One playout's return is ±1, so its noise swamps a leaf's value; the
  // mean of R has a standard deviation 1/√R as large, at R times the (small) cost.
  int rollouts = 1;
  // KataGo's score utility: every value the search backs up becomes (1 - w) · the expected
  // return + w · the expected final score margin (core/score_margin.h): the real margin at
  // a terminal state, the evaluator's prediction (a network's score head) at a leaf. Where
  // the result looks settled, the return no longer tells moves apart and the margin still
  // does: in Squares a leading seat that passes lets the other cover the board unopposed.
  // Two-player games with a score only. Self-play's root values, a part of the value
  // target (training.value_target_mix), then carry the same mix. 0: returns alone.
  float score_utility = 0.0f;
  PolicyTarget policy_target = PolicyTarget::kVisits;  // PUCT and UCT roots; moves still follow the visits
  // Lc0's policy softmax temperature: each child's prior becomes p^(1/T), renormalised. Above
  // 1 it flattens a sharp prior so that the search looks past the network's favourite;
  // a large T is a uniform prior, which leaves the network only its value.
  float prior_temperature = 1.0f;

  SimultaneousSelection simultaneous_selection = SimultaneousSelection::kRegretMatching;
  // A simultaneous node below the root asks the evaluator for its first seat alone when it
  // is reached, and for the other seats at its second visit: with a thousand actions a seat
  // most such nodes are reached once, and one request per seat made Squares' searches cost
  // 1.8 network evaluations a simulation. The root asks for every seat at once.
  bool lazy_seats = true;
  // Regret matching's exploration: the share of a seat's sampling spread uniformly.
  float regret_exploration = 0.1f;
  // The matrix root: candidates per seat. 0: as many as let the budget visit every joint of
  // them once (8 a seat at 64 simulations and two seats choosing), at least 2.
  int matrix_candidates = 0;
  // Of each seat's candidates, this many are drawn uniformly from its actions rather than from
  // its prior, where the search explores (self-play's root noise): a reply the prior has all
  // but ruled out, such as a smaller square on the other seat's favourite, is still valued,
  // and the equilibrium learns whether to fear it. At least one candidate stays the prior's.
  int matrix_uniform_candidates = 0;
  // The Gumbel noise with which each seat's candidates are drawn from its prior (0: its
  // likeliest). Self-play draws; evaluation and play take the likeliest, as Gumbel search's
  // gumbel_scale does, unless a player sets it (agent:CK(matrix_candidate_noise=1)). The
  // likeliest are a set the other seat can foretell where the prior is near flat (Squares'
  // first round: the same few overlapping squares every game, which one smaller square
  // removes); drawn, they are the prior's mix, as weak as that mix is (experiments/results).
  float matrix_candidate_noise = 1.0f;
  HiddenInformation hidden = HiddenInformation::kInformationSet;
  // Information-set search weighs its deals by what the other seats did (mcts/deal_belief.h):
  // this many deals are drawn once per decision, each weighted by the likelihood of the
  // other seats' last `belief_window` decisions (0: all) under the evaluator's policy for
  // them, mixed with a uniform share `belief_floor`; every simulation draws its deal from
  // that set. 0: every simulation draws a fresh deal from the view, unweighted.
  int belief_deals = 0;
  int belief_window = 0;
  float belief_floor = 0.1f;
  ConcealedMoves concealed_moves = ConcealedMoves::kSearch;
  // Players (self-play draws at 1: its targets are for that draw): a concealed choice is
  // drawn from the policy (kPolicy) or the search's policy (kSearchMixed) raised to 1/T,
  // renormalised. Below 1 it leans to the likeliest choices: stronger against an opponent
  // that does not read them, more predictable to one that does. 0: the likeliest alone.
  float concealed_temperature = 1.0f;
  // Share the children of nodes whose positions are equal (commuting sub-moves reach one
  // position in several orders); perfect-information games only.
  bool transpositions = false;
  // KataGo's NN cache (mcts/evaluation_cache.h): recent evaluations each search thread keeps
  // and reuses while the network is unchanged. Commuting sub-moves, the subtrees a reused
  // tree let go and shared openings bring the same position back: in a Virus War training
  // run it answers about one simulation in eight (experiments/results/README.md, "Virus War").
  // Networks only: random playouts are never reused. 0: none.
  int cache_positions = 16384;

  // The keys of player specs (mcts(simulations=64)) and of a training config's search section.
  template <class V>
  void visit(V& v) {
    v("algorithm", algorithm, "puct, gumbel (small budgets) or uct (UCB1, no priors)", kSearchAlgorithmNames);
    v("simulations", simulations, "leaf evaluations per move", Range::at_least(1));
    // A node's in_flight counts pending leaves in 16 bits.
    v("leaves_per_step", leaves_per_step, "leaves per search per evaluator call (virtual loss above 1)",
      Range::between(1, 4096));
    v("virtual_loss", virtual_loss, "value a pending leaf counts as losing", Range::at_least(0));
    v("c_puct", c_puct, "PUCT exploration constant", Range::above(0));
    v("fpu_reduction", fpu_reduction, "PUCT: value of unvisited children below their parent's", Range::at_least(0));
    v("dirichlet_alpha", dirichlet_alpha, "PUCT: root noise concentration", Range::above(0));
    v("dirichlet_epsilon", dirichlet_epsilon, "PUCT: weight of root noise (0: none, as in evaluation)",
      Range::between(0, 1));
    v("uct_c", uct_c, "UCT: UCB1 exploration constant", Range::at_least(0));
    v("gumbel_considered", gumbel_considered, "Gumbel: root actions sampled for sequential halving",
      Range::at_least(1));
    v("gumbel_scale", gumbel_scale, "Gumbel: noise scale (exploration; 0: deterministic)", Range::at_least(0));
    v("gumbel_c_visit", gumbel_c_visit, "Gumbel: c_visit of the completed-Q transform", Range::at_least(0));
    v("gumbel_c_scale", gumbel_c_scale, "Gumbel: c_scale of the completed-Q transform", Range::at_least(0));
    v("temperature", temperature, "players: 0 plays the most visited, 1 samples by visits (self-play has its own)",
      Range::at_least(0));
    v("reuse_tree", reuse_tree, "keep the subtree of the played move");
    v("model_opponents", model_opponents,
      "best-response search: other seats follow the network's policy for them (learned from a fixed opponent, "
      "self_play.opponent) instead of their best moves");
    visit_simultaneous(v);
    v("hidden", hidden, "hidden information: information_set (IS-MCTS) or single_sample", kHiddenInformationNames);
    v("belief_deals", belief_deals,
      "information sets: deals drawn per decision and weighted by the other seats' past moves (0: unweighted)",
      Range::between(0, 4096));
    v("belief_window", belief_window, "belief_deals: the other seats' last decisions weighed (0: all)",
      Range::at_least(0));
    v("belief_floor", belief_floor, "belief_deals: uniform share mixed into the policy a past move is weighed by",
      Range::between(0, 1));
    v("concealed_moves", concealed_moves,
      "choices another seat does not see in full (Stratego's setup): search; policy (drawn from the network's "
      "policy unsearched, a mixed strategy self-play trains from outcomes: self_play.concealed_step); or "
      "search_mixed (searched, and drawn from the search's policy instead of its most visited choice)",
      kConcealedMovesNames);
    v("concealed_temperature", concealed_temperature,
      "concealed_moves=policy or search_mixed, players: draw from the (search's) policy raised to 1/T (1: as it "
      "is; 0: its likeliest choice); "
      "self-play draws at 1",
      Range::at_least(0));
    v("transpositions", transpositions, "share children of equal positions (perfect information only)");
    v("cache_positions", cache_positions,
      "network evaluations each search thread keeps for reuse while the network is unchanged (0: none)",
      Range::between(0, 1 << 24));
    v("forced_playouts", forced_playouts, "PUCT self-play: KataGo's forced playouts and policy target pruning");
    v("draw_value", draw_value, "contempt: added to every seat's return at a drawn end inside the search",
      Range::between(-10, 10));
    v("rollout_weight", rollout_weight, "weight of the random playouts' mean return in each leaf's value (0: none)",
      Range::between(0, 1));
    v("rollouts", rollouts, "random playouts per leaf, averaged (rollout evaluator, rollout_weight)",
      Range::between(1, 4096));
    v("score_utility", score_utility, "weight of the final score margin in every value the search backs up (0: none)",
      Range::between(0, 1));
    v("policy_target", policy_target,
      "puct/uct training target: visits, or completed_q (Gumbel's improved policy; moves still follow visits)",
      kPolicyTargetNames);
    // Below 0.1 the powers of small priors underflow a float.
    v("prior_temperature", prior_temperature, "priors become p^(1/T): above 1 flattens the network's policy",
      Range::at_least(0.1));
  }

  // The keys of simultaneous rounds, in visit()'s order.
  template <class V>
  void visit_simultaneous(V& v) {
    v("simultaneous_selection", simultaneous_selection,
      "simultaneous nodes: regret_matching, puct, or matrix (the root as a matrix game of each seat's candidates, "
      "solved to an equilibrium; puct below it)",
      kSimultaneousSelectionNames);
    v("lazy_seats", lazy_seats,
      "simultaneous nodes below the root: evaluate the first seat when reached, the others at the next visit");
    // Regret matching divides by the sampling probability, which exploration keeps positive.
    v("regret_exploration", regret_exploration, "regret matching: share of sampling spread uniformly",
      Range::above(0, 1));
    v("matrix_candidates", matrix_candidates,
      "simultaneous_selection=matrix: root actions each seat considers (0: as many as the budget visits every joint "
      "of once)",
      Range::between(0, 4096));
    v("matrix_uniform_candidates", matrix_uniform_candidates,
      "simultaneous_selection=matrix, where the search explores (root noise): of each seat's candidates, this many "
      "drawn uniformly from its actions instead of its prior (at least one stays the prior's)",
      Range::between(0, 4096));
    v("matrix_candidate_noise", matrix_candidate_noise,
      "simultaneous_selection=matrix: Gumbel noise of each seat's candidate draw from its prior (0: its likeliest, "
      "as evaluation plays)",
      Range::at_least(0));
  }

  bool operator==(const SearchConfig&) const = default;
};

std::string_view algorithm_name(SearchAlgorithm algorithm);
std::string_view simultaneous_selection_name(SimultaneousSelection selection);
std::string_view hidden_information_name(HiddenInformation hidden);

// Reads a player spec's options, "key=value,key=value" (keys as in visit()); throws an
// InputError naming the key and what it expects, or the closest key to an unknown one.
void set_search_options(SearchConfig& config, std::string_view options);
// The same for a player spec's parsed options (arena/player_spec.h), whose values may hold commas.
void set_search_options(SearchConfig& config, const std::vector<std::pair<std::string, std::string>>& options);
// Checks every key's range; throws an InputError naming the offending key.
void validate(const SearchConfig& config);

}  // namespace boardlab
