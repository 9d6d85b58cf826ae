// Choosing which child to descend into: PUCT, UCB1 or Gumbel's rule at decision nodes, the probabilities at chance nodes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.h"
#include "mcts/search_config.h"
#include "mcts/tree.h"

namespace boardlab {

// The child of an expanded decision node to simulate next, from its mover's point of view,
// counting pending leaves as losses (virtual loss). With `available` (information-set
// search) only children whose entry is nonzero are candidates, and each one's availability
// count stands in for the node's visits, as in subset-armed bandits. `scratch` avoids an
// allocation per call.
std::int32_t select_child(const Tree& tree, std::int32_t node, const SearchConfig& config, Rng& rng,
                          std::vector<float>& scratch, std::span<const std::uint8_t> available = {});

// PUCT (UCB1 under uct) among the `count` statistics from `first`, for a chooser that has
// passed the node `visits` times (pending passes included) and values it at `value` (the
// base of an unvisited statistic's value): one seat's decoupled choice at a simultaneous node.
std::int32_t select_in_block(const Tree& tree, std::int32_t first, std::int32_t count, int visits, float value,
                             const SearchConfig& config, Rng& rng);

// The outcome of chance node `node` whose visit share lags its probability most (argmax of
// p·(N+1) − n, pending visits counted). Deterministic rather than sampled: the visits of
// every outcome stay within one of p·N (a stratified sample, so the values backed up
// through the node have less variance), and leaves collected together with virtual loss
// spread over the outcomes instead of meeting at one pending node.
std::int32_t select_chance_child(const Tree& tree, std::int32_t node);

// A best response's choice (SearchConfig::model_opponents) among the `count` children from
// `first`: the highest mean value among those visited at least half as often as the mean child
// (so that one lucky visit does not decide), ties to the more visited. Against a fixed opponent
// the best reply is the best-valued move, not the most explored one.
std::int32_t best_valued_child(const Tree& tree, std::int32_t first, std::int32_t count);

// The same rule over the `count` children from `first` (with `available`, only those whose entry
// is nonzero), their priors as the probabilities: a seat that SearchConfig::model_opponents
// follows rather than searches.
std::int32_t select_by_prior(const Tree& tree, std::int32_t first, std::int32_t count,
                             std::span<const std::uint8_t> available = {});

}  // namespace boardlab
