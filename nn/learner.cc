// Drawing batches and stepping the optimizer at the replay ratio.
#include "nn/learner.h"

#include <algorithm>

#include "core/errors.h"

namespace boardlab {

Learner::Learner(Model& model, Trainer& trainer, const ReplayBuffer& replay, const LearnerOptions& options, Rng sampler)
    : model_(&model), trainer_(&trainer), replay_(&replay), options_(options), sampler_(sampler) {
  if (options.batch_size < 1) throw InputError("training: batch_size must be at least 1");
  if (options.samples_per_position <= 0) throw InputError("training: samples_per_position must be positive");
  if (options.learners < 1) throw InputError("distributed: learners must be at least 1");
}

void Learner::observe(std::int64_t produced) {
  if (started_) return;
  forgiven_ = std::max(forgiven_, options_.samples_per_position * static_cast<double>(produced) -
                                      static_cast<double>(steps()) * samples_per_step());
  // The first batch is owed at once; the rest as positions come.
  if (replay_->positions() >= options_.min_positions) {
    forgiven_ -= samples_per_step();
    started_ = true;
  }
}

double Learner::owed_samples(std::int64_t produced) const {
  return options_.samples_per_position * static_cast<double>(produced) -
         static_cast<double>(steps()) * samples_per_step() - forgiven_;
}

bool Learner::may_step(std::int64_t produced) const {
  return replay_->positions() >= options_.min_positions && owed_samples(produced) >= samples_per_step();
}

bool Learner::actors_ahead(std::int64_t produced) const {
  // Never below one step's samples: actors held while the learner owes less than a step
  // would wait for each other forever (several learners' step, or a batch larger than the
  // lead, is more than lead_positions at the ratio).
  return owed_samples(produced) >
         std::max(options_.samples_per_position * static_cast<double>(options_.lead_positions), samples_per_step());
}

TrainLosses Learner::step() {
  Model::set_torch_threads(options_.threads);
  replay_->sample(options_.batch_size, sampler_, options_.augment, batch_, model_->config().standings_baseline);
  const TrainLosses losses = trainer_->step(batch_);
  since_row_.push_back(losses);
  return losses;
}

std::shared_ptr<const Model> Learner::snapshot() const { return std::make_shared<const Model>(model_->clone()); }

namespace {
constexpr const char* kPhaseNames[kGamePhases] = {"opening", "middle", "end"};
}  // namespace

std::vector<std::string> Learner::metric_columns() {
  std::vector<std::string> columns = {"policy_loss", "value_loss", "l2", "total_loss", "ownership_loss", "score_loss",
                                      "policy_kl", "policy_entropy", "policy_target_entropy", "learning_rate",
                                      "samples_per_position"};
  // Value calibration by game phase: the mean predicted value for the mover, the mean
  // result, and the squared error (the value loss, split by phase and unmixed).
  for (const char* phase : kPhaseNames)
    for (const char* what : {"value_predicted_", "value_outcome_", "value_mse_"}) columns.push_back(what + std::string(phase));
  return columns;
}

MetricsRow Learner::take_metrics(std::int64_t produced) {
  MetricsRow row;
  row["learning_rate"] = metric_number(trainer_->learning_rate(), 6);
  // The replay ratio as realised: samples drawn per position self-play searched.
  if (produced > 0)
    row["samples_per_position"] =
        metric_number(static_cast<double>(steps()) * samples_per_step() / static_cast<double>(produced), 2);
  if (since_row_.empty()) return row;
  const TrainLosses mean = mean_losses(since_row_);
  since_row_.clear();
  row["policy_loss"] = metric_number(mean.policy, 4);
  row["value_loss"] = metric_number(mean.value, 4);
  row["l2"] = metric_number(mean.l2, 5);
  row["total_loss"] = metric_number(mean.total, 4);
  row["ownership_loss"] = metric_number(mean.ownership, 4);
  row["score_loss"] = metric_number(mean.score, 4);
  if (mean.policy_examples > 0) {
    row["policy_kl"] = metric_number(mean.policy_kl, 4);
    row["policy_entropy"] = metric_number(mean.policy_entropy, 4);
    row["policy_target_entropy"] = metric_number(mean.policy_target_entropy, 4);
  }
  for (int k = 0; k < kGamePhases; ++k) {
    const ValueCalibration& c = mean.value_by_phase[static_cast<std::size_t>(k)];
    if (c.examples == 0) continue;
    const std::string phase = kPhaseNames[k];
    row["value_predicted_" + phase] = metric_number(c.predicted, 3);
    row["value_outcome_" + phase] = metric_number(c.outcome, 3);
    row["value_mse_" + phase] = metric_number(c.mse, 4);
  }
  return row;
}

}  // namespace boardlab
