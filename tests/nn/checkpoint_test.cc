// Tests for checkpoints: exact round trips with optimizer state, clear errors, and survival of a writer killed mid-write.
#include "nn/checkpoint.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.h"
#include "files/atomic_file.h"
#include "nn/agent_bot.h"
#include "nn/replay_buffer.h"
#include "nn/train_config.h"
#include "nn_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using nn_testing::FileSizeLimit;
using nn_testing::predict_all;
using nn_testing::random_positions;
using nn_testing::random_selfplay_game;
using nn_testing::same_bits;
using nn_testing::TempDir;
using nn_testing::tiny_network;
using nn_testing::virus_war;

std::vector<TrainBatch> sample_batches(int count, int size) {
  ReplayBuffer replay(virus_war(), 100000);
  Rng rng(21);
  while (replay.positions() < 200) replay.add(random_selfplay_game(virus_war(), rng));
  std::vector<TrainBatch> batches(count);
  for (auto& b : batches) replay.sample(size, rng, /*augment=*/true, b);
  return batches;
}

CheckpointInfo sample_info(const Model& model, std::int64_t step) {
  CheckpointInfo info;
  info.game = virus_war().to_string();
  info.network = model.config();
  info.step = step;
  info.games = 17 + step;
  info.positions = 1234 + step;
  info.seconds = 12.345 + static_cast<double>(step);
  info.config_yaml = "game: virus_war\nseed: 9  # a comment\n";
  // The top bit set: the archive stores int64, the states are uint64.
  info.rng_states = {{1, 2, 3, 4}, {~0ULL, 1ULL << 63, 0, 0x0123456789abcdefULL + static_cast<std::uint64_t>(step)}};
  return info;
}

class CheckpointRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(CheckpointRoundTrip, ModelInfoAndOptimizerAreRestoredExactly) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const auto batches = sample_batches(3, 64);
  const auto positions = random_positions(game, 40, 5);
  const std::vector<float> obs = positions.observations(game);

  OptimizerConfig optimizer;
  optimizer.optimizer = GetParam();
  optimizer.learning_rate = 5e-3;
  optimizer.total_steps = 50;
  Model model(tiny_network(2, 8), game, 5);
  Trainer trainer(model, optimizer);
  for (int i = 0; i < 3; ++i) trainer.step(batches[0]);  // moments and batch-norm statistics away from their start

  TempDir dir;
  const std::string path = dir / "model.pt";
  const CheckpointInfo info = sample_info(model, 3);
  save_checkpoint(path, model, &trainer, info);

  Checkpoint loaded = load_checkpoint(path);
  EXPECT_EQ(loaded.game->to_string(), game.to_string());
  EXPECT_EQ(loaded.info.game, info.game);
  EXPECT_EQ(loaded.info.network.blocks, 2);
  EXPECT_EQ(loaded.info.network.channels, 8);
  EXPECT_EQ(loaded.info.network.policy_channels, info.network.policy_channels);
  EXPECT_EQ(loaded.info.network.value_hidden, info.network.value_hidden);
  EXPECT_EQ(loaded.info.step, info.step);
  EXPECT_EQ(loaded.info.games, info.games);
  EXPECT_EQ(loaded.info.positions, info.positions);
  EXPECT_EQ(loaded.info.seconds, info.seconds);
  EXPECT_EQ(loaded.info.config_yaml, info.config_yaml);
  EXPECT_EQ(loaded.info.rng_states, info.rng_states);
  EXPECT_EQ(loaded.model.num_parameters(), model.num_parameters());
  EXPECT_TRUE(same_bits(predict_all(loaded.model, obs, 40), predict_all(model, obs, 40)));

  Trainer restored(loaded.model, optimizer);
  load_optimizer(path, restored);
  EXPECT_EQ(restored.steps(), 3);
  EXPECT_EQ(restored.learning_rate(), trainer.learning_rate());
  // The control: the same weights without the optimizer's moments take another step.
  Checkpoint control = load_checkpoint(path);
  Trainer forgetful(control.model, optimizer);
  forgetful.set_steps(3);

  for (int i = 1; i < 3; ++i) {
    const TrainLosses original = trainer.step(batches[i]);
    const TrainLosses resumed = restored.step(batches[i]);
    forgetful.step(batches[i]);
    EXPECT_EQ(resumed.total, original.total);
    EXPECT_EQ(resumed.policy, original.policy);
    EXPECT_EQ(resumed.value, original.value);
    EXPECT_TRUE(same_bits(predict_all(loaded.model, obs, 40), predict_all(model, obs, 40))) << "after step " << i;
    EXPECT_FALSE(same_bits(predict_all(control.model, obs, 40), predict_all(model, obs, 40))) << "after step " << i;
  }
  EXPECT_EQ(restored.steps(), trainer.steps());
}

INSTANTIATE_TEST_SUITE_P(Optimizers, CheckpointRoundTrip, ::testing::Values("adam", "sgd"));

TEST(Checkpoint, AnAgentOnLatestPtPicksUpANewerFile) {
  // A run replaces latest.pt by a rename; a player made from it later must play the newer
  // network, while an unchanged file is loaded once and shared.
  TempDir tmp;
  const Game& game = virus_war();
  const std::string latest = tmp / "latest.pt";
  const Model first(tiny_network(), game, 1), second(tiny_network(), game, 2);
  CheckpointInfo info{game.to_string(), tiny_network(), 1, 0, 0, 0, "", {}};
  save_checkpoint(latest, first, nullptr, info);
  const std::shared_ptr<const Model> a = cached_checkpoint_model(latest, game);
  EXPECT_EQ(cached_checkpoint_model(latest, game), a);
  info.step = 2;
  save_checkpoint(latest, second, nullptr, info);
  const std::shared_ptr<const Model> b = cached_checkpoint_model(latest, game);
  EXPECT_NE(b, a);
  const auto positions = random_positions(game, 2, 3);
  const auto obs = positions.observations(game);
  EXPECT_EQ(predict_all(*b, obs, 2), predict_all(second, obs, 2));
  EXPECT_EQ(predict_all(*a, obs, 2), predict_all(first, obs, 2));  // a player holding the old one keeps it
  std::filesystem::remove(latest);
  EXPECT_THROW(cached_checkpoint_model(latest, game), InputError);
}

TEST(Checkpoint, AnAgentPlaysItsRunsEvaluationSearch) {
  // agent:PATH plays the search its run evaluated with (read from the saved config), the
  // spec's keys on top; a checkpoint without a config plays default_agent_search.
  TempDir tmp;
  const Game& game = virus_war();
  const std::string with_config = tmp / "run.pt", bare = tmp / "bare.pt";
  const Model model(tiny_network(), game, 1);
  const TrainConfig run = parse_train_config(
      "game: virus_war\nsearch:\n  algorithm: puct\n  draw_value: -0.25\n  rollout_weight: 0.5\n"
      "evaluation:\n  simulations: 48\n",
      "test");
  save_checkpoint(with_config, model, nullptr, {game.to_string(), tiny_network(), 1, 0, 0, 0, run.yaml, {}});
  save_checkpoint(bare, model, nullptr, {game.to_string(), tiny_network(), 1, 0, 0, 0, "", {}});
  const SearchConfig searched = checkpoint_search(with_config, game);
  EXPECT_EQ(searched, run.eval_search);
  EXPECT_EQ(searched.algorithm, SearchAlgorithm::kPuct);
  EXPECT_EQ(searched.simulations, 48);
  EXPECT_EQ(searched.draw_value, -0.25f);
  EXPECT_EQ(searched.rollout_weight, 0.5f);
  EXPECT_EQ(searched.dirichlet_epsilon, 0.0f);
  EXPECT_EQ(checkpoint_search(bare, game), default_agent_search(game));
  // The spec's keys change the run's search, and a bad one names the player.
  EXPECT_NO_THROW(make_any_bot("agent:" + with_config + "(simulations=4)", game, 0));
  const std::string error = error_of([&] { make_any_bot("agent:" + with_config + ",rollout_weight=2", game, 0); });
  EXPECT_NE(error.find("rollout_weight"), std::string::npos) << error;
}

TEST(Checkpoint, AnAgentsCacheIsCappedWhereManyArePlayedAtOnce) {
  // Self-play holds a fixed opponent per concurrent game and shares one cache's worth of
  // positions among them: the cap lowers the run's (or the spec's) cache, never raises it.
  TempDir tmp;
  const Game& game = virus_war();
  const std::string path = tmp / "run.pt";
  const Model model(tiny_network(), game, 1);
  const TrainConfig run = parse_train_config("game: virus_war\nsearch:\n  cache_positions: 4096\n", "test");
  save_checkpoint(path, model, nullptr, {game.to_string(), tiny_network(), 1, 0, 0, 0, run.yaml, {}});
  const std::string agent = "agent:" + path;
  EXPECT_EQ(agent_search(agent, game, std::numeric_limits<int>::max()).cache_positions, 4096);
  EXPECT_EQ(agent_search(agent, game, 512).cache_positions, 512);
  EXPECT_EQ(agent_search(agent + "(cache_positions=100)", game, 512).cache_positions, 100);
  EXPECT_EQ(agent_search(agent + "(cache_positions=100,simulations=7)", game, 512).simulations, 7);
  EXPECT_EQ(agent_search(agent, game, 0).cache_positions, 0);
  const std::string error = error_of<InputError>([&] { agent_search("uct:200", game, 512); });
  EXPECT_NE(error.find("uct:200"), std::string::npos) << error;
}

TEST(Checkpoint, WithoutTrainerHasNoOptimizerState) {
  const Game& game = virus_war();
  Model model(tiny_network(), game, 1);
  TempDir dir;
  const std::string path = dir / "weights.pt";
  save_checkpoint(path, model, nullptr, sample_info(model, 0));
  EXPECT_EQ(load_checkpoint(path).info.step, 0);
  Trainer trainer(model, OptimizerConfig{});
  const std::string message = error_of<InputError>([&] { load_optimizer(path, trainer); });
  EXPECT_NE(message.find("'" + path + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("optimizer"), std::string::npos) << message;
}

TEST(Checkpoint, NetworksWithAndWithoutAuxiliaryHeadsRoundTrip) {
  const Game& game = virus_war();
  const std::vector<TrainBatch> batches = sample_batches(2, 32);
  TempDir dir;
  for (const bool heads : {false, true}) {
    SCOPED_TRACE(heads ? "with an ownership head, a spatial policy and the standings baseline" : "without heads");
    NetworkConfig network = tiny_network();
    network.ownership_head = heads;
    network.spatial_policy = heads;
    network.standings_baseline = heads;
    Model model(network, game, 5);
    Trainer trainer(model, OptimizerConfig{});
    trainer.step(batches[0]);
    const std::string path = dir / (heads ? "heads.pt" : "plain.pt");
    save_checkpoint(path, model, &trainer, sample_info(model, 1));
    // Without heads the file has none of their keys: it is a checkpoint as written
    // before heads existed, and loads as one.
    Checkpoint loaded = load_checkpoint(path);
    EXPECT_EQ(loaded.info.network.ownership_head, heads);
    EXPECT_FALSE(loaded.info.network.score_head);
    EXPECT_EQ(loaded.model.config().ownership_head, heads);
    EXPECT_EQ(loaded.model.config().spatial_policy, heads);
    EXPECT_EQ(loaded.model.config().standings_baseline, heads);
    EXPECT_TRUE(same_bits(predict_all(loaded.model, batches[1].obs, batches[1].size),
                          predict_all(model, batches[1].obs, batches[1].size)));
    // The head's weights come back too: the same ownership loss.
    Trainer again(loaded.model, OptimizerConfig{});
    load_optimizer(path, again);
    EXPECT_EQ(again.evaluate(batches[1]).ownership, trainer.evaluate(batches[1]).ownership);
    EXPECT_EQ(again.evaluate(batches[1]).ownership > 0, heads);
  }
}

// A tiny Virus War network's checkpoint at step 4, written into `dir`: its path.
std::string tiny_checkpoint_at_step_4(const TempDir& dir) {
  Model model(tiny_network(), virus_war(), 1);
  const std::string path = dir / "good.pt";
  save_checkpoint(path, model, nullptr, sample_info(model, 4));
  return path;
}

TEST(Checkpoint, MissingCorruptAndTruncatedFilesAreInputErrorsNamingTheFile) {
  TempDir dir;
  const std::string good = tiny_checkpoint_at_step_4(dir);
  const std::string bytes = nn_testing::file_text(good);
  ASSERT_GT(bytes.size(), 1000u);

  const std::string missing = dir / "missing.pt";
  std::string message = error_of<InputError>([&] { load_checkpoint(missing); });
  EXPECT_NE(message.find("'" + missing + "'"), std::string::npos) << message;
  EXPECT_NE(message.find("does not exist"), std::string::npos) << message;

  const std::string garbage = dir / "garbage.pt";
  nn_testing::write_text(garbage, "this is not a zip archive\n" + std::string(500, 'x'));
  message = error_of<InputError>([&] { load_checkpoint(garbage); });
  EXPECT_NE(message.find("'" + garbage + "'"), std::string::npos) << message;

  for (const std::size_t size : {std::size_t{0}, std::size_t{100}, bytes.size() / 2, bytes.size() - 30}) {
    const std::string truncated = dir / ("truncated_" + std::to_string(size) + ".pt");
    nn_testing::write_text(truncated, bytes.substr(0, size));
    message = error_of<InputError>([&] { load_checkpoint(truncated); });
    EXPECT_NE(message.find("'" + truncated + "'"), std::string::npos) << size << ": " << message;
  }
  // The good file is still good: the failures above come from the damage, not the reader.
  EXPECT_EQ(load_checkpoint(good).info.step, 4);
}

// The seal (a checksum of the whole file in its zip comment) is checked before LibTorch
// parses a byte: LibTorch compiles the TorchScript code inside an archive as it loads, and
// corrupt code can crash its parser (fuzz/random_checkpoint found a SEGV).
TEST(Checkpoint, EveryDamagedByteIsRefusedBeforeLibTorchParsesTheFile) {
  TempDir dir;
  const std::string good = tiny_checkpoint_at_step_4(dir);
  const std::string bytes = nn_testing::file_text(good);
  ASSERT_NE(bytes.find("boardlab-seal:"), std::string::npos);
  // Every byte of the TorchScript code and of the tail (directory, end record, seal), and
  // a spread over the rest.
  std::vector<std::size_t> positions;
  for (std::size_t at = bytes.find("code/"); at != std::string::npos; at = bytes.find("code/", at + 1))
    for (std::size_t i = at; i < std::min(bytes.size(), at + 400); i += 7) positions.push_back(i);
  for (std::size_t i = 0; i < bytes.size(); i += bytes.size() / 97) positions.push_back(i);
  for (std::size_t i = bytes.size() - 120; i < bytes.size(); ++i) positions.push_back(i);
  const std::string damaged = dir / "damaged.pt";
  for (const std::size_t i : positions) {
    std::string copy = bytes;
    copy[i] = static_cast<char>(copy[i] ^ 0x5A);
    nn_testing::write_text(damaged, copy);
    const std::string message = error_of<InputError>([&] { load_checkpoint(damaged); });
    EXPECT_TRUE(message.find("checksum mismatch") != std::string::npos ||
                message.find("not a zip archive") != std::string::npos)
        << "byte " << i << ": " << message;
  }
  EXPECT_GT(positions.size(), 300u);
  EXPECT_EQ(load_checkpoint(good).info.step, 4);
}

// Checkpoints written before seals have an empty zip comment; they load, checked by the
// content checksum alone.
TEST(Checkpoint, AnUnsealedCheckpointStillLoads) {
  TempDir dir;
  const std::string good = tiny_checkpoint_at_step_4(dir);
  std::string bytes = nn_testing::file_text(good);
  const std::size_t seal = bytes.rfind("boardlab-seal:");
  ASSERT_NE(seal, std::string::npos);
  bytes.resize(seal);
  bytes[seal - 2] = 0;  // the end record's comment length
  bytes[seal - 1] = 0;
  const std::string unsealed = dir / "unsealed.pt";
  nn_testing::write_text(unsealed, bytes);
  EXPECT_EQ(load_checkpoint(unsealed).info.step, 4);
}

// A child process writes checkpoints to one path in a loop and is SIGKILLed at a random
// moment of a write; the path must always hold a whole checkpoint, of a state that was written.
TEST(Checkpoint, WriterKilledMidWriteLeavesTheLastWholeCheckpoint) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  constexpr int kModels = 3;
  std::vector<Model> models;
  for (int i = 0; i < kModels; ++i) models.emplace_back(tiny_network(2, 16), game, 100 + i);
  const auto positions = random_positions(game, 8, 9);
  const std::vector<float> obs = positions.observations(game);
  std::vector<std::vector<float>> expected;
  for (const Model& m : models) expected.push_back(predict_all(m, obs, 8));

  TempDir dir;
  const std::string path = dir / "model.pt";
  const auto start = std::chrono::steady_clock::now();
  save_checkpoint(path, models[0], nullptr, sample_info(models[0], 0));
  // Kill times are drawn around one write's duration so that many land inside a write.
  const auto write_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  std::int64_t last_whole = 0;
  Rng rng(17);
  for (int round = 0; round < 10; ++round) {
    int pipe_fds[2];
    ASSERT_EQ(::pipe(pipe_fds), 0);
    const std::int64_t first = 1000 * (round + 1);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // The child only serializes and reports each finished write; it never returns into the test.
      ::close(pipe_fds[0]);
      try {
        for (std::int64_t step = first;; ++step) {
          save_checkpoint(path, models[step % kModels], nullptr, sample_info(models[step % kModels], step));
          if (::write(pipe_fds[1], &step, sizeof step) != sizeof step) ::_exit(3);
        }
      } catch (...) {
        ::_exit(2);
      }
    }
    ::close(pipe_fds[1]);
    std::int64_t reported = 0;
    ASSERT_EQ(::read(pipe_fds[0], &reported, sizeof reported), static_cast<ssize_t>(sizeof reported));
    EXPECT_EQ(reported, first);
    ::usleep(static_cast<useconds_t>(rng.below(static_cast<std::uint32_t>(3 * write_us + 1000))));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "the writer failed before it was killed";
    std::int64_t step = 0;
    while (::read(pipe_fds[0], &step, sizeof step) == static_cast<ssize_t>(sizeof step)) reported = step;
    ::close(pipe_fds[0]);

    // The last reported write, or the one after it when the kill came between its rename and its report.
    std::optional<Checkpoint> loaded;
    try {
      loaded.emplace(load_checkpoint(path));
    } catch (const std::exception& e) {
      FAIL() << "round " << round << ": the checkpoint does not load: " << e.what();
    }
    const std::int64_t got = loaded->info.step;
    EXPECT_TRUE(got == reported || got == reported + 1) << "round " << round << ": " << got << " vs " << reported;
    const CheckpointInfo want = sample_info(models[got % kModels], got);
    EXPECT_EQ(loaded->info.games, want.games);
    EXPECT_EQ(loaded->info.rng_states, want.rng_states);
    EXPECT_TRUE(same_bits(predict_all(loaded->model, obs, 8), expected[got % kModels])) << "step " << got;
    last_whole = got;
  }

  // Killed writers leave temporary files behind; a stale one under the very name the next
  // write uses must neither be read as the checkpoint nor block that write.
  const std::string stale = temporary_path_for(path);
  nn_testing::write_text(stale, "half a checkpoint");
  EXPECT_EQ(load_checkpoint(path).info.step, last_whole);
  save_checkpoint(path, models[1], nullptr, sample_info(models[1], 7));
  const Checkpoint rewritten = load_checkpoint(path);
  EXPECT_EQ(rewritten.info.step, 7);
  EXPECT_TRUE(same_bits(predict_all(rewritten.model, obs, 8), expected[1]));
  EXPECT_FALSE(std::filesystem::exists(stale));
}

// A full disk during a write: LibTorch's file writer threw from its destructor and aborted
// the process (SIGABRT, "unexpected pos"); now one line names the file and the reason, the
// previous checkpoint stays whole and no temporary file is left.
TEST(Checkpoint, AFullDiskIsOneLineAndKeepsThePreviousCheckpoint) {
  const Game& game = virus_war();
  Model model(tiny_network(1, 8), game, 3);
  Trainer trainer(model, OptimizerConfig{});
  TempDir dir;
  const std::string path = dir / "step.pt";
  save_checkpoint(path, model, &trainer, sample_info(model, 4));
  const auto size = std::filesystem::file_size(path);
  for (const rlim_t limit : {rlim_t{0}, static_cast<rlim_t>(size / 2), static_cast<rlim_t>(size - 1)}) {
    std::string message;
    {
      const FileSizeLimit full(limit);
      message = error_of<FileError>([&] { save_checkpoint(path, model, &trainer, sample_info(model, 8)); });
    }
    EXPECT_EQ(message, "checkpoint not saved: cannot write '" + path + "': File too large") << "limit " << limit;
    EXPECT_EQ(load_checkpoint(path).info.step, 4);
    EXPECT_TRUE(nn_testing::temporary_files(dir.path()).empty());
  }
  save_checkpoint(path, model, &trainer, sample_info(model, 8));
  EXPECT_EQ(load_checkpoint(path).info.step, 8);
}

}  // namespace
}  // namespace boardlab
