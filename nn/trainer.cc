// Loss, optimizer and learning-rate schedule.
#include "nn/trainer.h"

#include <cmath>

#include "core/errors.h"
#include "nn/model_impl.h"
#include "nn/trainer_impl.h"

namespace boardlab {
namespace {

struct Tensors {
  torch::Tensor obs, policy, mask, value;
};

Tensors to_tensors(const TrainBatch& b, const Model& model) {
  const ObservationShape s = model.input_shape();
  const std::int64_t n = b.size;
  auto blob = [](const std::vector<float>& v, std::vector<std::int64_t> shape) {
    return torch::from_blob(const_cast<float*>(v.data()), shape);
  };
  if (b.obs.size() != static_cast<std::size_t>(n * s.size()) ||
      b.policy.size() != static_cast<std::size_t>(n * model.num_actions()) || b.mask.size() != b.policy.size() ||
      b.value.size() != static_cast<std::size_t>(n * model.num_players()))
    throw InputError("training batch does not match the network's shapes");
  return {blob(b.obs, {n, s.channels, s.height, s.width}), blob(b.policy, {n, model.num_actions()}),
          blob(b.mask, {n, model.num_actions()}), blob(b.value, {n, model.num_players()})};
}

}  // namespace

Trainer::Trainer(Model& model, const OptimizerConfig& config)
    : model_(&model), config_(config), impl_(std::make_unique<Impl>()) {
  if (config.learning_rate <= 0) throw InputError("training: learning_rate must be positive");
  auto params = model.impl().net->parameters();
  if (config.optimizer == "adam") {
    impl_->optimizer = std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(config.learning_rate).weight_decay(config.weight_decay));
  } else if (config.optimizer == "sgd") {
    impl_->optimizer = std::make_unique<torch::optim::SGD>(params, torch::optim::SGDOptions(config.learning_rate)
                                                                       .momentum(config.momentum)
                                                                       .nesterov(config.momentum > 0)
                                                                       .weight_decay(config.weight_decay));
  } else {
    throw InputError("training: optimizer must be adam or sgd, got '" + config.optimizer + "'");
  }
}

Trainer::~Trainer() = default;

void Trainer::set_steps(std::int64_t steps) { steps_ = steps; }

double Trainer::learning_rate() const {
  const double base = config_.learning_rate;
  const double progress =
      config_.total_steps > 0 ? std::min(1.0, static_cast<double>(steps_) / static_cast<double>(config_.total_steps)) : 0;
  if (config_.schedule == "cosine")
    return base * (config_.lr_final_fraction + (1 - config_.lr_final_fraction) * 0.5 * (1 + std::cos(M_PI * progress)));
  if (config_.schedule == "step") {
    // ×0.1 at half and again at three quarters of the horizon.
    return base * (progress >= 0.75 ? 0.01 : progress >= 0.5 ? 0.1 : 1.0);
  }
  return base;
}

static TrainLosses compute(const Model& model, const OptimizerConfig& config, const Tensors& t, torch::Tensor* loss_out) {
  auto [logits, value] = model.impl().net->forward(t.obs);
  // Illegal actions get no probability: mask them out of the softmax.
  const auto masked = logits.masked_fill(t.mask <= 0, -1e9);
  const auto policy_loss = -(t.policy * torch::log_softmax(masked, 1)).sum(1).mean();
  const auto value_loss = (value - t.value).pow(2).mean();
  const auto loss = policy_loss + config.value_loss_weight * value_loss;
  double l2 = 0;
  {
    torch::NoGradGuard no_grad;
    for (const auto& p : model.impl().net->parameters()) l2 += p.pow(2).sum().item<double>();
  }
  TrainLosses out;
  out.policy = policy_loss.item<double>();
  out.value = value_loss.item<double>();
  out.l2 = 0.5 * config.weight_decay * l2;
  out.total = out.policy + config.value_loss_weight * out.value + out.l2;
  if (loss_out) *loss_out = loss;
  return out;
}

TrainLosses Trainer::step(const TrainBatch& batch) {
  const Tensors t = to_tensors(batch, *model_);
  auto& net = model_->impl().net;
  net->train();
  for (auto& group : impl_->optimizer->param_groups()) group.options().set_lr(learning_rate());
  impl_->optimizer->zero_grad();
  torch::Tensor loss;
  TrainLosses out;
  try {
    out = compute(*model_, config_, t, &loss);
    loss.backward();
    impl_->optimizer->step();
  } catch (...) {
    net->eval();
    throw;
  }
  net->eval();
  ++steps_;
  return out;
}

TrainLosses Trainer::evaluate(const TrainBatch& batch) const {
  const Tensors t = to_tensors(batch, *model_);
  torch::NoGradGuard no_grad;
  return compute(*model_, config_, t, nullptr);
}

}  // namespace boardlab
