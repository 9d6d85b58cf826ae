// Drawing batches and stepping the optimizer at the replay ratio.
#include "nn/learner.h"

#include <algorithm>

#include "core/errors.h"

namespace boardlab {

Learner::Learner(Model& model, Trainer& trainer, const ReplayBuffer& replay, const LearnerOptions& options, Rng sampler)
    : model_(&model), trainer_(&trainer), replay_(&replay), options_(options), sampler_(sampler) {
  if (options.batch_size < 1) throw InputError("training: batch_size must be at least 1");
  if (options.samples_per_position <= 0) throw InputError("training: samples_per_position must be positive");
}

void Learner::observe(std::int64_t produced) {
  if (started_) return;
  forgiven_ = std::max(forgiven_, options_.samples_per_position * static_cast<double>(produced) -
                                      static_cast<double>(steps()) * options_.batch_size);
  // The first batch is owed at once; the rest as positions come.
  if (replay_->positions() >= options_.min_positions) {
    forgiven_ -= options_.batch_size;
    started_ = true;
  }
}

double Learner::owed_samples(std::int64_t produced) const {
  return options_.samples_per_position * static_cast<double>(produced) -
         static_cast<double>(steps()) * options_.batch_size - forgiven_;
}

bool Learner::may_step(std::int64_t produced) const {
  return replay_->positions() >= options_.min_positions && owed_samples(produced) >= options_.batch_size;
}

bool Learner::actors_ahead(std::int64_t produced) const {
  return owed_samples(produced) > options_.samples_per_position * static_cast<double>(options_.lead_positions);
}

TrainLosses Learner::step() {
  Model::set_torch_threads(options_.threads);
  replay_->sample(options_.batch_size, sampler_, options_.augment, batch_);
  const TrainLosses losses = trainer_->step(batch_);
  sum_.policy += losses.policy;
  sum_.value += losses.value;
  sum_.l2 += losses.l2;
  sum_.total += losses.total;
  ++summed_;
  return losses;
}

std::shared_ptr<const Model> Learner::snapshot() const { return std::make_shared<const Model>(model_->clone()); }

std::vector<std::string> Learner::metric_columns() {
  return {"policy_loss", "value_loss", "l2", "total_loss", "learning_rate", "samples_per_position"};
}

MetricsRow Learner::take_metrics(std::int64_t produced) {
  MetricsRow row;
  row["learning_rate"] = metric_number(trainer_->learning_rate(), 6);
  // The replay ratio as realised: samples drawn per position self-play searched.
  if (produced > 0)
    row["samples_per_position"] =
        metric_number(static_cast<double>(steps()) * options_.batch_size / static_cast<double>(produced), 2);
  if (summed_ > 0) {
    const double n = summed_;
    row["policy_loss"] = metric_number(sum_.policy / n, 4);
    row["value_loss"] = metric_number(sum_.value / n, 4);
    row["l2"] = metric_number(sum_.l2 / n, 5);
    row["total_loss"] = metric_number(sum_.total / n, 4);
  }
  sum_ = {};
  summed_ = 0;
  return row;
}

}  // namespace boardlab
