// The residual CNN's layers and forward pass.
#include "nn/network.h"

namespace boardlab {
namespace {

// A "same"-size convolution. On wrapping columns a 3×3 one pads only the rows: its input
// arrives with the columns already padded circularly (wrapped()).
torch::nn::Conv2d conv(int in, int out, int kernel, bool wrap_columns = false) {
  const std::int64_t pad = kernel / 2;
  return torch::nn::Conv2d(
      torch::nn::Conv2dOptions(in, out, kernel).padding({pad, wrap_columns ? 0 : pad}).bias(false));
}

// The input of a 3×3 convolution: with wrapping columns, the last column put before the
// first and the first after the last.
torch::Tensor wrapped(const torch::Tensor& x, bool wrap_columns) {
  if (!wrap_columns) return x;
  const std::int64_t width = x.size(3);
  return torch::cat({x.narrow(3, width - 1, 1), x, x.narrow(3, 0, 1)}, 3);
}

}  // namespace

ResidualBlockImpl::ResidualBlockImpl(int channels, bool wrap)
    : conv1(register_module("conv1", conv(channels, channels, 3, wrap))),
      conv2(register_module("conv2", conv(channels, channels, 3, wrap))),
      bn1(register_module("bn1", torch::nn::BatchNorm2d(channels))),
      bn2(register_module("bn2", torch::nn::BatchNorm2d(channels))),
      wrap_columns(wrap) {}

torch::Tensor ResidualBlockImpl::forward(const torch::Tensor& x) {
  auto y = torch::relu(bn1(conv1(wrapped(x, wrap_columns))));
  y = bn2(conv2(wrapped(y, wrap_columns)));
  return torch::relu(y + x);
}

ResNetImpl::ResNetImpl(const NetworkConfig& config, const ObservationShape& shape, int num_actions, int num_players,
                       const ActionLayout& layout)
    : wrap_columns_(shape.wrap_columns) {
  const int c = config.channels;
  const int height = shape.height;
  const int width = shape.width;
  input_conv = register_module("input_conv", conv(shape.channels, c, 3, wrap_columns_));
  input_bn = register_module("input_bn", torch::nn::BatchNorm2d(c));
  for (int b = 0; b < config.blocks; ++b) blocks->push_back(ResidualBlock(c, wrap_columns_));
  register_module("blocks", blocks);
  policy_conv = register_module("policy_conv", conv(c, config.policy_channels, 1));
  policy_bn = register_module("policy_bn", torch::nn::BatchNorm2d(config.policy_channels));
  if (config.spatial_policy) {
    // Model checks the layout against the game before building (nn/model.cc).
    const std::int64_t entries = static_cast<std::int64_t>(layout.planes) * height * width;
    policy_planes = register_module(
        "policy_planes", torch::nn::Conv2d(torch::nn::Conv2dOptions(config.policy_channels, layout.planes, 1)));
    const int board_wide = layout.board_wide();
    if (board_wide > 0)
      policy_board_wide =
          register_module("policy_board_wide", torch::nn::Linear(2 * config.policy_channels, board_wide));
    std::vector<std::int64_t> index(layout.slot.size());
    std::int64_t next_board_wide = entries;
    for (std::size_t a = 0; a < index.size(); ++a) index[a] = layout.slot[a] >= 0 ? layout.slot[a] : next_board_wide++;
    policy_index_ = torch::tensor(index, torch::kInt64);
  } else {
    policy_fc = register_module("policy_fc", torch::nn::Linear(config.policy_channels * height * width, num_actions));
  }
  value_conv = register_module("value_conv", conv(c, c, 1));
  value_bn = register_module("value_bn", torch::nn::BatchNorm2d(c));
  value_fc1 = register_module("value_fc1", torch::nn::Linear(2 * c, config.value_hidden));
  value_fc2 = register_module("value_fc2", torch::nn::Linear(config.value_hidden, num_players));
  // Registered only when asked for, so that a checkpoint without them still matches.
  if (config.ownership_head)
    ownership_conv = register_module("ownership_conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(c, 1, 1)));
  if (config.score_head) score_fc = register_module("score_fc", torch::nn::Linear(config.value_hidden, 1));
}

NetworkOutputs ResNetImpl::run(const torch::Tensor& x, bool ownership) {
  auto h = torch::relu(input_bn(input_conv(wrapped(x, wrap_columns_))));
  for (auto& block : *blocks) h = block->as<ResidualBlock>()->forward(h);
  auto p = torch::relu(policy_bn(policy_conv(h)));
  NetworkOutputs out;
  if (policy_planes) {
    auto entries = policy_planes(p).flatten(1);
    if (policy_board_wide)
      entries = torch::cat({entries, policy_board_wide(torch::cat({p.mean({2, 3}), p.amax({2, 3})}, 1))}, 1);
    out.logits = entries.index_select(1, policy_index_);
  } else {
    out.logits = policy_fc(p.flatten(1));
  }
  auto v = torch::relu(value_bn(value_conv(h)));
  auto pooled = torch::cat({v.mean({2, 3}), v.amax({2, 3})}, 1);
  auto hidden = torch::relu(value_fc1(pooled));
  out.value = torch::tanh(value_fc2(hidden));
  if (ownership && ownership_conv) out.ownership = torch::tanh(ownership_conv(h)).flatten(1);
  if (score_fc) out.score = torch::tanh(score_fc(hidden)).squeeze(1);
  return out;
}

NetworkOutputs ResNetImpl::forward(const torch::Tensor& x) { return run(x, false); }

NetworkOutputs ResNetImpl::forward_all(const torch::Tensor& x) { return run(x, true); }

void ResNetImpl::move_to(torch::Device device) {
  to(device);
  if (policy_index_.defined()) policy_index_ = policy_index_.to(device);
}

}  // namespace boardlab
