// A concealed choice's policy target from the game's outcome (nn/outcome_target.h).
#include "nn/outcome_target.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"

namespace boardlab {

void outcome_target(std::span<float> policy, std::size_t played, double advantage, const OutcomeTargetConfig& config) {
  if (played >= policy.size())
    throw InputError("outcome target: the played action " + std::to_string(played) + " is not among the " +
                     std::to_string(policy.size()) + " of its policy");
  if (!(policy[played] > 0))
    throw InputError("outcome target: the played action had probability " + std::to_string(policy[played]) +
                     " under the policy it was drawn from");
  if (!(config.step >= 0 && config.temperature > 0))
    throw InputError("outcome target: step must be at least 0 and temperature above 0");
  const double shrink = 1.0 / (1.0 + config.step * config.temperature);
  const double moved = std::clamp(config.step * advantage / policy[played], -kMaxOutcomeStep, kMaxOutcomeStep);
  std::vector<double> logits(policy.size());
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t x = 0; x < policy.size(); ++x) {
    // An action the policy never plays keeps no mass: log 0 stays −∞ however it is scaled.
    const double log_p = policy[x] > 0 ? std::log(static_cast<double>(policy[x])) : -std::numeric_limits<double>::infinity();
    logits[x] = (log_p + (x == played ? moved : 0.0)) * shrink;
    top = std::max(top, logits[x]);
  }
  double total = 0;
  for (double& l : logits) total += l = std::exp(l - top);
  for (std::size_t x = 0; x < policy.size(); ++x) policy[x] = static_cast<float>(logits[x] / total);
}

}  // namespace boardlab
