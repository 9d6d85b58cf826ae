// Tests for network.device: auto, cpu and cuda resolve, refuse or compute as this build's LibTorch allows.
#include "nn/device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.h"
#include "core/errors.h"
#include "nn/checkpoint.h"
#include "nn/model.h"
#include "nn/pipeline.h"
#include "nn/train_config.h"
#include "nn/trainer.h"
#include "nn_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using nn_testing::predict_all;
using nn_testing::random_positions;
using nn_testing::random_selfplay_game;
using nn_testing::same_bits;
using nn_testing::TempDir;
using nn_testing::tiny_network;
using nn_testing::virus_war;

constexpr char kNoCuda[] =
    "network.device: cuda, but this LibTorch was built without CUDA (or no GPU is visible); use cpu or auto";

float max_difference(const std::vector<float>& a, const std::vector<float>& b) {
  EXPECT_EQ(a.size(), b.size());
  float most = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) most = std::max(most, std::abs(a[i] - b[i]));
  return most;
}

TrainBatch batch_of(int size, std::uint64_t seed) {
  ReplayBuffer replay(virus_war(), 100000);
  Rng rng(seed);
  while (replay.positions() < 200) replay.add(random_selfplay_game(virus_war(), rng));
  TrainBatch batch;
  replay.sample(size, rng, /*augment=*/false, batch);
  return batch;
}

OptimizerConfig adam() {
  OptimizerConfig config;
  config.learning_rate = 5e-3;
  config.total_steps = 50;
  return config;
}

TEST(Device, AutoIsCudaExactlyWhereThisLibTorchHasIt) {
  EXPECT_EQ(resolve_device("auto"), cuda_available() ? ComputeDevice::kCuda : ComputeDevice::kCpu);
  EXPECT_EQ(resolve_device("cpu"), ComputeDevice::kCpu);
  EXPECT_STREQ(device_name(ComputeDevice::kCpu), "cpu");
  EXPECT_STREQ(device_name(ComputeDevice::kCuda), "cuda");
  EXPECT_EQ(error_of([] { resolve_device("gpu"); }), "network.device: 'gpu' is not one of auto, cpu, cuda");
  // A new model is on the CPU until moved, whatever the machine has.
  EXPECT_EQ(Model(tiny_network(), virus_war(), 1).device(), ComputeDevice::kCpu);
}

TEST(Device, ACpuModelPredictsAndTrainsExactlyAsOneNeverMoved) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const std::vector<float> obs = random_positions(game, 24, 4).observations(game);
  const TrainBatch batch = batch_of(32, 9);
  Model plain(tiny_network(2, 8), game, 3), moved(tiny_network(2, 8), game, 3);
  moved.to_device(ComputeDevice::kCpu);
  EXPECT_EQ(moved.device(), ComputeDevice::kCpu);
  EXPECT_TRUE(same_bits(predict_all(moved, obs, 24), predict_all(plain, obs, 24)));
  Trainer a(plain, adam()), b(moved, adam());
  for (int i = 0; i < 3; ++i) {
    const TrainLosses la = a.step(batch), lb = b.step(batch);
    EXPECT_EQ(la.total, lb.total) << "step " << i;
  }
  EXPECT_TRUE(same_bits(predict_all(moved, obs, 24), predict_all(plain, obs, 24)));
  EXPECT_EQ(moved.weights(), plain.weights());
  EXPECT_EQ(moved.clone().device(), ComputeDevice::kCpu);
}

// Both branches run: which one depends on the LibTorch this build links and the machine.
TEST(Device, CudaIsRefusedWhereThereIsNoneAndComputesAsTheCpuWhereThereIsOne) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const std::vector<float> obs = random_positions(game, 24, 4).observations(game);
  if (!cuda_available()) {
    EXPECT_EQ(error_of([] { resolve_device("cuda"); }), kNoCuda);
    // A model asked directly refuses alike and stays whole on the CPU.
    Model model(tiny_network(), game, 2);
    const std::vector<float> before = predict_all(model, obs, 24);
    EXPECT_EQ(error_of([&] { model.to_device(ComputeDevice::kCuda); }), kNoCuda);
    EXPECT_EQ(model.device(), ComputeDevice::kCpu);
    EXPECT_TRUE(same_bits(predict_all(model, obs, 24), before));
    // The config reads the key (its choices are the same everywhere); a run asking for cuda
    // stops before its folder is made.
    EXPECT_EQ(parse_train_config("game: virus_war\nnetwork:\n  device: cuda\n", "x.yaml").network.device, "cuda");
    TempDir tmp;
    TrainOptions options;
    options.config_path = std::string(BOARDLAB_SOURCE_DIR) + "/configs/virus_war.yaml";
    options.overrides = {"network.device=cuda", "run.max_steps=1"};
    options.out_dir = tmp / "run";
    options.log = [](const std::string&) {};
    EXPECT_EQ(error_of([&] { train(options); }), kNoCuda);
    EXPECT_FALSE(std::filesystem::exists(tmp / "run"));
    return;
  }
  // The same weights on the GPU: the same predictions within float tolerance (other kernels,
  // other summation orders), the same bytes out of weights(), and clones stay on the GPU.
  Model cpu(tiny_network(2, 8), game, 5);
  Model gpu = cpu.clone();
  gpu.to_device(ComputeDevice::kCuda);
  EXPECT_EQ(gpu.device(), ComputeDevice::kCuda);
  EXPECT_EQ(gpu.clone().device(), ComputeDevice::kCuda);
  EXPECT_EQ(resolve_device("cuda"), ComputeDevice::kCuda);
  EXPECT_LT(max_difference(predict_all(gpu, obs, 24), predict_all(cpu, obs, 24)), 1e-4f);
  EXPECT_EQ(gpu.weights(), cpu.weights());
  // Training: the same losses within tolerance, step after step.
  const TrainBatch batch = batch_of(32, 9);
  Trainer on_cpu(cpu, adam()), on_gpu(gpu, adam());
  for (int i = 0; i < 3; ++i) {
    const TrainLosses lc = on_cpu.step(batch), lg = on_gpu.step(batch);
    EXPECT_NEAR(lg.total, lc.total, 1e-3 * std::max(1.0, std::abs(lc.total))) << "step " << i;
  }
  EXPECT_LT(max_difference(predict_all(gpu, obs, 24), predict_all(cpu, obs, 24)), 1e-3f);
  // weights() and set_weights() move CPU bytes both ways.
  Model receiver(tiny_network(2, 8), game, 6);
  receiver.to_device(ComputeDevice::kCuda);
  receiver.set_weights(gpu.weights(), "the test");
  EXPECT_EQ(receiver.weights(), gpu.weights());
  // A GPU checkpoint holds CPU tensors: it loads on the CPU, and back on the GPU with its
  // optimizer's moments, whose next step matches the original's.
  TempDir tmp;
  const std::string path = tmp / "gpu.pt";
  save_checkpoint(path, gpu, &on_gpu, {game.to_string(), gpu.config(), 3, 0, 0, 0, "", {}});
  EXPECT_EQ(gpu.device(), ComputeDevice::kCuda);
  Checkpoint loaded = load_checkpoint(path);
  EXPECT_EQ(loaded.model.device(), ComputeDevice::kCpu);
  EXPECT_EQ(loaded.model.weights(), gpu.weights());
  loaded.model.to_device(ComputeDevice::kCuda);
  Trainer resumed(loaded.model, adam());
  load_optimizer(path, resumed);
  const TrainLosses original = on_gpu.step(batch), again = resumed.step(batch);
  EXPECT_NEAR(again.total, original.total, 1e-5 * std::max(1.0, std::abs(original.total)));
  EXPECT_LT(max_difference(predict_all(loaded.model, obs, 24), predict_all(gpu, obs, 24)), 1e-4f);
}

TEST(Device, TheKeyIsInTheNetworkSectionAndNotInWhatACheckpointDescribes) {
  const std::string yaml = default_train_config_yaml();
  const std::size_t network = yaml.find("\nnetwork:\n");
  const std::size_t key = yaml.find("\n  device: auto  # where the network runs: auto (cuda when");
  ASSERT_NE(network, std::string::npos) << yaml;
  ASSERT_NE(key, std::string::npos) << yaml;
  EXPECT_LT(network, key);
  EXPECT_LT(key, yaml.find("\nsearch:\n"));
  // The network is the same network on any device: a run resumes on another machine.
  const TrainConfig on_cpu = parse_train_config("game: virus_war\nnetwork:\n  device: cpu\n", "x.yaml");
  const TrainConfig anywhere = parse_train_config("game: virus_war\n", "x.yaml");
  EXPECT_EQ(on_cpu.network.device, "cpu");
  EXPECT_EQ(anywhere.network.device, "auto");
  EXPECT_TRUE(on_cpu.network == anywhere.network);
  EXPECT_EQ(error_of<ConfigError>([] { parse_train_config("game: virus_war\nnetwork:\n  device: gpu\n", "x.yaml"); }),
            "x.yaml:3: network.device: expected one of auto, cpu, cuda, got 'gpu'");
}

}  // namespace
}  // namespace boardlab
