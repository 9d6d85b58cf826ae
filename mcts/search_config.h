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
};

std::string_view algorithm_name(SearchAlgorithm algorithm);

// Sets one option from text ("simulations", "64"); throws InputError naming the key and
// what it expects. Keys are the field names above, plus "algorithm" (puct, gumbel, uct).
void set_search_option(SearchConfig& config, std::string_view key, std::string_view value);
// Reads "key=value,key=value".
void set_search_options(SearchConfig& config, std::string_view options);
// Checks ranges; throws InputError naming the offending key.
void validate(const SearchConfig& config);

}  // namespace boardlab
