// Tests for the training run's progress line: which rating it shows, and its clock.
#include "nn/progress_line.h"

#include <gtest/gtest.h>

#include <cmath>

namespace boardlab {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

RunEvaluation evaluation(double ladder_elo) {
  RunEvaluation e;
  e.elo = 645;
  e.low = 158;
  e.high = 1132;
  e.ladder_elo = ladder_elo;
  e.ladder_low = ladder_elo - 100;
  e.ladder_high = ladder_elo + 100;
  return e;
}

TEST(ProgressLine, ShowsTheLadderRatingWhenTheGameHasALadder) {
  const MetricsRow row = {{"games", "64"}, {"policy_loss", "1.2"}, {"value_loss", "0.4"}};
  const std::string line = progress_line(row, 120, TrainConfig{}, evaluation(1631), 5000, 50, 550);
  EXPECT_TRUE(contains(line, " | ladder 1631 [1531, 1731] | ")) << line;
  EXPECT_FALSE(contains(line, "elo 645")) << line;  // the saturated random-anchored fit stays in metrics.csv
  EXPECT_TRUE(contains(line, "step 120/20000 | games 64 | ")) << line;
  EXPECT_TRUE(contains(line, "loss policy 1.2 value 0.4")) << line;
  EXPECT_TRUE(contains(line, "0:50 elapsed, ETA 9:10")) << line;
}

TEST(ProgressLine, ShowsTheEloAgainstTheFirstOpponentWithoutALadder) {
  TrainConfig cfg;
  cfg.evaluation.opponents = {"uct:50", "uct:200"};
  const std::string line = progress_line({}, 7, cfg, evaluation(std::nan("")), 5000, 0, 0);
  EXPECT_TRUE(contains(line, " | elo 645 [158, 1132] (uct:50 = 0) | ")) << line;
  EXPECT_FALSE(contains(line, "ladder")) << line;
  EXPECT_TRUE(contains(line, "games - | - pos/s")) << line;  // a cell the row lacks reads "-"
}

TEST(ProgressLine, ReportsTheReplayFillingBeforeTheFirstEvaluation) {
  TrainConfig cfg;
  cfg.replay.min_positions = 1000;
  EXPECT_TRUE(contains(progress_line({}, 0, cfg, std::nullopt, 250, 0, 0), " | filling replay 250/1000 | "));
  EXPECT_FALSE(contains(progress_line({}, 0, cfg, std::nullopt, 1000, 0, 0), "filling"));
}

TEST(ProgressLine, DurationsShowHoursOnlyFromAnHourOn) {
  EXPECT_EQ(duration(65.9), "1:05");
  EXPECT_EQ(duration(3723), "1:02:03");
  EXPECT_EQ(duration(-4), "0:00");
}

}  // namespace
}  // namespace boardlab
