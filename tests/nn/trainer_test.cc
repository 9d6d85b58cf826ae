// Tests for the learner: a small network overfits a fixed batch of Virus War positions.
#include "nn/trainer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "games/registry.h"
#include "tests/error_of.h"
#include "tests/toys/toys.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::random_selfplay_game;
using nn_testing::tiny_network;
using nn_testing::virus_war;

// A constant, fast learning rate and no weight decay: a tiny network fits a fixed batch quickly.
OptimizerConfig fast_fit() {
  OptimizerConfig config;
  config.learning_rate = 1e-2;
  config.schedule = "constant";
  config.weight_decay = 0;
  return config;
}

// `size` positions sampled, without augmentation, from random games of at least `positions` positions.
TrainBatch random_play_batch(const Game& game, std::int64_t positions, int size, std::uint64_t seed) {
  ReplayBuffer replay(game, 100000);
  Rng rng(seed);
  while (replay.positions() < positions) replay.add(random_selfplay_game(game, rng));
  TrainBatch batch;
  replay.sample(size, rng, /*augment=*/false, batch);
  return batch;
}

TEST(Trainer, LossFallsOnAFixedBatch) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const TrainBatch batch = random_play_batch(game, 300, 256, 7);

  Model model(tiny_network(1, 8), game, 3);
  const OptimizerConfig config = fast_fit();
  Trainer trainer(model, config);
  const TrainLosses before = trainer.evaluate(batch);
  // A fresh network guesses: its policy loss is near log(legal actions), its value error near 1.
  EXPECT_GT(before.policy, 2.0);
  for (int i = 0; i < 100; ++i) trainer.step(batch);
  const TrainLosses after = trainer.evaluate(batch);
  EXPECT_EQ(trainer.steps(), 100);
  EXPECT_LT(after.total, 0.5 * before.total) << "before " << before.total << ", after " << after.total;
  EXPECT_LT(after.policy, 0.5 * before.policy);
  EXPECT_LT(after.value, before.value);
}

TEST(Trainer, AStepOnTheSameBatchTwiceIsAStepOnIt) {
  // Several batches average their gradients and running statistics: the same batch twice
  // must give what it gives once (the MPI test, tests/mpi/learners_test.cc, checks two
  // ranks against two different batches).
  const Game& game = virus_war();
  const TrainBatch batch = random_play_batch(game, 200, 32, 3);
  Model once(tiny_network(), game, 4), twice(tiny_network(), game, 4);
  Trainer a(once, OptimizerConfig{}), b(twice, OptimizerConfig{});
  for (int i = 0; i < 3; ++i) {
    const TrainLosses one = a.step(batch);
    const TrainLosses two = b.step(std::vector<const TrainBatch*>{&batch, &batch});
    EXPECT_NEAR(one.total, two.total, 1e-5);
    EXPECT_EQ(one.policy_examples * 2, two.policy_examples);
  }
  EXPECT_LT(nn_testing::largest_weight_difference(once.weights(), twice.weights()), 1e-4);
}

TEST(Trainer, ANonFiniteLossStopsTrainingWithTheWeightsUntouched) {
  // A diverged step put NaN into every weight and every checkpoint after it; the step is
  // refused before the update instead, and the network keeps its last good weights.
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const TrainBatch batch = random_play_batch(game, 100, 32, 8);
  Model model(tiny_network(1, 8), game, 3);
  Trainer trainer(model, fast_fit());
  trainer.step(batch);
  const auto positions = nn_testing::random_positions(game, 8, 4);
  const std::vector<float> obs = positions.observations(game);
  const std::vector<float> before = nn_testing::predict_all(model, obs, 8);
  TrainBatch poisoned = batch;
  poisoned.value[0] = std::nanf("");
  const std::string message = error_of<InputError>([&] { trainer.step(poisoned); });
  EXPECT_NE(message.find("training diverged at step 2: the loss is not finite (policy "), std::string::npos) << message;
  EXPECT_NE(message.find("keep their last good weights"), std::string::npos) << message;
  EXPECT_EQ(trainer.steps(), 1);
  EXPECT_EQ(nn_testing::predict_all(model, obs, 8), before);
  // An input that overflows the forward pass: an infinite observation.
  poisoned = batch;
  poisoned.obs[0] = std::numeric_limits<float>::infinity();
  EXPECT_NE(error_of<InputError>([&] { trainer.step(poisoned); }).find("is not finite"), std::string::npos);
  EXPECT_EQ(nn_testing::predict_all(model, obs, 8), before);
  trainer.step(batch);  // and training goes on from the good weights
  EXPECT_EQ(trainer.steps(), 2);
}

// A batch of `n` Virus War examples from random games, with phases, policy weights and root values set.
TrainBatch diagnostic_batch(int n, std::uint64_t seed) {
  TrainBatch batch = random_play_batch(virus_war(), 300, n, seed);
  for (int i = 0; i < n; ++i) {
    batch.policy_weight[static_cast<std::size_t>(i)] = i % 3 == 0 ? 0.0f : 1.0f;
    batch.root_value[2 * static_cast<std::size_t>(i)] = 0.1f * static_cast<float>(i % 5) - 0.2f;
  }
  return batch;
}

TEST(Trainer, DiagnosticsMatchTheNetworksOwnPredictionsComputedByHand) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const TrainBatch batch = diagnostic_batch(24, 5);
  Model model(tiny_network(1, 8), game, 4);
  OptimizerConfig config;
  config.value_target_mix = 0.25;
  config.weight_decay = 0;
  Trainer trainer(model, config);
  const TrainLosses losses = trainer.evaluate(batch);

  const int n = batch.size, actions = game.num_distinct_actions();
  std::vector<float> logits(static_cast<std::size_t>(n * actions)), values(static_cast<std::size_t>(n * 2));
  model.predict(batch.obs.data(), n, logits.data(), values.data());
  double ce = 0, kl = 0, entropy = 0, target_entropy = 0, weights = 0, value_error = 0;
  std::array<double, kGamePhases> count{}, predicted{}, outcome{}, mse{};
  for (int i = 0; i < n; ++i) {
    const auto row = static_cast<std::size_t>(i * actions);
    double top = -1e30, z = 0;
    for (int a = 0; a < actions; ++a)
      if (batch.mask[row + a] > 0) top = std::max(top, static_cast<double>(logits[row + a]));
    for (int a = 0; a < actions; ++a)
      if (batch.mask[row + a] > 0) z += std::exp(logits[row + a] - top);
    double example_ce = 0, example_h = 0, example_target_h = 0;
    for (int a = 0; a < actions; ++a) {
      if (batch.mask[row + a] <= 0) continue;
      const double log_p = logits[row + a] - top - std::log(z);
      const double pi = batch.policy[row + a];
      example_ce -= pi * log_p;
      example_h -= std::exp(log_p) * log_p;
      if (pi > 0) example_target_h -= pi * std::log(pi);
    }
    const double w = batch.policy_weight[static_cast<std::size_t>(i)];
    weights += w;
    ce += w * example_ce;
    entropy += w * example_h;
    target_entropy += w * example_target_h;
    kl += w * (example_ce - example_target_h);
    for (int j = 0; j < 2; ++j) {
      const auto k = static_cast<std::size_t>(2 * i + j);
      const double target = 0.75 * batch.value[k] + 0.25 * batch.root_value[k];
      value_error += (values[k] - target) * (values[k] - target);
    }
    const int phase = batch.phase[static_cast<std::size_t>(i)];
    const double v = values[2 * static_cast<std::size_t>(i)], r = batch.value[2 * static_cast<std::size_t>(i)];
    count[phase] += 1;
    predicted[phase] += v;
    outcome[phase] += r;
    mse[phase] += (v - r) * (v - r);
  }
  EXPECT_EQ(weights, 16);
  EXPECT_EQ(losses.policy_examples, 16);
  EXPECT_NEAR(losses.policy, ce / weights, 1e-4);
  EXPECT_NEAR(losses.policy_kl, kl / weights, 1e-4);
  EXPECT_NEAR(losses.policy_entropy, entropy / weights, 1e-4);
  EXPECT_NEAR(losses.policy_target_entropy, target_entropy / weights, 1e-4);
  EXPECT_NEAR(losses.policy_kl, losses.policy - losses.policy_target_entropy, 1e-5);
  EXPECT_GT(losses.policy_kl, 0.0);
  // The value error is against the mixed target: 3/4 of the result, 1/4 of the root value.
  EXPECT_NEAR(losses.value, value_error / (2 * n), 1e-5);
  int phases_seen = 0;
  for (int k = 0; k < kGamePhases; ++k) {
    const ValueCalibration& c = losses.value_by_phase[static_cast<std::size_t>(k)];
    EXPECT_EQ(c.examples, static_cast<int>(count[k])) << "phase " << k;
    if (count[k] == 0) continue;
    ++phases_seen;
    EXPECT_NEAR(c.predicted, predicted[k] / count[k], 1e-5) << "phase " << k;
    EXPECT_NEAR(c.outcome, outcome[k] / count[k], 1e-6) << "phase " << k;
    EXPECT_NEAR(c.mse, mse[k] / count[k], 1e-5) << "phase " << k;
  }
  EXPECT_GE(phases_seen, 2);
}

TEST(Trainer, AnExampleOfPolicyWeightZeroGivesNoPolicyGradient) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const TrainBatch batch = diagnostic_batch(12, 6);
  ASSERT_EQ(batch.policy_weight[0], 0.0f);
  // The same batch with example 0's policy target moved to another legal action.
  TrainBatch changed = batch;
  const int actions = game.num_distinct_actions();
  std::fill(changed.policy.begin(), changed.policy.begin() + actions, 0.0f);
  int last_legal = actions - 1;
  while (changed.mask[static_cast<std::size_t>(last_legal)] <= 0) --last_legal;
  changed.policy[static_cast<std::size_t>(last_legal)] = 1.0f;
  ASSERT_NE(changed.policy, batch.policy);

  const auto after_step = [&](const TrainBatch& b) {
    Model model(tiny_network(1, 8), game, 9);
    Trainer trainer(model, OptimizerConfig{});
    trainer.step(b);
    std::vector<float> logits(static_cast<std::size_t>(b.size * actions)), values(static_cast<std::size_t>(b.size * 2));
    model.predict(b.obs.data(), b.size, logits.data(), values.data());
    logits.insert(logits.end(), values.begin(), values.end());
    return logits;
  };
  EXPECT_EQ(after_step(batch), after_step(changed));
  // With weight 1 the changed target moves the network.
  TrainBatch weighted = batch, weighted_changed = changed;
  weighted.policy_weight[0] = weighted_changed.policy_weight[0] = 1.0f;
  EXPECT_NE(after_step(weighted), after_step(weighted_changed));
}

TEST(Trainer, ValueTargetMixNeedsRootValuesAndARangeOfZeroToOne) {
  const Game& game = virus_war();
  Model model(tiny_network(), game, 1);
  OptimizerConfig config;
  config.value_target_mix = 1.5;
  EXPECT_EQ(error_of<InputError>([&] { Trainer(model, config); }), "training: value_target_mix must lie in [0, 1], got 1.500000");
  config.value_target_mix = 0.5;
  Trainer trainer(model, config);
  TrainBatch batch = diagnostic_batch(4, 2);
  batch.root_value.clear();
  EXPECT_EQ(error_of<InputError>([&] { trainer.evaluate(batch); }),
            "training: value_target_mix needs root values, and the batch has none");
}

TEST(Trainer, AnOwnershipHeadLearnsTheFinalOwnersAndInferenceIgnoresIt) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const TrainBatch batch = diagnostic_batch(64, 8);
  ASSERT_EQ(batch.ownership.size(), 64u * 100);
  NetworkConfig with_head = tiny_network(1, 8);
  with_head.ownership_head = true;
  Model model(with_head, game, 3);
  OptimizerConfig config = fast_fit();
  config.ownership_loss_weight = 2.0;
  Trainer trainer(model, config);
  const TrainLosses before = trainer.evaluate(batch);
  EXPECT_GT(before.ownership, 0.1);
  EXPECT_NEAR(before.total, before.policy + before.value + 2.0 * before.ownership, 1e-4);
  for (int i = 0; i < 60; ++i) trainer.step(batch);
  const TrainLosses after = trainer.evaluate(batch);
  EXPECT_LT(after.ownership, 0.5 * before.ownership) << "before " << before.ownership << ", after " << after.ownership;

  // A network without the head has no ownership loss, and the same trunk predicts the
  // same with or without it: inference never runs the head.
  Model plain(tiny_network(1, 8), game, 3);
  EXPECT_EQ(Trainer(plain, config).evaluate(batch).ownership, 0.0);
  Model headed(with_head, game, 3);
  EXPECT_EQ(nn_testing::predict_all(headed, batch.obs, batch.size), nn_testing::predict_all(plain, batch.obs, batch.size));
  EXPECT_GT(headed.num_parameters(), plain.num_parameters());

  TrainBatch missing = batch;
  missing.ownership.clear();
  EXPECT_EQ(error_of<InputError>([&] { trainer.evaluate(missing); }),
            "training: the network has an ownership head, and the batch has no ownership targets of its shape");
  NetworkConfig score_head = tiny_network(1, 8);
  score_head.score_head = true;
  EXPECT_EQ(error_of<InputError>([&] { Model(score_head, game, 1); }),
            "network: a score head needs a game that declares a final score, and virus_war does not");
}

TEST(Trainer, ASpatialPolicyHeadScoresEachActionFromItsCellsSurroundings) {
  // Without residual blocks the trunk sees 3×3 cells, so the logit of a Squares placement
  // reads the input only around its lower-left cell (its slot in the layout). Changing the
  // input at one cell moves the logits of the placements anchored next to it, and of the
  // board-wide pass, and of no other action.
  Model::set_torch_threads(1);
  const auto game = load_game("squares");
  NetworkConfig network = tiny_network(0, 6);
  network.spatial_policy = true;
  const Model model(network, *game, 3);
  EXPECT_LT(model.num_parameters(), 2000);  // the linear head alone would hold 2 · 400 · 1166 weights
  const auto state = game->load_record("4c5/6m10");
  const ObservationShape shape = game->observation_shape();
  std::vector<float> obs(static_cast<std::size_t>(shape.size()));
  state->observation(0, obs);
  const std::vector<float> before = nn_testing::predict_all(model, obs, 1);
  const int qx = 7, qy = 12;
  for (int c = 0; c < shape.channels; ++c) obs[static_cast<std::size_t>(c * shape.cells() + qy * shape.width + qx)] += 3.0f;
  const std::vector<float> after = nn_testing::predict_all(model, obs, 1);
  const ActionLayout layout = game->traits().action_layout;
  int near_changed = 0;
  for (Action a = 0; a < game->num_distinct_actions(); ++a) {
    const bool changed = before[a] != after[a];
    if (layout.slot[a] < 0) {
      EXPECT_TRUE(changed) << "the pass reads the whole board";
      continue;
    }
    const int cell = layout.slot[a] % shape.cells();
    const bool near = std::abs(cell % shape.width - qx) <= 1 && std::abs(cell / shape.width - qy) <= 1;
    if (!near) {
      EXPECT_FALSE(changed) << state->action_to_string(0, a) << " is anchored away from the changed cell";
    }
    near_changed += near && changed;
  }
  EXPECT_GT(near_changed, 5);

  NetworkConfig no_layout = tiny_network(1, 8);
  no_layout.spatial_policy = true;
  EXPECT_EQ(error_of<InputError>([&] { Model(no_layout, *load_game("morabaraba"), 1); }),
            "network: a spatial policy head (network.spatial_policy) needs a game that declares where its actions "
            "lie on the board, and morabaraba does not");
}

TEST(Trainer, ASpatialPolicyHeadLearns) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  const TrainBatch batch = random_play_batch(game, 300, 256, 7);
  NetworkConfig network = tiny_network(1, 8);
  network.spatial_policy = true;
  Model model(network, game, 3);
  Trainer trainer(model, fast_fit());
  const TrainLosses before = trainer.evaluate(batch);
  for (int i = 0; i < 100; ++i) trainer.step(batch);
  const TrainLosses after = trainer.evaluate(batch);
  EXPECT_LT(after.policy, 0.5 * before.policy) << "before " << before.policy << ", after " << after.policy;
}

TEST(Trainer, AScoreHeadLearnsTheScoreMargin) {
  Model::set_torch_threads(1);
  const std::shared_ptr<const Game> game = load_toy("toy_race");
  const TrainBatch batch = random_play_batch(*game, 300, 128, 4);
  NetworkConfig network = tiny_network(1, 8);
  network.score_head = true;
  Model model(network, *game, 2);
  const OptimizerConfig config = fast_fit();
  Trainer trainer(model, config);
  const TrainLosses before = trainer.evaluate(batch);
  EXPECT_GT(before.score, 0.0);
  EXPECT_EQ(before.ownership, 0.0);
  for (int i = 0; i < 80; ++i) trainer.step(batch);
  EXPECT_LT(trainer.evaluate(batch).score, 0.7 * before.score);
}

TEST(Trainer, TheScheduleAnnealsByWhicheverLimitEndsTheRunFirst) {
  const Game& game = virus_war();
  Model model(tiny_network(), game, 1);
  OptimizerConfig config;
  config.learning_rate = 1e-3;
  config.schedule = "cosine";
  config.lr_final_fraction = 0.1;
  config.total_steps = 1000;
  Trainer trainer(model, config);
  EXPECT_DOUBLE_EQ(trainer.learning_rate(), 1e-3);
  trainer.set_steps(500);  // halfway by steps: the cosine's midpoint
  EXPECT_NEAR(trainer.learning_rate(), 0.55e-3, 1e-12);
  trainer.set_time_fraction(0.25);  // the clock is behind the steps: steps rule
  EXPECT_NEAR(trainer.learning_rate(), 0.55e-3, 1e-12);
  trainer.set_time_fraction(1.0);  // the clock ends the run at step 500: fully annealed
  EXPECT_NEAR(trainer.learning_rate(), 0.1e-3, 1e-12);
  trainer.set_time_fraction(1.7);  // a final evaluation past the limit stays at the end
  EXPECT_NEAR(trainer.learning_rate(), 0.1e-3, 1e-12);
}

TEST(Trainer, RejectsABatchOfAnotherShape) {
  const Game& game = virus_war();
  Model model(tiny_network(), game, 1);
  Trainer trainer(model, OptimizerConfig{});
  TrainBatch batch;
  batch.size = 2;
  batch.obs.assign(2 * 10, 0.0f);  // far fewer floats than two observations
  batch.policy.assign(2 * 101, 0.0f);
  batch.mask.assign(2 * 101, 1.0f);
  batch.value.assign(2 * 2, 0.0f);
  EXPECT_THROW(trainer.step(batch), InputError);
  EXPECT_EQ(trainer.steps(), 0);
}

}  // namespace
}  // namespace boardlab
