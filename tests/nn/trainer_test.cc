// Tests for the learner: a small network overfits a fixed batch of Virus War positions.
#include "nn/trainer.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::random_selfplay_game;
using nn_testing::tiny_network;
using nn_testing::virus_war;

TEST(Trainer, LossFallsOnAFixedBatch) {
  Model::set_torch_threads(1);
  const Game& game = virus_war();
  ReplayBuffer replay(game, 100000);
  Rng rng(7);
  while (replay.positions() < 300) replay.add(random_selfplay_game(game, rng));
  TrainBatch batch;
  replay.sample(256, rng, /*augment=*/false, batch);

  Model model(tiny_network(1, 8), game, 3);
  OptimizerConfig config;
  config.learning_rate = 1e-2;
  config.schedule = "constant";
  config.weight_decay = 0;
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
