// The learner: one optimizer step per batch on policy cross-entropy, value error and L2.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "nn/model.h"
#include "nn/train_batch.h"

namespace boardlab {

struct OptimizerConfig {
  std::string optimizer = "adam";  // adam or sgd (with Nesterov momentum)
  double learning_rate = 2e-3;
  std::string schedule = "cosine";  // constant, cosine (to lr_final_fraction × lr over total_steps), step
  double lr_final_fraction = 0.1;
  std::int64_t total_steps = 1000;  // the schedule's horizon
  double momentum = 0.9;            // sgd only
  double weight_decay = 1e-4;       // L2 coefficient
  double value_loss_weight = 1.0;
};

struct TrainLosses {
  double policy = 0;  // cross-entropy against the search policy (legal actions only)
  double value = 0;   // mean squared error over players
  double l2 = 0;      // weight_decay/2 · Σ w² (reported; applied through the optimizer)
  double total = 0;
};

class Trainer {
 public:
  Trainer(Model& model, const OptimizerConfig& config);
  ~Trainer();

  TrainLosses step(const TrainBatch& batch);
  // Losses without an update (eval mode): for tests and held-out measurements.
  TrainLosses evaluate(const TrainBatch& batch) const;

  std::int64_t steps() const { return steps_; }
  void set_steps(std::int64_t steps);  // after a resume
  double learning_rate() const;        // the schedule's value at the current step

  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  Model* model_;
  OptimizerConfig config_;
  std::int64_t steps_ = 0;
  std::unique_ptr<Impl> impl_;
};

}  // namespace boardlab
