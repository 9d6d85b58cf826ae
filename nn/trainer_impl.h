// The trainer's LibTorch optimizer, for the nn/ files that save and restore it.
#pragma once

#include <torch/torch.h>

#include "nn/trainer.h"

namespace boardlab {

struct Trainer::Impl {
  std::unique_ptr<torch::optim::Optimizer> optimizer;
};

}  // namespace boardlab
