// The training run as an object: open and restore, each pass of the loop, evaluations, checkpoints, metrics rows and the end, one method each.
//
// nn/pipeline.h's train() is `TrainingRun(options, me).run()`: start(), advance() while
// running(), finish(). Tests call the steps one at a time. The actors play on their own
// threads from start() to finish(); checkpoint() and evaluate() pause them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "nn/actors.h"
#include "nn/distributed.h"
#include "nn/learner.h"
#include "nn/metrics_file.h"
#include "nn/model.h"
#include "nn/pipeline.h"
#include "nn/replay_buffer.h"
#include "nn/run_evaluator.h"
#include "nn/run_start.h"
#include "nn/self_play_metrics.h"
#include "nn/trainer.h"

namespace boardlab {

class TrainingRun {
 public:
  // Opens the run folder (a new run, or options.resume's latest checkpoint), builds the
  // network, replay, learner, evaluator and actors, and links the other ranks under MPI
  // (`me` is rank 0). Nothing plays yet. A resume it refuses leaves the folder as it was.
  TrainingRun(const TrainOptions& options, RankInfo& me);
  ~TrainingRun();
  TrainingRun(const TrainingRun&) = delete;
  TrainingRun& operator=(const TrainingRun&) = delete;

  // The whole run, from start() to finish().
  TrainSummary run();

  // The actors start playing.
  void start();
  // The loop goes on: below run.max_steps and run.max_minutes (which keeps time for
  // the final evaluation), and no stop requested.
  bool running();
  // One pass of the loop: a training step when the replay ratio allows one (with the
  // publication, evaluation and checkpoint that fall due at it), else a short wait; then a
  // progress line and metrics row when run.log_every_seconds has passed.
  void advance();
  // Evaluates the learner's network now, the actors paused; whether the evaluation was
  // recorded (a row in metrics.csv at this step): not when stopped or out of time.
  bool evaluate();
  // A checkpoint of this moment: network, optimizer, replay, counters and streams.
  void checkpoint();
  // Appends a metrics row for this moment (with `evaluation`'s columns when given).
  MetricsRow write_row(const std::optional<RunEvaluation>& evaluation);
  // Stops the actors; the last checkpoint and the final evaluation unless one ran a few steps ago.
  TrainSummary finish();

  std::int64_t step() const { return step_; }
  const TrainConfig& config() const { return opened_.cfg; }
  const std::string& dir() const { return opened_.dir; }

 private:
  using Clock = std::chrono::steady_clock;
  // The share of run.max_minutes spent, the final evaluation's guessed length included (0 without a limit).
  double time_spent() const;
  double elapsed() const;
  std::int64_t produced() const;
  std::pair<std::int64_t, std::int64_t> totals() const;
  ActorPool& actors() { return *pool_; }
  void build_parts();
  void train_step();
  void log_opening();
  void log_progress();

  const TrainOptions options_;
  RankInfo& me_;
  const Clock::time_point session_start_ = Clock::now();
  OpenedRun opened_;
  const TrainConfig& cfg_;
  RunFolder& folder_;
  std::shared_ptr<const Game> game_;
  RunState state_;
  std::int64_t step_;
  Model model_;
  Trainer trainer_;
  ReplayBuffer replay_;
  std::unique_ptr<OtherRanks> others_;
  std::unique_ptr<Learner> learner_;
  std::unique_ptr<RunEvaluator> evaluator_;
  std::unique_ptr<ActorPool> pool_;
  std::unique_ptr<MetricsFile> metrics_;
  SelfPlayMetrics self_play_metrics_;
  std::int64_t last_checkpoint_ = -1;
  std::pair<std::int64_t, std::int64_t> checkpointed_totals_;
  std::optional<RunEvaluation> last_eval_;
  std::int64_t first_step_ = 0;
  Clock::time_point last_log_ = Clock::now();
};

}  // namespace boardlab
