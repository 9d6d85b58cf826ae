// Model construction, copying and batched inference.
#include "nn/model.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "core/errors.h"
#include "nn/denormals.h"
#include "nn/memory_reuse.h"
#include "nn/model_impl.h"

namespace boardlab {

namespace {

// The game's action layout, checked: a spatial policy head needs one that names a logit
// for every action, each once.
ActionLayout checked_action_layout(const Game& game) {
  const ActionLayout layout = game.traits().action_layout;
  const std::string where = "network: a spatial policy head (network.spatial_policy) needs ";
  if (layout.empty())
    throw InputError(where + "a game that declares where its actions lie on the board, and " + game.name() +
                     " does not");
  const std::int64_t entries = static_cast<std::int64_t>(layout.planes) * game.observation_shape().cells();
  if (static_cast<int>(layout.slot.size()) != game.num_distinct_actions())
    throw InputError(where + "a slot for each of " + game.name() + "'s " + std::to_string(game.num_distinct_actions()) +
                     " actions; its layout has " + std::to_string(layout.slot.size()));
  std::vector<bool> taken(static_cast<std::size_t>(entries), false);
  for (std::size_t a = 0; a < layout.slot.size(); ++a) {
    const std::int32_t s = layout.slot[a];
    if (s < -1 || s >= entries || (s >= 0 && taken[static_cast<std::size_t>(s)]))
      throw InputError(where + "distinct slots in 0.." + std::to_string(entries - 1) + " or -1; " + game.name() +
                       "'s action " + std::to_string(a) + " has " + std::to_string(s));
    if (s >= 0) taken[static_cast<std::size_t>(s)] = true;
  }
  return layout;
}

}  // namespace

Model::Model(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) { keep_freed_memory(); }

Model::Model(const NetworkConfig& config, const Game& game, std::uint64_t seed) : impl_(std::make_unique<Impl>()) {
  keep_freed_memory();
  if (config.blocks < 0 || config.channels < 1 || config.policy_channels < 1 || config.value_hidden < 1)
    throw InputError("network: blocks must be >= 0 and channels, policy_channels, value_hidden >= 1");
  if (config.ownership_head && !game.traits().has_ownership)
    throw InputError("network: an ownership head needs a game that declares who owns its cells, and " + game.name() +
                     " does not");
  if (config.score_head && !(game.traits().max_score_margin > 0))
    throw InputError("network: a score head needs a game that declares a final score, and " + game.name() + " does not");
  if (config.spatial_policy) impl_->layout = checked_action_layout(game);
  torch::manual_seed(seed);
  impl_->config = config;
  impl_->shape = game.observation_shape();
  impl_->num_actions = game.num_distinct_actions();
  impl_->num_players = game.num_players();
  impl_->net = ResNet(config, impl_->shape, impl_->num_actions, impl_->num_players, impl_->layout);
  impl_->net->eval();
}

Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

Model Model::clone() const {
  auto copy = std::make_unique<Impl>(*impl_);
  copy->net = ResNet(impl_->config, impl_->shape, impl_->num_actions, impl_->num_players, impl_->layout);
  copy->net->move_to(impl_->device);  // then copied device to device, never through the CPU
  {
    torch::NoGradGuard no_grad;
    const auto source = impl_->net->named_parameters();
    for (auto& p : copy->net->named_parameters()) p.value().copy_(source[p.key()]);
    const auto buffers = impl_->net->named_buffers();
    for (auto& b : copy->net->named_buffers()) b.value().copy_(buffers[b.key()]);
  }
  copy->net->eval();
  return Model(std::move(copy));
}

void Model::to_device(ComputeDevice device) {
  // The config's refusal (resolve_device) for a caller that asks for CUDA directly.
  if (device == ComputeDevice::kCuda) resolve_device("cuda");
  impl_->device = device == ComputeDevice::kCuda ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU);
  impl_->net->move_to(impl_->device);
}

ComputeDevice Model::device() const {
  return impl_->device.is_cuda() ? ComputeDevice::kCuda : ComputeDevice::kCpu;
}

namespace {
// Parameters, then buffers (BatchNorm statistics and its int64 counters), each in the order
// the network declares them: the same for every network of one config.
std::vector<torch::Tensor> weight_tensors(const ResNet& net) {
  std::vector<torch::Tensor> out;
  for (const auto& p : net->parameters()) out.push_back(p);
  for (const auto& b : net->buffers()) out.push_back(b);
  return out;
}
std::size_t tensor_bytes(const torch::Tensor& t) { return static_cast<std::size_t>(t.numel()) * t.element_size(); }
}  // namespace

std::size_t Model::weights_size() const {
  std::size_t total = 0;
  for (const auto& t : weight_tensors(impl_->net)) total += tensor_bytes(t);
  return total;
}

std::string Model::weights() const {
  std::string out;
  out.reserve(weights_size());
  torch::NoGradGuard no_grad;
  for (const auto& t : weight_tensors(impl_->net)) {
    const torch::Tensor c = t.to(torch::kCPU).contiguous();
    out.append(static_cast<const char*>(c.data_ptr()), tensor_bytes(c));
  }
  return out;
}

void Model::set_weights(std::string_view bytes, const std::string& from) {
  const std::vector<torch::Tensor> tensors = weight_tensors(impl_->net);
  if (bytes.size() != weights_size())
    throw InputError("weights from " + from + " are " + std::to_string(bytes.size()) + " bytes; this network (" +
                     std::to_string(impl_->config.blocks) + "x" + std::to_string(impl_->config.channels) + ") needs " +
                     std::to_string(weights_size()));
  // Checked before anything is copied: a NaN would only show when a search picks no move.
  std::size_t at = 0;
  std::vector<torch::Tensor> incoming;
  for (const auto& t : tensors) {
    torch::Tensor copy = torch::empty(t.sizes(), t.options().device(torch::kCPU));  // contiguous, filled from CPU bytes
    std::memcpy(copy.data_ptr(), bytes.data() + at, tensor_bytes(t));
    at += tensor_bytes(t);
    if (copy.is_floating_point() && !torch::isfinite(copy).all().item<bool>())
      throw InputError("weights from " + from + " hold NaN or infinity");
    incoming.push_back(std::move(copy));
  }
  torch::NoGradGuard no_grad;
  for (std::size_t i = 0; i < tensors.size(); ++i) tensors[i].copy_(incoming[i]);
}

const NetworkConfig& Model::config() const { return impl_->config; }
ObservationShape Model::input_shape() const { return impl_->shape; }
int Model::num_actions() const { return impl_->num_actions; }
int Model::num_players() const { return impl_->num_players; }

std::int64_t Model::num_parameters() const {
  std::int64_t total = 0;
  for (const auto& p : impl_->net->parameters()) total += p.numel();
  return total;
}

const std::string& Model::label() const { return impl_->label; }
void Model::set_label(std::string label) { impl_->label = std::move(label); }

void Model::set_torch_threads(int threads) { at::set_num_threads(std::max(1, threads)); }

void Model::predict(const float* obs, int batch, float* logits, float* values, float* score_margins) const {
  if (batch <= 0) return;
  // OpenMP gives every new thread as many threads as cores: pin each predicting thread to one.
  static thread_local const bool pinned = (set_torch_threads(1), true);
  (void)pinned;
  torch::InferenceMode guard;
  const FlushDenormals flush;
  const auto& s = impl_->shape;
  // from_blob does not copy: the caller's buffer is the input tensor (copied to a GPU once;
  // .to() on the CPU returns the tensor itself). The outputs come back to the CPU.
  auto input = torch::from_blob(const_cast<float*>(obs), {batch, s.channels, s.height, s.width}).to(impl_->device);
  NetworkOutputs out = impl_->net->forward(input);
  const torch::Tensor policy = out.logits.to(torch::kCPU).contiguous();
  const torch::Tensor value = out.value.to(torch::kCPU).contiguous();
  const bool score = score_margins && out.score.defined();
  if (score) out.score = out.score.to(torch::kCPU);
  // NaN weights give NaN logits, and a search that compares NaN priors picks no child (it
  // returned illegal actions); inf is as wrong. One reduction per batch is cheap next to
  // the forward pass.
  const char* bad = !torch::isfinite(policy).all().item<bool>()                ? "policy logits"
                    : !torch::isfinite(value).all().item<bool>()               ? "values"
                    : score && !torch::isfinite(out.score).all().item<bool>() ? "score margins"
                                                                               : nullptr;
  if (bad)
    throw InputError("network output is not finite (" + std::string(bad) + " of " + impl_->label +
                     " hold NaN or infinity): its weights are corrupt or training diverged");
  std::memcpy(logits, policy.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch) * impl_->num_actions);
  std::memcpy(values, value.data_ptr<float>(), sizeof(float) * static_cast<std::size_t>(batch) * impl_->num_players);
  if (score)
    std::memcpy(score_margins, out.score.contiguous().data_ptr<float>(),
                sizeof(float) * static_cast<std::size_t>(batch));
}

}  // namespace boardlab
