// KataGo's forced playouts and policy target pruning for PUCT at the root (Wu 2019, "Accelerating Self-Play Learning in Go", 3.1).
//
// Forced playouts: every root child c gets at least n_forced(c) = sqrt(k · P(c) · Σ N)
// simulations (k = 2), so that a move the noise favours is looked at even where PUCT would
// not. Policy target pruning then takes those visits back out of the training target: from
// every child but the most visited, as many visits (up to n_forced) are subtracted as leave
// its PUCT score below the most visited child's, and a child left with one visit or fewer
// is dropped. The target keeps what PUCT chose on its own merits and the exploration still
// happened. Self-play only: the move played is still chosen from the real visits.
#pragma once

#include <cstdint>
#include <vector>

#include "mcts/search_config.h"
#include "mcts/tree.h"

namespace boardlab {

inline constexpr double kForcedPlayoutK = 2;

// sqrt(k · prior · child_visits): the visits a child with `prior` is owed after
// `child_visits` simulations through its parent.
double forced_playouts(float prior, int child_visits);

// The root child that has fewer visits (pending ones counted) than it is owed, the one
// furthest behind; -1 when none is, and PUCT chooses.
std::int32_t forced_root_child(const Tree& tree);

// The root children's visits with forced playouts pruned (KataGo's policy target): the
// most visited child keeps its visits; each other child keeps the fewest visits, at least
// its visits minus n_forced, at which its PUCT score stays at or below the most visited
// child's; a child left with one visit or fewer gets 0.
std::vector<float> pruned_root_visits(const Tree& tree, const SearchConfig& config);

}  // namespace boardlab
