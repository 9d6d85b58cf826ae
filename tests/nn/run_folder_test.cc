// Tests for the run folder and metrics.csv: names that sort past a million steps, retention by step, rows kept over a resume.
#include "nn/run_folder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/errors.h"
#include "nn/metrics_file.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

namespace fs = std::filesystem;
using nn_testing::file_text;
using nn_testing::TempDir;

void touch(const fs::path& path) { std::ofstream(path) << "x"; }

TEST(RunFolder, StepNamesSortByStepPastAMillion) {
  EXPECT_EQ(RunFolder::step_name(3), "step_000000003");
  EXPECT_EQ(RunFolder::step_name(1234567), "step_001234567");
  EXPECT_LT(RunFolder::step_name(999999), RunFolder::step_name(1000000));
  EXPECT_EQ(RunFolder::step_of("step_001234567.pt"), 1234567);
  EXPECT_EQ(RunFolder::step_of("step_000250.pt"), 250);  // six digits, as older runs wrote
  EXPECT_EQ(RunFolder::step_of("step_12.json"), 12);
  EXPECT_EQ(RunFolder::step_of("latest.pt"), -1);
  EXPECT_EQ(RunFolder::step_of("step_.pt"), -1);
  EXPECT_EQ(RunFolder::step_of("step_12x.pt"), -1);
}

TEST(RunFolder, RetentionKeepsTheNewestByStepNotByName) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  // An older run's six-digit names next to new nine-digit ones: by name, step_999999 would
  // sort after step_001000000 and survive while newer files went.
  for (const char* name : {"step_999998.pt", "step_999999.pt", "step_001000000.pt"}) touch(run->path() / "checkpoints" / name);
  const std::string newest = run->checkpoint_path(1000001);
  touch(newest);
  run->publish_checkpoint(newest, 1);
  std::vector<std::string> left;
  for (const auto& path : run->checkpoints()) left.push_back(path.filename().string());
  EXPECT_EQ(left, (std::vector<std::string>{"step_001000000.pt", "step_001000001.pt"}));
  EXPECT_TRUE(fs::equivalent(run->latest_checkpoint(), newest));
}

TEST(RunFolder, CreateRefusesARunAndOpenNeedsOne) {
  TempDir tmp;
  const std::string dir = tmp / "run";
  EXPECT_THROW(RunFolder::open(dir, nullptr), InputError);
  std::vector<std::string> lines;
  {
    const auto run = RunFolder::create(dir, [&](const std::string& line) { lines.push_back(line); });
    run->log("hello");
    run->append_game("[1,-1] a1");
    std::ofstream(run->config_path()) << "game: virus_war\n";
  }
  EXPECT_EQ(lines, std::vector<std::string>{"hello"});
  EXPECT_EQ(file_text(dir + "/log.txt"), "hello\n");
  EXPECT_EQ(file_text(dir + "/games/selfplay.txt"), "[1,-1] a1\n");
  EXPECT_THROW(RunFolder::create(dir, nullptr), InputError);
  EXPECT_NO_THROW(RunFolder::open(dir, nullptr));
}

TEST(MetricsFile, RowsFollowTheHeaderAndUnknownColumnsAreRefused) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsFile metrics(path, {"step", "loss", "elo"}, std::nullopt);
  metrics.append({{"step", "1"}, {"loss", "0.5"}});
  metrics.append({{"elo", "12.0"}, {"step", "2"}});
  EXPECT_EQ(file_text(path), "step,loss,elo\n1,0.5,\n2,,12.0\n");
  EXPECT_THROW(metrics.append({{"step", "3"}, {"nonsense", "1"}}), std::logic_error);
  EXPECT_EQ(metric_number(std::nan(""), 2), "");
  EXPECT_EQ(metric_number(1.23456, 2), "1.23");
}

TEST(MetricsFile, AResumeDropsLaterRowsAndMapsOldColumnsByName) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  std::ofstream(path) << "step,elo,gone\n1,5.0,x\n2,,y\n3,7.0,z\n";
  MetricsFile metrics(path, {"step", "new", "elo"}, std::int64_t{2});
  metrics.append({{"step", "3"}, {"new", "1"}});
  EXPECT_EQ(file_text(path), "step,new,elo\n1,,5.0\n2,,\n3,1,\n");
}

}  // namespace
}  // namespace boardlab
