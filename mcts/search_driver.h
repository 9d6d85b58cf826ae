// Runs many searches to completion with one evaluator call per step: the batched driver.
#pragma once

#include <span>
#include <vector>

#include "core/stop.h"
#include "mcts/evaluation_cache.h"
#include "mcts/evaluator.h"
#include "mcts/node_table.h"
#include "mcts/search.h"

namespace boardlab {

struct DriverStats {
  std::uint64_t evaluator_calls = 0;
  std::uint64_t evaluations = 0;  // positions sent to the evaluator
  // Positions answered without the evaluator: from the cache, or by a request for the same
  // position and seat in the same call.
  std::uint64_t reused = 0;
};

// One thread drives any number of searches (games); several threads may each own a
// driver over a shared thread-safe evaluator.
class SearchDriver {
 public:
  // With `cache_positions` > 0 and an evaluator whose answers may be reused
  // (Evaluator::answer_version), the driver keeps that many recent answers and asks the
  // evaluator only for positions it has not answered under the current version.
  explicit SearchDriver(Evaluator& evaluator, int cache_positions = 0)
      : evaluator_(&evaluator), cache_(cache_positions) {}

  // Steps every search that is not done until all are: each step collects every search's
  // leaves, evaluates them in one batch and hands the answers back. A stop request
  // (core/stop.h), or `stop` when given, ends the run early, as soon as every search has a
  // result to give.
  void run(std::span<Search* const> searches, const StopToken* stop = nullptr);
  // One step only; returns false when every search was already done.
  bool step(std::span<Search* const> searches);

  const DriverStats& stats() const { return stats_; }

 private:
  // Fills evals[i] for every request, from the cache where it can.
  void evaluate(std::span<Evaluation> evals);

  Evaluator* evaluator_;
  std::vector<EvalRequest> requests_;
  std::vector<Evaluation> evals_;
  std::vector<std::pair<Search*, int>> owners_;
  DriverStats stats_;
  EvaluationCache cache_;
  // The requests the cache did not answer, each position once, and where each request's answer is.
  std::vector<EvalRequest> missed_;
  std::vector<Evaluation> missed_evals_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::int32_t> answer_of_;  // per request: -1 from the cache, else its index in missed_
  NodeTable in_call_;                    // (position, seat) -> index in missed_, this call only
};

}  // namespace boardlab
