// What a Model holds, for the nn/ files that use LibTorch (trainer, checkpoints).
#pragma once

#include "nn/model.h"
#include "nn/network.h"

namespace boardlab {

struct Model::Impl {
  NetworkConfig config;
  ObservationShape shape;
  int num_actions = 0;
  int num_players = 0;
  ActionLayout layout;  // the game's, for the spatial policy head
  ResNet net{nullptr};
  torch::Device device{torch::kCPU};  // where net's parameters and buffers live
  std::string label = "the network";
};

}  // namespace boardlab
