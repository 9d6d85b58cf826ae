// The learner: one optimizer step per batch on policy cross-entropy, value error, auxiliary targets and L2.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/config_schema.h"
#include "nn/model.h"
#include "nn/train_batch.h"

namespace boardlab {

struct OptimizerConfig {
  std::string optimizer = "adam";  // adam or sgd (with Nesterov momentum)
  double learning_rate = 2e-3;
  // constant, cosine (to lr_final_fraction × lr at the run's end), step. The run ends at
  // total_steps or when its time is spent (Trainer::set_time_fraction), whichever comes
  // first: a run stopped by its clock at 60% of max_steps would otherwise never anneal.
  std::string schedule = "cosine";
  double lr_final_fraction = 0.1;
  std::int64_t total_steps = 1000;  // the schedule's horizon
  double momentum = 0.9;            // sgd only
  double weight_decay = 1e-4;       // L2 coefficient
  double value_loss_weight = 1.0;
  // λ: the value target is (1 - λ) · the game's result + λ · the search's root value
  // (TrainBatch::root_value), on the network's scale. 0 trains on results alone. Half and
  // half by default: a short run's few thousand results are a thin target for the value
  // (evidence: experiments/results/README.md, "Morabaraba" and "Virus War").
  double value_target_mix = 0.5;
  // Weights of the auxiliary losses, for a network with those heads (NetworkConfig).
  double ownership_loss_weight = 1.0;
  double score_loss_weight = 1.0;

  // The keys of a training config's training section; total_steps is the run's max_steps.
  template <class V>
  void visit(V& v) {
    v("optimizer", optimizer, "adam or sgd (Nesterov momentum)", Choices{"adam", "sgd"});
    v("learning_rate", learning_rate, "initial learning rate", Range::between(1e-7, 10));
    v("lr_schedule", schedule,
      "constant, cosine (to lr_final_fraction) or step (x0.1 at 50% and 75%), over max_steps or max_minutes, whichever ends the run",
      Choices{"constant", "cosine", "step"});
    v("lr_final_fraction", lr_final_fraction, "cosine: final learning rate as a fraction of the initial",
      Range::between(0, 1));
    v("momentum", momentum, "sgd momentum", Range::between(0, 0.999));
    v("weight_decay", weight_decay, "L2 regularisation coefficient", Range::between(0, 1));
    v("value_loss_weight", value_loss_weight, "weight of the value loss against the policy loss",
      Range::between(0, 100));
    v("value_target_mix", value_target_mix,
      "value target: (1 - mix) x the result + mix x the search's root value", Range::between(0, 1));
    v("ownership_loss_weight", ownership_loss_weight, "weight of the ownership loss (network.ownership_head)",
      Range::between(0, 100));
    v("score_loss_weight", score_loss_weight, "weight of the score margin loss (network.score_head)",
      Range::between(0, 100));
  }
};

// How well the network's value for the example's own seat (value slot 0) predicts the
// game's result (TrainBatch::value, unmixed) among the examples of one game phase.
struct ValueCalibration {
  int examples = 0;
  double predicted = 0;  // mean predicted value, on the network's scale [-1, 1]
  double outcome = 0;    // mean result; predicted - outcome is the mean signed error
  double mse = 0;        // mean squared error
};

// The losses of one batch and diagnostics of what the network learns. Policy measures are
// means over the examples whose policy trains (TrainBatch::policy_weight), in nats, over
// legal actions; with none they are 0.
struct TrainLosses {
  double policy = 0;  // cross-entropy against the search policy (legal actions only)
  double value = 0;   // mean squared error over players, against the mixed value target
  double l2 = 0;      // weight_decay/2 · Σ w² (reported; applied through the optimizer)
  double ownership = 0;  // mean squared error over cells, with an ownership head (else 0)
  double score = 0;      // mean squared error of the score margin, with a score head (else 0)
  double total = 0;      // policy + weighted value, ownership and score losses + l2
  // Diagnostics, not part of the loss.
  double policy_kl = 0;              // KL(search policy ‖ network policy) = policy - policy_target_entropy
  double policy_entropy = 0;         // entropy of the network's policy
  double policy_target_entropy = 0;  // entropy of the search policy
  int policy_examples = 0;           // examples whose policy trained
  // By game phase (TrainBatch::phase: opening, middle, end); all zero when the batch has no phases.
  std::array<ValueCalibration, kGamePhases> value_by_phase{};
};

// Several batches' losses as one: plain means, the policy measures weighted by the examples
// whose policy trained, the value calibration by each phase's examples (none: all zero).
TrainLosses mean_losses(const std::vector<TrainLosses>& parts);

class Trainer {
 public:
  Trainer(Model& model, const OptimizerConfig& config);
  ~Trainer();

  // Throws InputError without changing the model when the loss or a gradient is not finite
  // (the run has diverged).
  TrainLosses step(const TrainBatch& batch);
  // One step on the mean of the batches' losses: their gradients averaged, as `parts.size()`
  // learners each with one of the batches would take it together (set_gradient_average).
  // Batch norms normalise each batch by its own statistics, so this is not one step on the
  // batches joined into one. The losses reported are the batches' means.
  TrainLosses step(const std::vector<const TrainBatch*>& parts);
  // Data-parallel training (nn/distributed.h, distributed.learners): called in each step
  // with this learner's gradients, then its batch norms' running statistics, as one vector
  // of floats in the network's parameter order; it must leave there the mean over every
  // learner, which all call it at the same step. The learners then take identical steps and
  // keep identical networks. A non-finite value anywhere reaches every learner through the
  // mean, so all refuse the step together.
  using GradientAverage = std::function<void(std::vector<float>&)>;
  void set_gradient_average(GradientAverage average) { average_ = std::move(average); }
  // Losses without an update (eval mode): for tests and held-out measurements.
  TrainLosses evaluate(const TrainBatch& batch) const;

  std::int64_t steps() const { return steps_; }
  void set_steps(std::int64_t steps);  // after a resume
  double learning_rate() const;        // the schedule's value at the current step
  // The share of the run's time limit spent (0 without one): the schedule runs on the larger
  // of this and steps / total_steps.
  void set_time_fraction(double fraction) { time_fraction_ = fraction; }

  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  [[noreturn]] void throw_diverged(const std::string& what, const TrainLosses& losses) const;

  Model* model_;
  OptimizerConfig config_;
  std::int64_t steps_ = 0;
  double time_fraction_ = 0;
  GradientAverage average_;
  std::vector<float> reduced_;  // the vector average_ works on, kept between steps
  std::unique_ptr<Impl> impl_;
};

}  // namespace boardlab
