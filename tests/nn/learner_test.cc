// Tests for the learner alone: the replay ratio it keeps, the debt it forgives, its snapshots and metrics.
#include "nn/learner.h"

#include <gtest/gtest.h>

#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::random_selfplay_game;
using nn_testing::tiny_network;
using nn_testing::virus_war;

struct Fixture {
  Model model{tiny_network(), virus_war(), 3};
  Trainer trainer{model, OptimizerConfig{}};
  ReplayBuffer replay{virus_war(), 100000};
  Rng rng{5};
  std::int64_t add_games(int n) {
    std::int64_t positions = 0;
    for (int i = 0; i < n; ++i) {
      const SelfPlayGame game = random_selfplay_game(virus_war(), rng);
      positions += static_cast<std::int64_t>(game.positions.size());
      replay.add(game);
    }
    return positions;
  }
};

// One sample a position, a batch of 8 from the first position on (every field is set: the
// defaults live in TrainConfig).
constexpr LearnerOptions kOneStepAPosition{.batch_size = 8,
                                           .samples_per_position = 1,
                                           .min_positions = 1,
                                           .lead_positions = 2000,
                                           .augment = true,
                                           .threads = 1,
                                           .learners = 1};

TEST(Learner, KeepsTheReplayRatioFromWhenTheBufferFirstHoldsEnough) {
  Fixture f;
  const LearnerOptions options{
      .batch_size = 8, .samples_per_position = 0.5, .min_positions = 50, .lead_positions = 40, .augment = false,
      .threads = 1, .learners = 1};
  Learner learner(f.model, f.trainer, f.replay, options, Rng(1));
  // Filling: no step, and however much self-play searched meanwhile, no debt.
  learner.observe(1000);
  EXPECT_FALSE(learner.may_step(1000));
  EXPECT_FALSE(learner.actors_ahead(1000));
  const std::int64_t held = f.add_games(2);
  ASSERT_GE(held, 50);
  std::int64_t produced = 5000;
  learner.observe(produced);
  // The first batch is owed at once, the next only after batch / ratio more positions.
  ASSERT_TRUE(learner.may_step(produced));
  learner.step();
  EXPECT_FALSE(learner.may_step(produced));
  produced += 15;  // 7.5 samples owed: less than a batch
  EXPECT_FALSE(learner.may_step(produced));
  produced += 1;
  EXPECT_TRUE(learner.may_step(produced));
  learner.step();
  EXPECT_EQ(learner.steps(), 2);
  // Self-play waits once it is more than lead_positions ahead of the ratio.
  EXPECT_FALSE(learner.actors_ahead(produced + 40));
  EXPECT_TRUE(learner.actors_ahead(produced + 41));
  // After the start, observe() forgives nothing more.
  learner.observe(produced + 1000);
  EXPECT_TRUE(learner.actors_ahead(produced + 1000));
}

TEST(Learner, AStepOfSeveralLearnersDrawsABatchForEach) {
  Fixture f;
  // Two learners (distributed.learners): each step draws 2 × 8 samples, which at 0.5
  // samples a position take 32 new positions to owe.
  const LearnerOptions options{.batch_size = 8,
                               .samples_per_position = 0.5,
                               .min_positions = 50,
                               .lead_positions = 40,
                               .augment = false,
                               .threads = 1,
                               .learners = 2};
  Learner learner(f.model, f.trainer, f.replay, options, Rng(1));
  ASSERT_GE(f.add_games(2), 50);
  std::int64_t produced = 100;
  learner.observe(produced);
  ASSERT_TRUE(learner.may_step(produced));
  learner.step();
  produced += 31;
  EXPECT_FALSE(learner.may_step(produced));
  produced += 1;
  EXPECT_TRUE(learner.may_step(produced));
  EXPECT_EQ(learner.take_metrics(64).at("samples_per_position"), "0.25");  // 1 step × 16 samples / 64
  // A step (16 samples) is more than the lead allows (40 positions × 0.5 = 20 is not, but
  // 10 would be): held actors must always leave the learner a step to take, or both wait.
  Fixture g;  // a trainer at step 0
  ASSERT_GE(g.add_games(2), 50);
  Learner tight(g.model, g.trainer, g.replay,
                {.batch_size = 8, .samples_per_position = 0.5, .min_positions = 50, .lead_positions = 10, .learners = 2},
                Rng(2));
  tight.observe(0);
  ASSERT_TRUE(tight.may_step(0));  // the first step is owed at once; after it, none until 32 positions
  tight.step();
  for (std::int64_t p = 0; p < 200; ++p) {
    if (tight.actors_ahead(p)) {
      EXPECT_TRUE(tight.may_step(p)) << "actors held at " << p << " positions with no step owed";
    }
  }
}

TEST(Learner, MetricsAverageTheStepsSinceTheLastRow) {
  Fixture f;
  f.add_games(2);
  Learner learner(f.model, f.trainer, f.replay, kOneStepAPosition, Rng(2));
  MetricsRow row = learner.take_metrics(0);
  EXPECT_FALSE(row.contains("policy_loss"));  // no step yet
  EXPECT_FALSE(row.contains("samples_per_position"));
  EXPECT_TRUE(row.contains("learning_rate"));
  const TrainLosses a = learner.step();
  const TrainLosses b = learner.step();
  row = learner.take_metrics(32);
  EXPECT_NEAR(std::stod(row.at("policy_loss")), (a.policy + b.policy) / 2, 1e-4);
  EXPECT_NEAR(std::stod(row.at("value_loss")), (a.value + b.value) / 2, 1e-4);
  EXPECT_EQ(row.at("samples_per_position"), "0.50");  // 2 steps × 8 over 32 positions
  // Policy diagnostics weighted by the examples whose policy trained (all of them here).
  EXPECT_NEAR(std::stod(row.at("policy_kl")), (a.policy_kl + b.policy_kl) / 2, 1e-4);
  EXPECT_NEAR(std::stod(row.at("policy_entropy")), (a.policy_entropy + b.policy_entropy) / 2, 1e-4);
  EXPECT_NEAR(std::stod(row.at("policy_kl")),
              std::stod(row.at("policy_loss")) - std::stod(row.at("policy_target_entropy")), 1e-3);
  // Value calibration by phase, weighted by each phase's examples.
  for (const char* phase : {"opening", "middle", "end"}) {
    double examples = 0, mse = 0;
    for (const TrainLosses* l : {&a, &b}) {
      const ValueCalibration& c = l->value_by_phase[phase == std::string("opening") ? 0 : phase == std::string("middle") ? 1 : 2];
      examples += c.examples;
      mse += c.examples * c.mse;
    }
    if (examples == 0) continue;
    EXPECT_NEAR(std::stod(row.at(std::string("value_mse_") + phase)), mse / examples, 1e-3) << phase;
  }
  for (const auto& [name, value] : row)
    EXPECT_NE(std::find(Learner::metric_columns().begin(), Learner::metric_columns().end(), name),
              Learner::metric_columns().end())
        << name;
  EXPECT_FALSE(learner.take_metrics(32).contains("policy_loss"));  // taken
}

TEST(Learner, SnapshotsAreFrozenCopies) {
  Fixture f;
  f.add_games(2);
  Learner learner(f.model, f.trainer, f.replay, kOneStepAPosition, Rng(3));
  const std::shared_ptr<const Model> before = learner.snapshot();
  const nn_testing::Positions positions = nn_testing::random_positions(virus_war(), 3, 4);
  const std::vector<float> obs = positions.observations(virus_war());
  const std::vector<float> frozen = nn_testing::predict_all(*before, obs, 3);
  EXPECT_EQ(frozen, nn_testing::predict_all(f.model, obs, 3));
  for (int i = 0; i < 5; ++i) learner.step();
  EXPECT_EQ(nn_testing::predict_all(*before, obs, 3), frozen);  // training did not touch it
  EXPECT_NE(nn_testing::predict_all(f.model, obs, 3), frozen);
  EXPECT_EQ(nn_testing::predict_all(*learner.snapshot(), obs, 3), nn_testing::predict_all(f.model, obs, 3));
}

}  // namespace
}  // namespace boardlab
