// The training run's steps one at a time: opening, advancing, evaluations, checkpoints and the end.
#include "nn/training_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "nn/checkpoint.h"
#include "nn_test_util.h"
#include "tiny_run.h"

namespace boardlab {
namespace {

namespace fs = std::filesystem;
using nn_testing::file_text;
using nn_testing::options;
using nn_testing::TempDir;
using nn_testing::tiny;

bool logged(const std::vector<std::string>& log, const std::string& text) {
  return std::any_of(log.begin(), log.end(), [&](const std::string& line) { return line.find(text) != std::string::npos; });
}

// Advances until the run has trained `steps` steps (or a minute has passed, which fails).
void advance_to(TrainingRun& run, std::int64_t steps) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (run.step() < steps && std::chrono::steady_clock::now() < deadline) run.advance();
  ASSERT_EQ(run.step(), steps);
}

TEST(TrainingRun, OpeningANewRunWritesItsConfigAndPlaysNothingYet) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  TrainingRun run(options(tmp / "run", tiny({"run.max_steps=3"}), &log), me);
  EXPECT_EQ(run.step(), 0);
  EXPECT_EQ(run.dir(), tmp / "run");
  EXPECT_EQ(run.config().run.max_steps, 3);
  EXPECT_EQ(file_text(tmp / "run/config.yaml"), run.config().yaml);
  EXPECT_FALSE(fs::exists(tmp / "run/checkpoints/latest.pt"));
  EXPECT_TRUE(logged(log, "training virus_war"));
  EXPECT_TRUE(run.running());
}

TEST(TrainingRun, AdvancingTrainsOnlyOnceTheReplayHoldsEnough) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  TrainingRun run(options(tmp / "run", tiny({"replay.min_positions=100000"}), &log), me);
  run.start();
  for (int i = 0; i < 50; ++i) run.advance();
  EXPECT_EQ(run.step(), 0);
  run.finish();
}

TEST(TrainingRun, ACheckpointHoldsItsMomentAndFinishingAddsTheLastOne) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  TrainingRun run(options(tmp / "run", tiny({"run.max_steps=100", "checkpoint.every_steps=1000"}), &log), me);
  run.start();
  advance_to(run, 2);
  run.checkpoint();
  EXPECT_EQ(load_checkpoint(tmp / "run/checkpoints/latest.pt").info.step, 2);
  advance_to(run, 3);
  const TrainSummary summary = run.finish();
  EXPECT_EQ(summary.steps, 3);
  EXPECT_FALSE(summary.stopped);
  EXPECT_FALSE(summary.final_evaluation.empty());  // every_steps 0: one evaluation, at the end
  EXPECT_EQ(load_checkpoint(summary.latest_checkpoint).info.step, 3);
  EXPECT_TRUE(logged(log, "finished at step 3"));
}

TEST(TrainingRun, AnEvaluationWritesItsRowAtItsStep) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  TrainingRun run(options(tmp / "run", tiny({"run.max_steps=100"}), &log), me);
  run.start();
  advance_to(run, 1);
  ASSERT_TRUE(run.evaluate());
  EXPECT_TRUE(fs::exists(tmp / "run/evaluation/step_000000001.json"));
  const MetricsRow row = run.write_row(std::nullopt);
  EXPECT_EQ(row.at("step"), "1");
  const std::string metrics = file_text(tmp / "run/metrics.csv");
  EXPECT_NE(metrics.find("\n1,"), std::string::npos) << metrics;
  run.finish();
}

TEST(TrainingRun, OnceItsTimeIsSpentItStopsAndEvaluatesNoMore) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  TrainingRun run(options(tmp / "run", tiny({"run.max_minutes=0.001", "run.max_steps=100"}), &log), me);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_FALSE(run.running());
  run.start();
  EXPECT_FALSE(run.evaluate());
  EXPECT_TRUE(logged(log, "run.max_minutes is spent"));
  EXPECT_TRUE(run.finish().final_evaluation.empty());
}

// A run that reaches its limit before its first evaluation would otherwise have no time left
// for the final one and end unevaluated.
TEST(TrainingRun, BeforeItsFirstEvaluationItHoldsATenthOfItsTimeForTheFinalOne) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  // 6 s: the run must stop training once 5.4 s have passed, 0.6 s before its limit.
  TrainingRun run(options(tmp / "run", tiny({"run.max_minutes=0.1", "run.max_steps=100"}), &log), me);
  std::this_thread::sleep_for(std::chrono::milliseconds(5450));
  EXPECT_FALSE(run.running());
  run.start();
  run.finish();
}

TEST(TrainingRun, ARefusedResumeLeavesTheFolderAsItWas) {
  TempDir tmp;
  std::vector<std::string> log;
  RankInfo me;
  TrainingRun(options(tmp / "run", tiny({"run.max_steps=1"}), &log), me).run();
  const std::string config = file_text(tmp / "run/config.yaml");
  TrainOptions again = options(tmp / "run", {"network.channels=16"}, &log);
  again.resume = true;
  EXPECT_THROW((TrainingRun{again, me}), InputError);
  EXPECT_EQ(file_text(tmp / "run/config.yaml"), config);
}

}  // namespace
}  // namespace boardlab
