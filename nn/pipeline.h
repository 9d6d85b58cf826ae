// The training run: self-play, replay, training, checkpoints and evaluation, in one process, in a run folder.
//
// A run folder holds:
//   config.yaml            the config as used (every key)
//   checkpoints/           step_NNNNNN.pt and latest.pt (a hard link to the newest)
//   replay.bin             the replay window, saved with every checkpoint
//   metrics.csv            one row per training cycle: losses, throughput, Elo
//   games/selfplay.txt     every self-play game: "[returns] record" in the game's notation, " (truncated)" after a capped one
//   evaluation/            each evaluation's table (.txt) and results (.json)
//   log.txt                the progress lines
// The phases alternate on the same cores: self-play threads fill the replay buffer while
// the learner waits, then the learner trains while they wait. On two cores this beats
// running both at once (LibTorch threads collapse when they compete).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace boardlab {

struct TrainOptions {
  std::string config_path;             // ignored when resuming (the run's config.yaml is used)
  std::vector<std::string> overrides;  // "section.key=value", applied on top
  std::string out_dir;                 // the run folder; empty: runs/<game>-<date>-<time>
  bool resume = false;                 // continue the run in out_dir from its latest checkpoint
  std::function<void(const std::string&)> log;  // progress lines; default: standard error
  const std::atomic<bool>* stop = nullptr;       // when set, the run stops at the next safe point
};

struct TrainSummary {
  std::string run_dir;
  std::string latest_checkpoint;
  std::int64_t steps = 0;
  std::int64_t games = 0;
  std::int64_t positions = 0;
  double seconds = 0;
  std::string final_evaluation;  // the last evaluation's table
};

TrainSummary train(const TrainOptions& options);

}  // namespace boardlab
