// Decoupled selection at simultaneous nodes: each seat chooses from its own statistics, by regret matching or PUCT.
//
// A simultaneous node's children block holds one statistic per (seat, legal action), seat
// after seat (mcts/tree.h). Every simulation through the node lets each seat pick one of
// its statistics; the joint action leads to the joint child, and the backup adds each
// seat's own value to the statistic it picked.
//
// Regret matching (the default; Lanctot et al. 2013, "Monte Carlo tree search in
// simultaneous move games"): a seat plays σ'(a) = (1 − γ)·σ(a) + γ/k, where σ is
// proportional to the positive part of its regrets and γ is regret_exploration. With the
// simulation's value u for the seat and the sampled action a, the regret of every action b
// moves by û(b) − u, where û(b) = u / σ'(a) for b = a and 0 otherwise (an unbiased
// estimate of b's value). Regrets are floored at zero after every update (regret
// matching+, Tammelin 2014): the values backed up from subtrees that are still learning
// are noisy early on, and plain regret matching carries that noise in its sums for long
// (on two rounds of biased_rps it ends up to 0.15 from the equilibrium where RM+ stays
// within 0.02). The regret lives in the statistic's net_value. The visit shares are the
// average of the strategies played, which approach an equilibrium of the node's game:
// they are the root policy.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.h"
#include "mcts/search_config.h"
#include "mcts/tree.h"

namespace boardlab {

// One seat's statistics at a simultaneous node: `count` of them from `first`.
struct SeatBlock {
  Player seat = kInvalidPlayer;
  std::int32_t first = 0;
  std::int32_t count = 0;
};

// The seats' blocks at expanded simultaneous node `node`, in seat order, into `out`
// (cleared; a seat without a legal action has no block).
void seat_blocks(const Tree& tree, std::int32_t node, std::vector<SeatBlock>& out);

// A seat's pick: the statistic, and under regret matching the probability it was drawn
// with (the backup divides by it); 0 under PUCT.
struct SeatChoice {
  std::int32_t stat = -1;
  float probability = 0;
};

// The statistic `block`'s seat picks in this simulation at simultaneous node `node`.
SeatChoice select_seat(const Tree& tree, std::int32_t node, const SeatBlock& block, const SearchConfig& config,
                       Rng& rng);

// The seat's policy over its block: its visit shares, which are the average strategy it
// played (regret matching) or the visit distribution (PUCT); the priors before any visit.
void seat_policy(const Tree& tree, const SeatBlock& block, std::span<float> out);

// Regret matching+'s update after a simulation that picked `stat` (drawn with
// `probability`) among the `count` statistics from `first`, worth `value` to the seat.
void update_regrets(Tree& tree, std::int32_t stat, std::int32_t first, std::int32_t count, float probability,
                    float value);

// The seat's mean value over its simulations through the node (0 before any).
float seat_value(const Tree& tree, const SeatBlock& block);

}  // namespace boardlab
