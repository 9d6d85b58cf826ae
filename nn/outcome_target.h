// The policy target of a concealed choice, learned from the game's outcome: one step of mirror descent with a pull to uniform.
//
// A choice no opponent sees (Stratego's setup, SearchConfig::concealed_moves=policy) is drawn
// from the network's policy π without a search, so no search says how good it was; the game's
// outcome does, once it is known. The target moves π's log-probabilities by an estimate of
// each action's advantage and pulls them towards uniform (magnetic mirror descent, Sokota et
// al. 2022, with the uniform policy as magnet):
//   log t(x) = (log π(x) + step · Â(x)) / (1 + step · temperature) + const,
//   Â(x) = [x played] · (G − v) / π(x),
// G the mover's return, v the network's value at the choice. Â is an unbiased estimate of
// Q(x) − v, and in the small-step limit the expected update is REINFORCE's. Where the
// expected update vanishes, π(x) ∝ exp(Q(x) / temperature): a policy that prefers better
// choices by their values in return units and never becomes one setup.
#pragma once

#include <cstddef>
#include <span>

namespace boardlab {

struct OutcomeTargetConfig {
  double step = 0.1;         // η: how far one game's outcome moves the played action's log-probability
  double temperature = 0.1;  // the stationary policy's temperature over action values, in return units
};

// The largest move one game makes to the played action's log-probability (before the pull to
// uniform): the importance weight 1/π(x) of a rarely drawn action would otherwise let one
// outcome decide its target.
inline constexpr double kMaxOutcomeStep = 2.0;

// Rewrites `policy` (the prior the choice was drawn from, summing to 1) into the target;
// `played` indexes the drawn action, `advantage` is G − v.
void outcome_target(std::span<float> policy, std::size_t played, double advantage, const OutcomeTargetConfig& config);

}  // namespace boardlab
