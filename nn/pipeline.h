// The training run: self-play, replay, training, checkpoints and evaluation, in one process, in a run folder.
//
// The run is an object (nn/training_run.h), one method per step; where a session starts
// (the folder, its config, the checkpoint resumed) is nn/run_start.h. The parts, each in
// its own file: the run folder (nn/run_folder.h: paths, logs,
// checkpoints and their retention), metrics.csv (nn/metrics_file.h), the learner
// (nn/learner.h: sampling, steps, the replay ratio), the actors (nn/actors.h: self-play
// threads on a published network) and the evaluations (nn/run_evaluator.h).
//
// Self-play and training run at the same time: the actors play on their own threads with
// a frozen snapshot of the network, which the learner (this thread) replaces every
// training.publish_every_steps steps; the replay ratio (training.samples_per_position)
// holds whichever side runs ahead. Checkpoints and evaluations pause the actors.
//
// A stop request (core/stop.h: Ctrl-C or SIGTERM under a StopOnSignals guard) ends the run
// at its next safe point with a checkpoint; an evaluation it interrupts is not recorded.
#pragma once

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
};

struct TrainSummary {
  std::string run_dir;
  std::string latest_checkpoint;
  std::int64_t steps = 0;
  std::int64_t games = 0;
  std::int64_t positions = 0;
  double seconds = 0;
  std::string final_evaluation;  // the last evaluation's table
  bool stopped = false;          // a stop request ended the run early
  int rank = 0;                  // under MPI, this process's rank: an actor rank's summary counts its own games only
};

// Under mpirun or srun (a build with BOARDLAB_MPI), each rank calls this with the same
// options: rank 0 trains as above with the other ranks as its actors (nn/distributed.h).
TrainSummary train(const TrainOptions& options);

}  // namespace boardlab
