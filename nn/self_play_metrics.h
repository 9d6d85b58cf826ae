// The self-play columns of metrics.csv: games, positions and simulations per second, game length, draws, passes and the network's lag, over the interval since the previous row.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/game.h"
#include "nn/actors.h"
#include "nn/metrics_file.h"

namespace boardlab {

class SelfPlayMetrics {
 public:
  static std::vector<std::string> columns();
  // The rates since the last call (since construction at first), over the time the actors
  // played: an evaluation's pause is left out.
  MetricsRow take(const ActorPool& actors, const Game& game);

 private:
  using Clock = std::chrono::steady_clock;
  SelfPlayTally last_;
  std::uint64_t last_sims_ = 0, last_searches_ = 0;
  InferenceStats last_inference_;
  Clock::time_point last_time_ = Clock::now();
  double last_paused_ = 0;
};

}  // namespace boardlab
