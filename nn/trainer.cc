// Loss, diagnostics, optimizer and learning-rate schedule.
#include "nn/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/errors.h"
#include "nn/denormals.h"
#include "nn/model_impl.h"
#include "nn/trainer_impl.h"

namespace boardlab {
namespace {

struct Tensors {
  torch::Tensor obs, policy, mask, value;
  torch::Tensor policy_weight;  // n
  torch::Tensor value_target;   // n × P, the results mixed with the root values
  torch::Tensor ownership;      // n × H·W, with an ownership head
  torch::Tensor score;          // n, with a score head
};

Tensors to_tensors(const TrainBatch& b, const Model& model, double mix) {
  const ObservationShape s = model.input_shape();
  const std::int64_t n = b.size;
  // The batch is CPU memory; on a GPU each tensor is copied to the model's device (on the
  // CPU, .to() returns the tensor itself: no copy).
  const torch::Device device = model.impl().device;
  auto blob = [&device](const std::vector<float>& v, std::vector<std::int64_t> shape) {
    return torch::from_blob(const_cast<float*>(v.data()), shape).to(device);
  };
  if (b.obs.size() != static_cast<std::size_t>(n * s.size()) ||
      b.policy.size() != static_cast<std::size_t>(n * model.num_actions()) || b.mask.size() != b.policy.size() ||
      b.value.size() != static_cast<std::size_t>(n * model.num_players()))
    throw InputError("training batch does not match the network's shapes");
  if (!b.policy_weight.empty() && b.policy_weight.size() != static_cast<std::size_t>(n))
    throw InputError("training batch has " + std::to_string(b.policy_weight.size()) + " policy weights for " +
                     std::to_string(n) + " examples");
  if (!b.root_value.empty() && b.root_value.size() != b.value.size())
    throw InputError("training batch has root values of another shape than its values");
  if (!b.phase.empty() && b.phase.size() != static_cast<std::size_t>(n))
    throw InputError("training batch has " + std::to_string(b.phase.size()) + " phases for " + std::to_string(n) +
                     " examples");
  Tensors t{blob(b.obs, {n, s.channels, s.height, s.width}), blob(b.policy, {n, model.num_actions()}),
            blob(b.mask, {n, model.num_actions()}), blob(b.value, {n, model.num_players()}), {}, {}, {}, {}};
  t.policy_weight = b.policy_weight.empty() ? torch::ones({n}, torch::TensorOptions().device(device))
                                            : blob(b.policy_weight, {n});
  t.value_target = t.value;
  if (mix > 0) {
    if (b.root_value.empty()) throw InputError("training: value_target_mix needs root values, and the batch has none");
    t.value_target = (1 - mix) * t.value + mix * blob(b.root_value, {n, model.num_players()});
  }
  if (model.config().ownership_head) {
    if (b.ownership.size() != static_cast<std::size_t>(n * s.cells()))
      throw InputError("training: the network has an ownership head, and the batch has no ownership targets of its shape");
    t.ownership = blob(b.ownership, {n, s.cells()});
  }
  if (model.config().score_head) {
    if (b.score.size() != static_cast<std::size_t>(n))
      throw InputError("training: the network has a score head, and the batch has no score targets");
    t.score = blob(b.score, {n});
  }
  return t;
}

// Entropies, KL and value calibration: measured, never trained.
void diagnose(const TrainBatch& b, const Tensors& t, const torch::Tensor& log_p, const torch::Tensor& cross_entropy,
              const torch::Tensor& value, TrainLosses& out) {
  torch::NoGradGuard no_grad;
  const auto w = t.policy_weight;
  const double examples = w.sum().item<double>();
  out.policy_examples = static_cast<int>(std::lround(examples));
  if (examples > 0) {
    // 0 · log 0 counts as 0: illegal actions and actions the search never chose.
    const auto target_entropy = -torch::where(t.policy > 0, t.policy * torch::log(t.policy), torch::zeros_like(t.policy)).sum(1);
    const auto p = log_p.exp();
    const auto entropy = -torch::where(t.mask > 0, p * log_p, torch::zeros_like(p)).sum(1);
    out.policy_target_entropy = (w * target_entropy).sum().item<double>() / examples;
    out.policy_entropy = (w * entropy).sum().item<double>() / examples;
    out.policy_kl = (w * (cross_entropy - target_entropy)).sum().item<double>() / examples;
  }
  if (b.phase.empty()) return;
  const auto predicted = value.select(1, 0).to(torch::kCPU).contiguous();
  const float* v = predicted.data_ptr<float>();
  const std::size_t players = b.value.size() / static_cast<std::size_t>(b.size);
  for (int i = 0; i < b.size; ++i) {
    if (b.phase[i] >= kGamePhases) throw InputError("training batch has a phase beyond the last (" + std::to_string(b.phase[i]) + ")");
    ValueCalibration& c = out.value_by_phase[b.phase[i]];
    const double outcome = b.value[static_cast<std::size_t>(i) * players];
    ++c.examples;
    c.predicted += v[i];
    c.outcome += outcome;
    c.mse += (v[i] - outcome) * (v[i] - outcome);
  }
  for (ValueCalibration& c : out.value_by_phase) {
    if (c.examples == 0) continue;
    c.predicted /= c.examples;
    c.outcome /= c.examples;
    c.mse /= c.examples;
  }
}

}  // namespace

Trainer::Trainer(Model& model, const OptimizerConfig& config)
    : model_(&model), config_(config), impl_(std::make_unique<Impl>()) {
  if (config.learning_rate <= 0) throw InputError("training: learning_rate must be positive");
  if (!(config.value_target_mix >= 0 && config.value_target_mix <= 1))
    throw InputError("training: value_target_mix must lie in [0, 1], got " + std::to_string(config.value_target_mix));
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
  const double by_steps =
      config_.total_steps > 0 ? static_cast<double>(steps_) / static_cast<double>(config_.total_steps) : 0;
  const double progress = std::clamp(std::max(by_steps, time_fraction_), 0.0, 1.0);
  if (config_.schedule == "cosine")
    return base * (config_.lr_final_fraction + (1 - config_.lr_final_fraction) * 0.5 * (1 + std::cos(M_PI * progress)));
  if (config_.schedule == "step") {
    // ×0.1 at half and again at three quarters of the horizon.
    return base * (progress >= 0.75 ? 0.01 : progress >= 0.5 ? 0.1 : 1.0);
  }
  return base;
}

static TrainLosses compute(const Model& model, const OptimizerConfig& config, const TrainBatch& batch, const Tensors& t,
                           torch::Tensor* loss_out) {
  const NetworkOutputs outputs = model.impl().net->forward_all(t.obs);
  const torch::Tensor& logits = outputs.logits;
  const torch::Tensor& value = outputs.value;
  // Illegal actions get no probability: mask them out of the softmax.
  const auto masked = logits.masked_fill(t.mask <= 0, -1e9);
  const auto log_p = torch::log_softmax(masked, 1);
  // A weighted mean over examples: a fast search's example (weight 0) adds no policy gradient.
  const auto cross_entropy = -(t.policy * log_p).sum(1);
  const auto policy_loss = (t.policy_weight * cross_entropy).sum() / t.policy_weight.sum().clamp_min(1e-12);
  const auto value_loss = (value - t.value_target).pow(2).mean();
  auto loss = policy_loss + config.value_loss_weight * value_loss;
  TrainLosses out;
  if (outputs.ownership.defined()) {
    const auto ownership_loss = (outputs.ownership - t.ownership).pow(2).mean();
    loss = loss + config.ownership_loss_weight * ownership_loss;
    out.ownership = ownership_loss.item<double>();
  }
  if (outputs.score.defined()) {
    const auto score_loss = (outputs.score - t.score).pow(2).mean();
    loss = loss + config.score_loss_weight * score_loss;
    out.score = score_loss.item<double>();
  }
  double l2 = 0;
  {
    torch::NoGradGuard no_grad;
    for (const auto& p : model.impl().net->parameters()) l2 += p.pow(2).sum().item<double>();
  }
  out.policy = policy_loss.item<double>();
  out.value = value_loss.item<double>();
  out.l2 = 0.5 * config.weight_decay * l2;
  out.total = out.policy + config.value_loss_weight * out.value + config.ownership_loss_weight * out.ownership +
              config.score_loss_weight * out.score + out.l2;
  diagnose(batch, t, log_p, cross_entropy, value, out);
  if (loss_out) *loss_out = loss;
  return out;
}

void Trainer::throw_diverged(const std::string& what, const TrainLosses& losses) const {
  char text[160];
  std::snprintf(text, sizeof text, " (policy %.4g, value %.4g, total %.4g)", losses.policy, losses.value, losses.total);
  throw InputError("training diverged at step " + std::to_string(steps_ + 1) + ": " + what + " is not finite" + text +
                   "; the step was not taken, so the network and its checkpoints keep their last good weights " +
                   "(a lower training.learning_rate may help)");
}

namespace {


// The floating-point buffers: the batch norms' running statistics (not their step counters).
std::vector<torch::Tensor> float_buffers(const ResNet& net) {
  std::vector<torch::Tensor> out;
  for (const auto& b : net->buffers())
    if (b.is_floating_point()) out.push_back(b);
  return out;
}

// Replaces every gradient (an unused head's by zeros) and running statistic by the mean
// that `average` computes across the learners.
void average_across_learners(const ResNet& net, const Trainer::GradientAverage& average, std::vector<float>& flat) {
  torch::NoGradGuard no_grad;
  const auto params = net->parameters();
  const auto buffers = float_buffers(net);
  std::size_t size = 0;
  for (const auto& p : params) size += static_cast<std::size_t>(p.numel());
  for (const auto& b : buffers) size += static_cast<std::size_t>(b.numel());
  flat.resize(size);
  std::size_t at = 0;
  auto gather = [&](const torch::Tensor& t) {
    const torch::Tensor c = t.to(torch::kCPU, torch::kFloat).contiguous();  // MPI sends host memory
    std::copy_n(c.data_ptr<float>(), c.numel(), flat.data() + at);
    at += static_cast<std::size_t>(c.numel());
  };
  for (auto& p : params) {
    if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    gather(p.grad());
  }
  for (const auto& b : buffers) gather(b);
  average(flat);
  if (flat.size() != size) throw std::logic_error("gradient average changed the vector's size");
  at = 0;
  auto scatter = [&](torch::Tensor t) {
    t.copy_(torch::from_blob(flat.data() + at, t.sizes()).to(t.device(), t.dtype()));
    at += static_cast<std::size_t>(t.numel());
  };
  for (auto& p : params) scatter(p.grad());
  for (const auto& b : buffers) scatter(b);
}

}  // namespace

TrainLosses mean_losses(const std::vector<TrainLosses>& parts) {
  TrainLosses out;
  const double n = static_cast<double>(parts.size());
  for (const TrainLosses& p : parts) {
    out.policy += p.policy / n;
    out.value += p.value / n;
    out.l2 += p.l2 / n;
    out.ownership += p.ownership / n;
    out.score += p.score / n;
    out.total += p.total / n;
    out.policy_kl += p.policy_examples * p.policy_kl;
    out.policy_entropy += p.policy_examples * p.policy_entropy;
    out.policy_target_entropy += p.policy_examples * p.policy_target_entropy;
    out.policy_examples += p.policy_examples;
    for (std::size_t k = 0; k < out.value_by_phase.size(); ++k) {
      const ValueCalibration& c = p.value_by_phase[k];
      ValueCalibration& total = out.value_by_phase[k];
      total.examples += c.examples;
      total.predicted += c.examples * c.predicted;
      total.outcome += c.examples * c.outcome;
      total.mse += c.examples * c.mse;
    }
  }
  if (out.policy_examples > 0) {
    out.policy_kl /= out.policy_examples;
    out.policy_entropy /= out.policy_examples;
    out.policy_target_entropy /= out.policy_examples;
  }
  for (ValueCalibration& c : out.value_by_phase) {
    if (c.examples == 0) continue;
    c.predicted /= c.examples;
    c.outcome /= c.examples;
    c.mse /= c.examples;
  }
  return out;
}

TrainLosses Trainer::step(const TrainBatch& batch) { return step(std::vector<const TrainBatch*>{&batch}); }

TrainLosses Trainer::step(const std::vector<const TrainBatch*>& parts) {
  if (parts.empty()) throw std::logic_error("Trainer::step: no batch");
  const FlushDenormals flush;  // the optimizer's updates too: a weight that would turn denormal becomes zero
  std::vector<Tensors> tensors;
  for (const TrainBatch* batch : parts) tensors.push_back(to_tensors(*batch, *model_, config_.value_target_mix));
  auto& net = model_->impl().net;
  net->train();
  for (auto& group : impl_->optimizer->param_groups()) group.options().set_lr(learning_rate());
  impl_->optimizer->zero_grad();
  TrainLosses out;
  // The forward pass in training mode moves the batch norms' running statistics: kept to
  // be put back if the step is refused (a few numbers a channel).
  std::vector<torch::Tensor> statistics;
  for (const auto& b : net->buffers()) statistics.push_back(b.clone());
  auto put_back_statistics = [&] {
    torch::NoGradGuard no_grad;
    const auto buffers = net->buffers();
    for (std::size_t i = 0; i < buffers.size(); ++i) buffers[i].copy_(statistics[i]);
  };
  auto refuse = [&](const std::string& what) {
    put_back_statistics();
    throw_diverged(what, out);
  };
  try {
    std::vector<TrainLosses> losses;
    // Each batch moves the running statistics from where the step began, and the step
    // keeps their mean: as learners that each saw one batch and averaged.
    std::vector<torch::Tensor> statistics_sum;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      torch::Tensor loss;
      if (i > 0) put_back_statistics();
      losses.push_back(compute(*model_, config_, *parts[i], tensors[i], &loss));
      if (parts.size() > 1) {
        torch::NoGradGuard no_grad;
        const auto buffers = float_buffers(net);
        if (statistics_sum.empty())
          for (const auto& b : buffers) statistics_sum.push_back(b.clone());
        else
          for (std::size_t j = 0; j < buffers.size(); ++j) statistics_sum[j] += buffers[j];
      }
      // A step on a non-finite loss or gradient would put NaN into every weight, and every
      // checkpoint after it; refused before the update, the model keeps its last good
      // weights. With other learners the refusal waits for the average, which carries
      // the NaN to them: a learner that left alone would leave them waiting for it.
      if (!std::isfinite(losses.back().total) && !average_) {
        out = losses.back();
        refuse("the loss");
      }
      (parts.size() == 1 ? loss : loss / static_cast<double>(parts.size())).backward();
    }
    if (parts.size() > 1) {
      torch::NoGradGuard no_grad;
      const auto buffers = float_buffers(net);
      for (std::size_t j = 0; j < buffers.size(); ++j) buffers[j].copy_(statistics_sum[j] / static_cast<double>(parts.size()));
    }
    out = parts.size() == 1 ? losses.front() : mean_losses(losses);
    if (average_) average_across_learners(net, average_, reduced_);
    if (!std::isfinite(out.total)) refuse("the loss");
    for (const auto& p : net->parameters())
      if (p.grad().defined() && !torch::isfinite(p.grad()).all().item<bool>()) refuse("a gradient");
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
  const Tensors t = to_tensors(batch, *model_, config_.value_target_mix);
  torch::NoGradGuard no_grad;
  const FlushDenormals flush;
  return compute(*model_, config_, batch, t, nullptr);
}

}  // namespace boardlab
