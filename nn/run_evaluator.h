// A run's evaluations: the current network against fixed baselines and the previous evaluation's network.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "mcts/search_config.h"
#include "nn/metrics_file.h"
#include "nn/model.h"
#include "nn/run_folder.h"

namespace boardlab {

struct RunEvaluatorOptions {
  std::vector<std::string> opponents;  // player specs: random, uct:N, mcts(...), agent:PATH (core/player_spec.h)
  int games = 20;                      // per opponent
  bool previous = true;                // also play the previous evaluation's network
  SearchConfig search;                 // the network's search in these games
  std::uint64_t seed = 1;
};

struct RunEvaluation {
  std::int64_t step = 0;
  std::string table;
  double elo = 0, low = 0, high = 0;  // the network's, random (or the first opponent) = 0
  std::vector<double> scores;         // vs each opponent, then vs previous (NaN when absent)
  double draw_rate = 0;               // of the network's games
  double pass_rate = 0;               // the network's passes per turn it played (NaN: the game has no pass)
  double seconds = 0;
};

class RunEvaluator {
 public:
  RunEvaluator(const Game& game, const RunEvaluatorOptions& options, RunFolder& run);

  // Plays `network` (the learner's network at `step`) against every opponent, writes
  // evaluation/step_N.txt and .json, and remembers it as the next evaluation's "previous".
  // A stop request (core/stop.h) or `max_seconds` (0: no limit) ending the games early
  // leaves no evaluation: none is returned, written or remembered, and the log says so.
  std::optional<RunEvaluation> evaluate(std::shared_ptr<const Model> network, std::int64_t step,
                                        double max_seconds = 0);

  std::vector<std::string> metric_columns() const;
  MetricsRow metrics(const RunEvaluation& evaluation) const;

 private:
  const Game* game_;
  RunEvaluatorOptions options_;
  RunFolder* run_;
  std::shared_ptr<const Model> previous_;
  std::int64_t previous_step_ = 0;
};

}  // namespace boardlab
