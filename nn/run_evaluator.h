// A run's evaluations: the current network against fixed baselines and the previous evaluation's network.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/ladder.h"
#include "core/game.h"
#include "mcts/search_config.h"
#include "nn/metrics_file.h"
#include "nn/model.h"
#include "nn/run_folder.h"

namespace boardlab {

struct RunEvaluatorOptions {
  std::vector<std::string> opponents;  // player specs: random, uct:N, mcts(...), agent:PATH (arena/player_spec.h)
  int games = 20;                      // per opponent
  bool previous = true;                // also play the previous evaluation's network
  // Rungs of the game's stored ladder (arena/ladder.h) played besides the opponents, chosen
  // around the network's last ladder rating, so that its rating keeps rising past `random`.
  int ladder_rungs = 1;
  SearchConfig search;                 // the network's search in these games
  std::uint64_t seed = 1;
};

struct RunEvaluation {
  std::int64_t step = 0;
  std::string table;
  double elo = 0, low = 0, high = 0;  // the network's, random (or the first opponent) = 0
  // The network's rating on the game's ladder, its rungs held at their stored ratings (NaN:
  // the game has no ladder), and the rungs that were played for it.
  double ladder_elo = std::nan(""), ladder_low = std::nan(""), ladder_high = std::nan("");
  std::vector<std::string> ladder_opponents;
  // vs each distinct opponent (one listed in several seats: its games pooled), then vs previous (NaN when absent)
  std::vector<double> scores;
  double draw_rate = 0;               // of the network's games
  double pass_rate = 0;               // the network's passes per turn it played (NaN: the game has no pass)
  double seconds = 0;
};

class RunEvaluator {
 public:
  // Reads the game's stored ladder, if it has one: a malformed ladder file throws InputError
  // here, before the run starts.
  RunEvaluator(const Game& game, const RunEvaluatorOptions& options, RunFolder& run);

  // Plays `network` (the learner's network at `step`) against every opponent, writes
  // evaluation/step_N.txt and .json, and remembers it as the next evaluation's "previous".
  // A stop request (core/stop.h) or `max_seconds` (0: no limit) ending the games early
  // leaves no evaluation: none is returned, written or remembered, and the log says so.
  std::optional<RunEvaluation> evaluate(std::shared_ptr<const Model> network, std::int64_t step,
                                        double max_seconds = 0);

  // A resumed run's evaluations go on around the network's last ladder rating, not from the
  // weakest rungs again.
  void resume_at_ladder_elo(double elo) { ladder_elo_ = elo; }

  std::vector<std::string> metric_columns() const;
  MetricsRow metrics(const RunEvaluation& evaluation) const;

 private:
  const Game* game_;
  RunEvaluatorOptions options_;
  RunFolder* run_;
  // options_.opponents without repeats, in order: the table of a game of more than two lists
  // one opponent in several seats, and its metrics column is one.
  std::vector<std::string> scored_;
  // The opponents of the next evaluation: options_.opponents and the ladder's rungs around
  // the last ladder rating.
  std::vector<std::string> opponents() const;
  void rate_on_ladder(const ArenaReport& report, RunEvaluation& out);

  std::shared_ptr<const Model> previous_;
  std::int64_t previous_step_ = 0;
  std::optional<Ladder> ladder_;
  bool said_no_ladder_ = false;
  double ladder_elo_ = -std::numeric_limits<double>::infinity();  // none yet: start from the weakest rungs
};

}  // namespace boardlab
