// The residual CNN in LibTorch (included by nn/ .cc files only: everything else sees nn/model.h).
#pragma once

#include <torch/torch.h>

#include "core/game.h"
#include "nn/network_config.h"

namespace boardlab {

// Trunk: 3×3 convolution, then residual blocks (conv-BN-ReLU-conv-BN + skip, ReLU); on a
// grid whose columns wrap (ObservationShape::wrap_columns), every 3×3 convolution sees the
// last column beside the first (circular padding of the columns, zeros above and below).
// Policy head: 1×1 convolution to a few planes, then either flattened and linear to every
// action (the action space need not be one action per cell), or, with a game's action
// layout (network.spatial_policy), a 1×1 convolution to the layout's planes whose entries
// are the actions' logits, board-wide actions linear from the planes' mean and max. Value head: 1×1 convolution, global
// average and max pooling (so its size does not depend on the board), a hidden layer,
// tanh outputs, one per player: output j is the value of the player j seats after the mover.
// Auxiliary heads, where the config asks for them: ownership, a 1×1 convolution of the
// trunk to one plane, tanh (each cell's final owner from the mover's view); score, a tanh
// unit on the value head's hidden layer (the mover's final score margin, scaled).
struct ResidualBlockImpl : torch::nn::Module {
  ResidualBlockImpl(int channels, bool wrap_columns);
  torch::Tensor forward(const torch::Tensor& x);
  torch::nn::Conv2d conv1{nullptr}, conv2{nullptr};
  torch::nn::BatchNorm2d bn1{nullptr}, bn2{nullptr};
  bool wrap_columns;
};
TORCH_MODULE(ResidualBlock);

struct NetworkOutputs {
  torch::Tensor logits;     // B×A
  torch::Tensor value;      // B×P
  torch::Tensor ownership;  // B×(H·W); undefined without the head
  torch::Tensor score;      // B; undefined without the head
};

struct ResNetImpl : torch::nn::Module {
  // `layout` is the game's action layout, read when config.spatial_policy is set.
  ResNetImpl(const NetworkConfig& config, const ObservationShape& shape, int num_actions, int num_players,
             const ActionLayout& layout);
  // Policy logits (B×A), values (B×P) and, with the head, the score margin (B): what
  // inference needs (the score for search.score_utility); no ownership.
  NetworkOutputs forward(const torch::Tensor& x);
  // Every head the network has, for training.
  NetworkOutputs forward_all(const torch::Tensor& x);
  // Module::to, and the spatial policy's index, which is no buffer (a buffer would be saved
  // in checkpoints and sent in weights()) and must live where the logits are gathered.
  void move_to(torch::Device device);

  torch::nn::Conv2d input_conv{nullptr};
  torch::nn::BatchNorm2d input_bn{nullptr};
  torch::nn::ModuleList blocks;
  torch::nn::Conv2d policy_conv{nullptr};
  torch::nn::BatchNorm2d policy_bn{nullptr};
  torch::nn::Linear policy_fc{nullptr};
  torch::nn::Conv2d policy_planes{nullptr};  // spatial policy: one plane per layout plane
  torch::nn::Linear policy_board_wide{nullptr};  // spatial policy: the board-wide actions
  torch::nn::Conv2d value_conv{nullptr};
  torch::nn::BatchNorm2d value_bn{nullptr};
  torch::nn::Linear value_fc1{nullptr}, value_fc2{nullptr};
  torch::nn::Conv2d ownership_conv{nullptr};
  torch::nn::Linear score_fc{nullptr};

 private:
  NetworkOutputs run(const torch::Tensor& x, bool ownership);
  bool wrap_columns_ = false;
  // Spatial policy: each action's entry among the planes' cells, then the board-wide outputs.
  torch::Tensor policy_index_;
};
TORCH_MODULE(ResNet);

}  // namespace boardlab
