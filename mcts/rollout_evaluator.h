// Baseline evaluators without a network: uniform priors with random-rollout values, and a fixed function for tests.
#pragma once

#include <functional>

#include "core/rng.h"
#include "mcts/evaluator.h"

namespace boardlab {

// Uniform priors; the value is the mean return of `rollouts` uniformly random playouts
// to the end of the game. This is what turns the search into classic UCT.
class RolloutEvaluator final : public Evaluator {
 public:
  explicit RolloutEvaluator(std::uint64_t seed, int rollouts = 1);
  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override;

 private:
  Rng rng_;
  int rollouts_;
  std::vector<double> returns_;
  std::vector<Action> joint_;
};

// Priors and values from a caller-supplied function: for tests, and as the "free"
// evaluator that measures the search alone.
class FunctionEvaluator final : public Evaluator {
 public:
  using Function = std::function<void(const State&, std::span<const Action>, Evaluation&)>;
  explicit FunctionEvaluator(Function f) : f_(std::move(f)) {}
  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override;

  // Uniform priors and zero values: costs (almost) nothing.
  static FunctionEvaluator uniform(int num_players);

 private:
  Function f_;
};

}  // namespace boardlab
