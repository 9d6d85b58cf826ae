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
  ResNet net{nullptr};
  std::string label = "the network";
};

}  // namespace boardlab
