// Checkpoints: model, optimizer, counters, random states and the config in one atomically written file.
//
// Format: a LibTorch serialize archive (what torch::save writes: a TorchScript zip). C++
// writes and reads it natively, optimizer state included, and Python reads it too:
// torch.jit.load(path) yields the parameters, buffers and the metadata below. Two checksums
// guard it: a seal of the whole file in the zip comment (nn/archive_seal.h), checked before
// LibTorch parses anything, and a hash of the content as it reads back, under "checksum".
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "nn/model.h"
#include "nn/network_config.h"
#include "nn/trainer.h"

namespace boardlab {

// The largest file load_checkpoint reads, checked before a byte is read, and the largest
// save_checkpoint writes (so that every checkpoint written loads). The largest trunk a config
// allows (40 blocks of 512 channels: about 190 million parameters, 0.76 GB as float32) saved
// with Adam's two moments is about 2.3 GB, and the runs here write a few MB; 4 GiB leaves room
// for the heads, and refuses /dev/zero or a disk image named by mistake before memory runs out.
inline constexpr std::size_t kMaxCheckpointBytes = std::size_t{4} << 30;

struct CheckpointInfo {
  std::string game;  // the game string, parameters included
  NetworkConfig network;
  std::int64_t step = 0;
  std::int64_t games = 0;
  std::int64_t positions = 0;
  double seconds = 0;        // training time so far
  std::string config_yaml;   // the run's config as used
  std::vector<std::array<std::uint64_t, 4>> rng_states;
  // The run folder at this moment, so that a resume can cut what was written after it:
  // bytes of games/selfplay.txt and data rows of metrics.csv (-1: not recorded, as in
  // checkpoints of older versions or outside a run).
  std::int64_t games_file_bytes = -1;
  std::int64_t metrics_rows = -1;
};

// Stores a 64-bit hash of everything written (every key, tensor and sub-archive), which
// loading verifies. Written to a temporary file, fsynced and renamed: a crash leaves the
// old file intact. A write that fails (a full disk) throws FileError naming the file,
// leaves the old file and no temporary file. The tensors are written on the CPU from a model
// and optimizer on any device (network.device), so every checkpoint loads anywhere.
void save_checkpoint(const std::string& path, const Model& model, const Trainer* trainer, const CheckpointInfo& info);

struct Checkpoint {
  std::shared_ptr<const Game> game;
  Model model;
  CheckpointInfo info;
};

// Throws InputError naming the file when it is missing, corrupt (its bytes no longer match
// their seal, or its content its checksum; checkpoints from before these have none and are
// parsed unchecked), not a boardlab checkpoint, or when its metadata disagrees with its
// tensors or ranges (naming the key and both values), all before the network is allocated.
// The model is on the CPU (Model::to_device moves it), whichever device wrote the file.
Checkpoint load_checkpoint(const std::string& path);
// Restores the optimizer's state (moments, momentum) and step count saved with `path`, on
// the device of the trainer's model.
void load_optimizer(const std::string& path, Trainer& trainer);

// The optimizer's state as bytes, and back (InputError naming `from` for bytes that are not
// one of the same network's): what rank 0 sends the other learner ranks when they start.
std::string optimizer_state(const Trainer& trainer);
void set_optimizer_state(Trainer& trainer, const std::string& bytes, const std::string& from);

}  // namespace boardlab
