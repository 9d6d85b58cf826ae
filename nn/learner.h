// The learner: optimizer steps on batches from the replay buffer, held to a fixed replay ratio.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "nn/metrics_file.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn/trainer.h"

namespace boardlab {

// The config's settings the learner reads (TrainConfig::learner_options, where their
// defaults live); every field is set there.
struct LearnerOptions {
  int batch_size = 0;
  // Samples drawn per position self-play added: the replay ratio. The learner never gets
  // ahead of it; the actors are held when they get further ahead than `lead_positions`.
  double samples_per_position = 0;
  std::int64_t min_positions = 0;  // held before the first step
  std::int64_t lead_positions = 0;
  bool augment = false;
  int threads = 0;  // LibTorch threads of the learner's thread
  // Learners that take each step together (distributed.learners), each on a batch of its
  // own: a step draws batch_size × learners samples, which the replay ratio counts.
  int learners = 0;
};

class Learner {
 public:
  // Trains `model` in place; `trainer` carries its optimizer state (a resumed run's).
  Learner(Model& model, Trainer& trainer, const ReplayBuffer& replay, const LearnerOptions& options, Rng sampler);

  // `produced` counts the positions self-play has searched in the whole run, finished
  // games or not: games end in bursts (a worker's games start together), and a ratio over
  // finished games alone would hold the actors and then starve the learner in turn.
  //
  // Called before each decision with the positions produced so far. Training owes
  // samples only for positions produced after the buffer first held min_positions in this
  // session: the fill and a resumed run start with no debt, so the learner never holds
  // the actors back for long (both cores stay busy).
  void observe(std::int64_t produced);
  // Samples the ratio allows beyond those drawn so far (negative: the learner is ahead,
  // which a changed ratio on resume can cause).
  double owed_samples(std::int64_t produced) const;
  // Whether a step may run now: enough positions held and a batch owed.
  bool may_step(std::int64_t produced) const;
  // Whether self-play is so far ahead that it should wait for the learner.
  bool actors_ahead(std::int64_t produced) const;

  TrainLosses step();
  std::int64_t steps() const { return trainer_->steps(); }
  // A frozen copy of the network for self-play and evaluation, never trained.
  std::shared_ptr<const Model> snapshot() const;

  // Means of the steps since the last call (none: no step), as metrics.csv columns.
  static std::vector<std::string> metric_columns();
  MetricsRow take_metrics(std::int64_t produced);

  Rng& sampler() { return sampler_; }
  double samples_per_step() const { return static_cast<double>(options_.batch_size) * options_.learners; }
  const Trainer& trainer() const { return *trainer_; }

 private:
  Model* model_;
  Trainer* trainer_;
  const ReplayBuffer* replay_;
  LearnerOptions options_;
  Rng sampler_;
  TrainBatch batch_;
  double forgiven_ = 0;  // samples the ratio would owe for the fill, not trained
  bool started_ = false;
  // The losses of the steps since the last metrics row, which averages them (mean_losses).
  std::vector<TrainLosses> since_row_;
};

}  // namespace boardlab
