// A network instance behind a torch-free interface, so search, self-play and bindings compile without LibTorch headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/game.h"
#include "nn/device.h"
#include "nn/network_config.h"

namespace boardlab {

class Model {
 public:
  // A freshly initialised network for `game`'s observation shape, actions and players, on
  // the CPU (to_device moves it): one seed gives the same weights on every device.
  Model(const NetworkConfig& config, const Game& game, std::uint64_t seed);
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;

  // A deep copy (evaluation snapshots, the previous checkpoint's player), on the same device.
  Model clone() const;

  // Moves every parameter and buffer to `device`; predict takes and gives CPU floats on any
  // device. InputError naming network.device for cuda where CUDA is not available. Move a
  // model before a Trainer is made for it: the optimizer's state follows its parameters.
  void to_device(ComputeDevice device);
  ComputeDevice device() const;

  // Every parameter and buffer as raw bytes, in the network's fixed order: what an MPI
  // learner broadcasts to its actor ranks. CPU bytes on any device, so that a learner on a
  // GPU feeds actors on CPUs. The size depends on the config alone
  // (weights_size), so a receiver knows it before the bytes come.
  std::string weights() const;
  std::size_t weights_size() const;
  // Loads what weights() wrote for a network of the same config; InputError naming `from`
  // when the size differs or a value is not finite, the model unchanged.
  void set_weights(std::string_view bytes, const std::string& from);

  const NetworkConfig& config() const;
  ObservationShape input_shape() const;
  int num_actions() const;
  int num_players() const;
  std::int64_t num_parameters() const;

  // What the network is, for messages: "checkpoint 'runs/x/checkpoints/latest.pt'", or
  // "the network" for one made in this process. Copies (clone) keep it.
  const std::string& label() const;
  void set_label(std::string label);

  // Inference in eval mode without autograd: `obs` is batch × C×H×W floats; writes
  // batch × A policy logits and batch × P values (value j: the player j seats after the
  // mover). Safe to call from several threads at once while nobody trains the model.
  // With `score_margins` and a score head (network.score_head), also writes batch predicted
  // final score margins of the mover (search.score_utility); without the head it is left alone.
  // Throws InputError naming the network when an output is not finite (NaN or infinite
  // weights): a search must stop rather than choose from it.
  void predict(const float* obs, int batch, float* logits, float* values, float* score_margins = nullptr) const;

  // LibTorch's intra-op threads for the calling thread. Each thread that predicts starts
  // with one: two threads per process collapse when the other core is busy.
  static void set_torch_threads(int threads);

  struct Impl;  // defined in nn/model_impl.h, for the nn/ files that use torch
  Impl& impl() const { return *impl_; }

 private:
  explicit Model(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace boardlab
