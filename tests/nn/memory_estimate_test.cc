// Tests for the memory estimate: the parameter count of every network shape, a measured training step, and the refusal's message.
#include "nn/memory_estimate.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/errors.h"
#include "games/registry.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn/train_config.h"
#include "nn/trainer.h"
#include "nn_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using nn_testing::random_selfplay_game;
using nn_testing::virus_war;

// A field of /proc/self/status in bytes ("VmRSS", "VmHWM").
double status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (!line.starts_with(field + ":")) continue;
    std::istringstream value(line.substr(field.size() + 1));
    double kilobytes = 0;
    value >> kilobytes;
    return kilobytes * 1024;
  }
  return -1;
}

TEST(MemoryEstimate, CountsTheParametersOfEveryNetworkShape) {
  for (const char* name : {"virus_war", "morabaraba", "squares"}) {
    const auto game = load_game(name);
    for (const int blocks : {0, 1, 3}) {
      for (const int channels : {1, 8, 24}) {
        for (const bool heads : {false, true}) {
          NetworkConfig config;
          config.blocks = blocks;
          config.channels = channels;
          config.policy_channels = 3;
          config.value_hidden = 5;
          config.ownership_head = heads && game->traits().has_ownership;
          // The spatial policy head where the game lays its actions out (with the heads).
          config.spatial_policy = heads && !game->traits().action_layout.empty();
          const Model model(config, *game, 1);
          EXPECT_EQ(estimate_network_memory(config, *game).parameters, model.num_parameters())
              << name << " " << blocks << "x" << channels << (heads ? " with heads" : "");
        }
      }
    }
  }
}

TEST(MemoryEstimate, ATrainingStepTakesAboutWhatItEstimates) {
  // The gradients, Adam's moments and the activations of one step on a fresh network,
  // against the growth of the resident set's peak (reset through /proc/self/clear_refs).
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  TrainConfig config;
  config.network.blocks = 3;
  config.network.channels = 48;
  config.training.batch_size = 256;
  ReplayBuffer replay(game, 100000);
  Rng rng(3);
  while (replay.positions() < 300) replay.add(random_selfplay_game(game, rng));
  TrainBatch batch;
  replay.sample(config.training.batch_size, rng, false, batch);
  Model model(config.network, game, 1);
  Trainer trainer(model, config.training);
  const MemoryEstimate estimate = estimate_training_memory(config, game);
  const double expected = estimate.optimizer + estimate.activations;

  std::ofstream("/proc/self/clear_refs") << "5";
  const double before = status_bytes("VmRSS");
  ASSERT_LE(status_bytes("VmHWM"), before + 4e6) << "the peak was not reset";
  trainer.step(batch);
  const double measured = status_bytes("VmHWM") - before;
  RecordProperty("measured_mb", static_cast<int>(measured / 1e6));
  RecordProperty("estimated_mb", static_cast<int>(expected / 1e6));
  EXPECT_GT(measured, expected / 2) << "measured " << measured / 1e6 << " MB, estimated " << expected / 1e6 << " MB";
  EXPECT_LT(measured, expected * 2) << "measured " << measured / 1e6 << " MB, estimated " << expected / 1e6 << " MB";
}

TEST(MemoryEstimate, AFixedOpponentsCachesAreCounted) {
  // Self-play's fixed opponents (an exploit run's target) share one search thread's cache
  // among their bots a worker (nn/self_play.cc): the estimate counts that cache once more.
  TrainConfig alone;
  alone.search.cache_positions = 100000;
  TrainConfig against = alone;
  against.self_play.opponent = "uct:200";
  const MemoryEstimate a = estimate_training_memory(alone, virus_war());
  const MemoryEstimate b = estimate_training_memory(against, virus_war());
  alone.search.cache_positions = 0;
  const double one_cache = a.self_play - estimate_training_memory(alone, virus_war()).self_play;
  EXPECT_GT(one_cache, 0);
  EXPECT_NEAR(b.self_play - a.self_play, one_cache, one_cache * 1e-9);
}

TEST(MemoryEstimate, ARunThatDoesNotFitIsRefusedWithTheFigures) {
  // network.channels=512 and training.batch_size=65536 are in the schema's ranges; the run
  // failed on a 13.4 GB allocation two minutes in.
  TrainConfig config;
  config.network.channels = 512;
  config.training.batch_size = 65536;
  const MemoryEstimate estimate = estimate_training_memory(config, virus_war());
  EXPECT_GT(estimate.activations, 100e9);
  const std::string message = error_of<InputError>([&] { check_memory(estimate, "training virus_war", 8e9); });
  EXPECT_TRUE(message.starts_with("training virus_war needs about ")) << message;
  EXPECT_NE(message.find("activations of a training batch "), std::string::npos) << message;
  EXPECT_NE(message.find("and this machine has 8.0 GB available (MemAvailable in /proc/meminfo)"), std::string::npos)
      << message;
  // The defaults fit in a few hundred megabytes; no figure is no check.
  const MemoryEstimate defaults = estimate_training_memory(TrainConfig{}, virus_war());
  EXPECT_LT(defaults.total(), 1e9);
  EXPECT_NO_THROW(check_memory(defaults, "training", 1e9));
  EXPECT_NO_THROW(check_memory(estimate, "training", std::nullopt));
  EXPECT_GT(available_memory().value_or(0), 0);
}

}  // namespace
}  // namespace boardlab
