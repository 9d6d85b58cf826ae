// Tests for a concealed choice's target from the outcome: its direction, its pull to uniform, its fixed point, its refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "core/errors.h"
#include "nn/outcome_target.h"

namespace boardlab {
namespace {

double entropy(const std::vector<float>& p) {
  double h = 0;
  for (float x : p)
    if (x > 0) h -= x * std::log(x);
  return h;
}

// The mean target over the choices drawn from `policy`, when choice x returns q[x] exactly.
std::vector<double> expected_target(const std::vector<float>& policy, const std::vector<double>& q,
                                    const OutcomeTargetConfig& config) {
  double v = 0;
  for (std::size_t x = 0; x < q.size(); ++x) v += policy[x] * q[x];
  std::vector<double> mean(policy.size(), 0.0);
  for (std::size_t played = 0; played < policy.size(); ++played) {
    std::vector<float> target = policy;
    outcome_target(target, played, q[played] - v, config);
    for (std::size_t x = 0; x < policy.size(); ++x) mean[x] += policy[played] * target[x];
  }
  return mean;
}

TEST(OutcomeTarget, AWinRaisesThePlayedChoiceAndALossLowersIt) {
  const std::vector<float> prior = {0.2f, 0.5f, 0.3f};
  std::vector<float> won = prior, lost = prior;
  outcome_target(won, 0, +1.0, {});
  outcome_target(lost, 0, -1.0, {});
  EXPECT_GT(won[0], prior[0]);
  EXPECT_LT(lost[0], prior[0]);
  EXPECT_NEAR(std::accumulate(won.begin(), won.end(), 0.0), 1.0, 1e-6);
  EXPECT_NEAR(std::accumulate(lost.begin(), lost.end(), 0.0), 1.0, 1e-6);
  // The others keep their ratio to each other.
  EXPECT_NEAR(won[1] / won[2], lost[1] / lost[2], 1e-3);
}

TEST(OutcomeTarget, AnOutcomeAsExpectedOnlyPullsTowardsUniform) {
  const std::vector<float> prior = {0.05f, 0.9f, 0.05f};
  std::vector<float> target = prior;
  outcome_target(target, 1, 0.0, {0.5, 1.0});
  EXPECT_GT(entropy(target), entropy(prior));
  EXPECT_LT(target[1], prior[1]);
  std::vector<float> unchanged = prior;
  outcome_target(unchanged, 1, 0.0, {0.0, 1.0});  // step 0: the prior itself
  for (std::size_t x = 0; x < prior.size(); ++x) EXPECT_NEAR(unchanged[x], prior[x], 1e-6);
}

TEST(OutcomeTarget, OneOutcomeMovesARareChoiceAtMostTheCap) {
  std::vector<float> target = {0.001f, 0.999f};
  outcome_target(target, 0, +2.0, {1.0, 0.001});
  // Unclipped the log-odds would rise by 2000; the cap keeps one game's move to e^kMaxOutcomeStep.
  const double odds = (target[0] / target[1]) / (0.001 / 0.999);
  EXPECT_NEAR(std::log(odds), kMaxOutcomeStep, 0.01);
}

TEST(OutcomeTarget, TheExpectedTargetStaysAtTheSoftmaxOfTheValues) {
  // Where π ∝ exp(Q / temperature), the expected step vanishes (to first order in the step);
  // from the uniform policy it moves by the order of the step itself.
  const OutcomeTargetConfig config{0.01, 0.25};
  const std::vector<double> q = {0.3, -0.2, 0.1, -0.4};
  std::vector<float> fixed(q.size());
  double z = 0;
  for (std::size_t x = 0; x < q.size(); ++x) z += fixed[x] = static_cast<float>(std::exp(q[x] / config.temperature));
  for (float& p : fixed) p = static_cast<float>(p / z);
  const std::vector<float> uniform(q.size(), 0.25f);
  double at_fixed = 0, at_uniform = 0;
  const std::vector<double> from_fixed = expected_target(fixed, q, config);
  const std::vector<double> from_uniform = expected_target(uniform, q, config);
  for (std::size_t x = 0; x < q.size(); ++x) {
    at_fixed = std::max(at_fixed, std::abs(from_fixed[x] - fixed[x]));
    at_uniform = std::max(at_uniform, std::abs(from_uniform[x] - uniform[x]));
  }
  EXPECT_GT(at_uniform, 5e-4);
  EXPECT_LT(at_fixed, at_uniform / 20);
}

TEST(OutcomeTarget, RefusesAChoiceItsPolicyCouldNotHaveDrawn) {
  std::vector<float> policy = {0.0f, 1.0f};
  EXPECT_THROW(outcome_target(policy, 0, 1.0, {}), InputError);
  EXPECT_THROW(outcome_target(policy, 2, 1.0, {}), InputError);
  EXPECT_THROW(outcome_target(policy, 1, 1.0, {0.1, 0.0}), InputError);
}

}  // namespace
}  // namespace boardlab
