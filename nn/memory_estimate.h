// Memory a network or a training run will take, estimated from its config before anything is allocated, and what the machine has.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/game.h"
#include "nn/network_config.h"

namespace boardlab {

struct TrainConfig;

// Bytes by what holds them. An estimate, not a bound: the parts that grow with the config
// (weights, optimizer moments, a training batch's activations, the replay buffer, the
// search trees and inference batches) are counted; allocator slack and LibTorch's own
// working memory are not. Tested against a measured training step (within a factor of 2).
struct MemoryEstimate {
  std::int64_t parameters = 0;  // of one copy of the network
  double network = 0;           // every copy of the weights (the trained one and its snapshots)
  double optimizer = 0;         // gradients and optimizer moments
  double activations = 0;       // one training batch's forward and backward pass
  double replay = 0;            // the replay buffer, full
  double self_play = 0;         // search trees and inference batches of every self-play game
  double total() const { return network + optimizer + activations + replay + self_play; }
  // "about 13.4 GB (network 126 MB, optimizer 94 MB, activations of a training batch 13.0 GB, ...)"
  std::string describe() const;
};

// Parameters of the residual network nn/network.h builds for `game`, from its shape alone.
std::int64_t network_parameters(const NetworkConfig& config, const Game& game);

// One copy of the network's weights (loading a checkpoint, a player).
MemoryEstimate estimate_network_memory(const NetworkConfig& config, const Game& game);
// A training run of `config` on `game`: every part above.
MemoryEstimate estimate_training_memory(const TrainConfig& config, const Game& game);

// MemAvailable of /proc/meminfo in bytes; none where it cannot be read.
std::optional<double> available_memory();

// Throws InputError when `estimate` exceeds `available` (none: no check), naming `what`
// ("training", "checkpoint 'x.pt'"), both figures and the parts, before anything is allocated.
void check_memory(const MemoryEstimate& estimate, const std::string& what, std::optional<double> available);

}  // namespace boardlab
