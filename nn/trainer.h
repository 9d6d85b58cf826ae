// The learner: one optimizer step per batch on policy cross-entropy, value error and L2.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/config_schema.h"
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

  // The keys of a training config's training section; total_steps is the run's max_steps.
  template <class V>
  void visit(V& v) {
    v("optimizer", optimizer, "adam or sgd (Nesterov momentum)", Choices{"adam", "sgd"});
    v("learning_rate", learning_rate, "initial learning rate", Range::between(1e-7, 10));
    v("lr_schedule", schedule, "constant, cosine (to lr_final_fraction) or step (x0.1 at 50% and 75%)",
      Choices{"constant", "cosine", "step"});
    v("lr_final_fraction", lr_final_fraction, "cosine: final learning rate as a fraction of the initial",
      Range::between(0, 1));
    v("momentum", momentum, "sgd momentum", Range::between(0, 0.999));
    v("weight_decay", weight_decay, "L2 regularisation coefficient", Range::between(0, 1));
    v("value_loss_weight", value_loss_weight, "weight of the value loss against the policy loss",
      Range::between(0, 100));
  }
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
