// Random-rollout and function evaluators.
#include "mcts/rollout_evaluator.h"

#include <algorithm>

#include "core/errors.h"
#include "core/random_play.h"

namespace boardlab {

RolloutEvaluator::RolloutEvaluator(std::uint64_t seed, int rollouts) : rng_(seed), rollouts_(rollouts) {
  if (rollouts < 1) throw InputError("RolloutEvaluator: rollouts must be at least 1, got " + std::to_string(rollouts));
}

void RolloutEvaluator::evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) {
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const State& state = *requests[i].state;
    const int players = state.game().num_players();
    Evaluation& eval = out[i];
    eval.prior.assign(requests[i].legal.size(), 1.0f);
    eval.value.assign(players, 0.0f);
    returns_.resize(players);
    for (int r = 0; r < rollouts_; ++r) {
      std::unique_ptr<State> playout = state.clone();
      while (!playout->is_terminal()) apply_random_step(*playout, rng_, joint_);
      playout->returns(returns_);
      for (int p = 0; p < players; ++p) eval.value[p] += static_cast<float>(returns_[p]) / static_cast<float>(rollouts_);
    }
  }
}

void FunctionEvaluator::evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) {
  for (std::size_t i = 0; i < requests.size(); ++i) f_(*requests[i].state, requests[i].legal, out[i]);
}

FunctionEvaluator FunctionEvaluator::uniform(int num_players) {
  return FunctionEvaluator([num_players](const State&, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    eval.value.assign(num_players, 0.0f);
  });
}

}  // namespace boardlab
