// Tests for a run's evaluations alone: files, scores, draws and passes, the previous network, metrics columns.
#include "nn/run_evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/stop.h"

#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::file_text;
using nn_testing::TempDir;
using nn_testing::tiny_network;
using nn_testing::virus_war;

RunEvaluatorOptions options() {
  RunEvaluatorOptions o;
  o.opponents = {"random"};
  o.games = 4;
  o.search.algorithm = SearchAlgorithm::kGumbel;
  o.search.simulations = 2;
  o.search.gumbel_scale = 0;
  return o;
}

TEST(RunEvaluator, WritesItsFilesAndMeetsThePreviousNetworkNextTime) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  RunEvaluator evaluator(virus_war(), options(), *run);
  const RunEvaluation first = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 1), 5).value();
  EXPECT_EQ(first.step, 5);
  EXPECT_EQ(file_text(run->evaluation_base(5) + ".txt"), first.table);
  EXPECT_EQ(file_text(run->evaluation_base(5) + ".json").front(), '{');
  ASSERT_EQ(first.scores.size(), 2u);  // random, then the previous network (none yet)
  EXPECT_GE(first.scores[0], 0.0);
  EXPECT_LE(first.scores[0], 1.0);
  EXPECT_TRUE(std::isnan(first.scores[1]));
  EXPECT_GE(first.draw_rate, 0.0);
  EXPECT_LE(first.draw_rate, 1.0);
  EXPECT_FALSE(std::isnan(first.pass_rate));  // Virus War has a pass
  EXPECT_GE(first.pass_rate, 0.0);

  const RunEvaluation second =
      evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 2), 9).value();
  EXPECT_NE(second.table.find("net@5"), std::string::npos) << second.table;
  EXPECT_FALSE(std::isnan(second.scores[1]));

  const MetricsRow row = evaluator.metrics(second);
  const std::vector<std::string> columns = evaluator.metric_columns();
  EXPECT_EQ(row.size(), columns.size());
  for (const auto& c : columns) EXPECT_TRUE(row.contains(c)) << c;
  EXPECT_FALSE(row.at("elo").empty());
  EXPECT_FALSE(row.at("score_vs_previous").empty());
}

TEST(RunEvaluator, AGameWithoutAPassHasNoPassRate) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  auto morabaraba = load_game("morabaraba(move_cap=20)");
  RunEvaluatorOptions o = options();
  o.previous = false;
  RunEvaluator evaluator(*morabaraba, o, *run);
  const RunEvaluation e = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), *morabaraba, 1), 1).value();
  EXPECT_TRUE(std::isnan(e.pass_rate));
  EXPECT_DOUBLE_EQ(e.draw_rate, 1.0);  // every game capped at 20 plies is undecided
  EXPECT_EQ(evaluator.metrics(e).at("eval_pass_rate"), "");
}

TEST(RunEvaluator, AStoppedEvaluationIsNeitherWrittenNorRemembered) {
  TempDir tmp;
  std::string log;
  const auto run = RunFolder::create(tmp / "run", [&](const std::string& line) { log += line + "\n"; });
  RunEvaluator evaluator(virus_war(), options(), *run);
  request_stop();
  const auto stopped = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 1), 5);
  clear_stop();
  EXPECT_FALSE(stopped.has_value());
  EXPECT_FALSE(std::filesystem::exists(run->evaluation_base(5) + ".txt"));
  EXPECT_NE(log.find("evaluation at step 5 stopped after 0 of 4 games"), std::string::npos) << log;
  // The next evaluation meets no "previous" network: the stopped one was not remembered.
  const RunEvaluation next =
      evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 2), 9).value();
  EXPECT_TRUE(std::isnan(next.scores.back()));
}

TEST(RunEvaluator, AnEvaluationOutOfTimeIsNotRecorded) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  RunEvaluator evaluator(virus_war(), options(), *run);
  // A nanosecond: spent before the first game can start.
  EXPECT_FALSE(evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 1), 5, 1e-9).has_value());
  EXPECT_FALSE(std::filesystem::exists(run->evaluation_base(5) + ".json"));
}

}  // namespace
}  // namespace boardlab
