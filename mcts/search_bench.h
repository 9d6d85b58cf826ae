// Search speed benchmark: simulations per second over many concurrent games, behind `boardlab bench --search`.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/game.h"
#include "mcts/search_config.h"

namespace boardlab {

struct SearchBenchStats {
  int concurrent = 0;
  std::uint64_t decisions = 0;    // searches run to completion
  std::uint64_t simulations = 0;
  std::uint64_t evaluations = 0;  // positions sent to the evaluator
  std::uint64_t batches = 0;
  double seconds = 0;
  double simulations_per_second() const { return seconds > 0 ? static_cast<double>(simulations) / seconds : 0; }
  double mean_batch() const { return batches > 0 ? static_cast<double>(evaluations) / static_cast<double>(batches) : 0; }
};

enum class BenchEvaluator {
  kFree,     // uniform priors, zero values: measures the search alone
  kRollout,  // one random rollout per leaf: what uct:N pays
};

// The most concurrent games one bench drives: each holds a state and a search tree.
inline constexpr int kMaxBenchConcurrent = 100'000;

// Searches positions drawn from random games (`concurrent` at once, one driver, one
// thread) until `min_seconds` have passed or a stop is requested (core/stop.h).
SearchBenchStats bench_search(const Game& game, const SearchConfig& config, BenchEvaluator evaluator, int concurrent,
                              double min_seconds, std::uint64_t seed);

}  // namespace boardlab
