// Gumbel AlphaZero's pieces (Danihelka et al. 2022): completed Q-values, σ, the halving schedule.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.h"
#include "mcts/search_config.h"
#include "mcts/tree.h"

namespace boardlab {

// σ(completed Q) for every child of `node`, from its mover's point of view: visited
// children keep their mean value, unvisited ones get the mixed value v_mix (the node's
// own estimate blended with the prior-weighted visited values); the values are rescaled
// to [0, 1] and scaled by (c_visit + max visits) · c_scale. With `available`
// (information-set search) only the children whose entry is nonzero count; the others get 0.
void sigma_completed_q(const Tree& tree, std::int32_t node, const SearchConfig& config, std::span<float> out,
                       std::span<const std::uint8_t> available = {});

// Softmax of log prior + σ(completed Q) over the children (the available ones): the
// improved policy, which is Gumbel search's training target and its interior selection rule.
void improved_policy(const Tree& tree, std::int32_t node, const SearchConfig& config, std::span<float> out,
                     std::span<const std::uint8_t> available = {});
// The same over `count` children from `first` whose parent's own estimate is `own_value`:
// one seat's block at a simultaneous node (mcts/simultaneous.h).
void improved_policy(const Tree& tree, std::int32_t first, std::int32_t count, float own_value,
                     const SearchConfig& config, std::span<float> out);

// Gumbel-top-k: each of the `count` children from `first` scores scale · g + log prior, g a
// standard Gumbel draw, into `scores`; the `k` best, as indices from `first`, best first,
// into `top`. That samples k children without replacement in proportion to their priors
// (scale 0: the k likeliest). Gumbel search's root and the matrix root draw their candidates so.
void gumbel_top_k(const Tree& tree, std::int32_t first, std::int32_t count, int k, float scale, Rng& rng,
                  std::vector<float>& scores, std::vector<std::int32_t>& top);

// Sequential halving as a schedule: target(k) is the visit count a considered root action
// must have for simulation k to go to it (each phase visits every survivor equally, then
// the best half survive, down to two). Computed on demand, not tabulated: a budget of 10^9
// costs nothing before the search's first step (a table took 4 GB).
class HalvingSchedule {
 public:
  HalvingSchedule() = default;
  HalvingSchedule(int considered, int simulations);
  // Simulations past the budget get the last simulation's target.
  int target(std::int64_t simulation) const;

 private:
  int considered_ = 1;
  int simulations_ = 0;
  int phases_ = 0;
};

}  // namespace boardlab
