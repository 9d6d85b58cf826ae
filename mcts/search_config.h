// Every knob of the tree search, with defaults that suit small CPU budgets.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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
  // PUCT self-play: KataGo's forced playouts at the root and policy target pruning
  // (mcts/forced_playouts.h). Off for play and evaluation.
  bool forced_playouts = false;

  SimultaneousSelection simultaneous_selection = SimultaneousSelection::kRegretMatching;
  // Regret matching's exploration: the share of a seat's sampling spread uniformly.
  float regret_exploration = 0.1f;
  HiddenInformation hidden = HiddenInformation::kInformationSet;
  // Share the children of nodes whose positions are equal (commuting sub-moves reach one
  // position in several orders); perfect-information games only.
  bool transpositions = false;
};

std::string_view algorithm_name(SearchAlgorithm algorithm);
std::string_view simultaneous_selection_name(SimultaneousSelection selection);
std::string_view hidden_information_name(HiddenInformation hidden);

// Sets one option from text ("simulations", "64"); throws InputError naming the key and
// what it expects. Keys are the field names above; the enums read "algorithm" (puct,
// gumbel, uct), "simultaneous_selection" (regret_matching, puct) and "hidden"
// (information_set, single_sample).
void set_search_option(SearchConfig& config, std::string_view key, std::string_view value);
// Reads "key=value,key=value".
void set_search_options(SearchConfig& config, std::string_view options);
// Checks ranges; throws InputError naming the offending key.
void validate(const SearchConfig& config);

}  // namespace boardlab
