// Tests for a run's evaluations alone: files, scores, draws and passes, the previous network, metrics columns.
#include "nn/run_evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
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
  o.ladder_rungs = 0;  // the tests that want the game's ladder give one of their own
  return o;
}

// A ladder of Virus War with four rungs 300 Elo apart, stored under `tmp`, which
// BOARDLAB_GAMES_DIR then names (the caller unsets it once its evaluator has read it).
Ladder store_test_ladder(const TempDir& tmp) {
  std::filesystem::create_directories(tmp / "games/virus_war");
  Ladder ladder;
  ladder.game = virus_war().to_string();
  ladder.opening_turns = 2;
  ladder.rungs = {{"random", 0, 0, 0, 10}, {"uct:2", 300, 200, 400, 10}, {"uct:4", 600, 500, 700, 10},
                  {"uct:8", 900, 800, 1000, 10}};
  store_ladder(tmp / "games/virus_war/ladder.yaml", ladder);
  ::setenv("BOARDLAB_GAMES_DIR", (tmp / "games").c_str(), 1);
  return ladder;
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

TEST(RunEvaluator, RatesTheNetworkOnTheGamesLadderAndClimbsItsRungs) {
  TempDir tmp;
  const Ladder ladder = store_test_ladder(tmp);
  std::string log;
  const auto run = RunFolder::create(tmp / "run", [&](const std::string& line) { log += line + "\n"; });
  RunEvaluatorOptions o = options();
  o.ladder_rungs = 2;
  o.previous = false;
  RunEvaluator evaluator(virus_war(), o, *run);
  ::unsetenv("BOARDLAB_GAMES_DIR");
  const RunEvaluation first = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 1), 5).value();
  // No rating yet: the weakest rungs besides the opponents (random).
  EXPECT_EQ(first.ladder_opponents, (std::vector<std::string>{"random", "uct:2", "uct:4"}));
  ASSERT_FALSE(std::isnan(first.ladder_elo));
  EXPECT_LT(first.ladder_low, first.ladder_elo);
  EXPECT_GT(first.ladder_high, first.ladder_elo);
  EXPECT_NE(log.find("ladder rating "), std::string::npos) << log;
  const MetricsRow row = evaluator.metrics(first);
  EXPECT_FALSE(row.at("ladder_elo").empty());
  // The next evaluation plays the rungs around the rating the first one found.
  const RunEvaluation second = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 2), 9).value();
  std::vector<std::string> expected = {"random"};
  for (const std::string& rung : ladder.around(first.ladder_elo, 2, o.opponents)) expected.push_back(rung);
  EXPECT_EQ(second.ladder_opponents, expected);
}

TEST(RunEvaluator, AResumedRunGoesOnAroundItsLastLadderRating) {
  TempDir tmp;
  store_test_ladder(tmp);
  const auto run = RunFolder::create(tmp / "run", [](const std::string&) {});
  RunEvaluatorOptions o = options();
  o.ladder_rungs = 1;
  o.previous = false;
  o.opponents = {};
  RunEvaluator evaluator(virus_war(), o, *run);
  ::unsetenv("BOARDLAB_GAMES_DIR");
  evaluator.resume_at_ladder_elo(880);
  const RunEvaluation e = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 1), 5).value();
  EXPECT_EQ(e.ladder_opponents, (std::vector<std::string>{"uct:8"}));
}

TEST(RunEvaluator, WithoutALadderTheLadderColumnsStayEmpty) {
  TempDir tmp;
  ::setenv("BOARDLAB_GAMES_DIR", (tmp / "nothing").c_str(), 1);
  std::string log;
  const auto run = RunFolder::create(tmp / "run", [&](const std::string& line) { log += line + "\n"; });
  RunEvaluatorOptions o = options();
  o.ladder_rungs = 2;
  RunEvaluator evaluator(virus_war(), o, *run);
  ::unsetenv("BOARDLAB_GAMES_DIR");
  const RunEvaluation e = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), virus_war(), 1), 5).value();
  EXPECT_NE(log.find("no stored ladder for virus_war"), std::string::npos) << log;
  EXPECT_TRUE(std::isnan(e.ladder_elo));
  EXPECT_EQ(evaluator.metrics(e).at("ladder_elo"), "");
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

// At a table of four an opponent fills three seats (boardlab exploit seats its target so): its
// three pairings with the network are pooled into one score and one metrics column.
TEST(RunEvaluator, AnOpponentInSeveralSeatsHasOneScorePooledOverItsSeats) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  auto four = load_game("klopodavka(players=4,width=10,height=10)");
  RunEvaluatorOptions o = options();
  o.opponents = {"random", "random", "random"};
  o.previous = false;
  RunEvaluator evaluator(*four, o, *run);
  const RunEvaluation e = evaluator.evaluate(std::make_shared<const Model>(tiny_network(), *four, 1), 1).value();
  ASSERT_EQ(e.scores.size(), 2u);  // random, then the previous network (none)
  const std::vector<std::string> columns = evaluator.metric_columns();
  EXPECT_EQ(std::count(columns.begin(), columns.end(), "score_vs_random"), 1);
  const MetricsRow row = evaluator.metrics(e);
  EXPECT_EQ(row.size(), columns.size());

  // The pooled score, from the report's three pairings of the network with a random seat.
  const std::string json = file_text(run->evaluation_base(1) + ".json");
  const std::string pairing = "{\"a\": \"net@1\", \"b\": \"random\"";
  double points = 0;
  int games = 0, pairings = 0;
  for (std::size_t at = json.find(pairing); at != std::string::npos; at = json.find(pairing, at + 1)) {
    const auto number = [&](const std::string& key) {
      return std::stod(json.substr(json.find("\"" + key + "\": ", at) + key.size() + 4));
    };
    const int n = static_cast<int>(number("wins") + number("draws") + number("losses"));
    points += number("score") * n;
    games += n;
    ++pairings;
  }
  ASSERT_EQ(pairings, 3);
  ASSERT_EQ(games, 3 * o.games);
  EXPECT_NEAR(e.scores[0], points / games, 1e-4);  // the report's scores have four decimals
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
