// Runs many searches to completion with one evaluator call per step: the batched driver.
#pragma once

#include <span>
#include <vector>

#include "mcts/evaluator.h"
#include "mcts/search.h"

namespace boardlab {

struct DriverStats {
  std::uint64_t evaluator_calls = 0;
  std::uint64_t evaluations = 0;  // positions sent to the evaluator
};

// One thread drives any number of searches (games); several threads may each own a
// driver over a shared thread-safe evaluator.
class SearchDriver {
 public:
  explicit SearchDriver(Evaluator& evaluator) : evaluator_(&evaluator) {}

  // Steps every search that is not done until all are: each step collects every search's
  // leaves, evaluates them in one batch and hands the answers back. A stop request
  // (core/stop.h) ends the run early, as soon as every search has a result to give.
  void run(std::span<Search* const> searches);
  // One step only; returns false when every search was already done.
  bool step(std::span<Search* const> searches);

  const DriverStats& stats() const { return stats_; }

 private:
  Evaluator* evaluator_;
  std::vector<EvalRequest> requests_;
  std::vector<Evaluation> evals_;
  std::vector<std::pair<Search*, int>> owners_;
  DriverStats stats_;
};

}  // namespace boardlab
