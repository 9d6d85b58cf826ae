// The residual CNN in LibTorch (included by nn/ .cc files only: everything else sees nn/model.h).
#pragma once

#include <torch/torch.h>

#include "nn/network_config.h"

namespace boardlab {

// Trunk: 3×3 convolution, then residual blocks (conv-BN-ReLU-conv-BN + skip, ReLU).
// Policy head: 1×1 convolution to a few planes, flattened, linear to every action (the
// action space need not be one action per cell). Value head: 1×1 convolution, global
// average and max pooling (so its size does not depend on the board), a hidden layer,
// tanh outputs, one per player: output j is the value of the player j seats after the mover.
struct ResidualBlockImpl : torch::nn::Module {
  explicit ResidualBlockImpl(int channels);
  torch::Tensor forward(const torch::Tensor& x);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
};
TORCH_MODULE(ResidualBlock);

struct ResNetImpl : torch::nn::Module {
  ResNetImpl(const NetworkConfig& config, int in_channels, int height, int width, int num_actions, int num_players);
  // Returns policy logits (B×A) and values (B×P).
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& x);

  torch::nn::Conv2d input_conv{nullptr};
  torch::nn::BatchNorm2d input_bn{nullptr};
  torch::nn::ModuleList blocks;
  torch::nn::Conv2d policy_conv{nullptr};
  torch::nn::BatchNorm2d policy_bn{nullptr};
  torch::nn::Linear policy_fc{nullptr};
  torch::nn::Conv2d value_conv{nullptr};
  torch::nn::BatchNorm2d value_bn{nullptr};
  torch::nn::Linear value_fc1{nullptr}, value_fc2{nullptr};
};
TORCH_MODULE(ResNet);

}  // namespace boardlab
