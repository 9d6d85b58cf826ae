// Tests for the run folder and metrics.csv: names by step, retention, the lock, commits that fail, cutting back to a checkpoint, rows kept over a resume.
#include "nn/run_folder.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "core/errors.h"
#include "files/atomic_file.h"
#include "nn/metrics_file.h"
#include "nn_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

namespace fs = std::filesystem;
using nn_testing::file_text;
using nn_testing::FileSizeLimit;
using nn_testing::TempDir;
using nn_testing::temporary_files;

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
  // --out naming a file: said so, not "cannot create it: Not a directory" (a FileError).
  const std::string file = tmp / "file";
  std::ofstream(file) << "x";
  EXPECT_EQ(error_of<InputError>([&] { RunFolder::create(file, nullptr); }),
            "run folder '" + file + "' is a file, not a folder: choose another --out");
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

TEST(MetricsFile, ColumnsNamedAfterPlayerSpecsAreQuotedAndReadBack) {
  // An opponent's column is named after its spec, which may hold commas and quotes; unquoted,
  // every reader shifted the cells after it (an exploit run lost its final games to it).
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  const std::string column = "score_vs_agent:'a\"b.pt'(simulations=128,concealed_moves=search_mixed)";
  {
    MetricsFile metrics(path, {"step", column, "elo"}, std::nullopt);
    metrics.append({{"step", "1"}, {column, "0.75"}, {"elo", "3"}});
  }
  EXPECT_EQ(file_text(path),
            "step,\"score_vs_agent:'a\"\"b.pt'(simulations=128,concealed_moves=search_mixed)\",elo\n1,0.75,3\n");
  // A resume finds the column by its name again and keeps its cells in place.
  MetricsFile resumed(path, {"step", "elo", column}, MetricsCut{1, -1});
  EXPECT_EQ(resumed.rows(), 1);
  EXPECT_EQ(resumed.last_kept(column), 0.75);
  EXPECT_EQ(resumed.last_kept("elo"), 3);
  EXPECT_EQ(resumed.columns().size(), 3u);
}

TEST(MetricsFile, AResumeDropsLaterRowsMapsColumnsByNameAndKeepsTheOldOnes) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  std::ofstream(path) << "step,elo,gone\n1,5.0,x\n2,,y\n3,7.0,z\n";
  // A checkpoint of an older version, which did not count its rows: cut by step.
  MetricsFile metrics(path, {"step", "new", "elo"}, MetricsCut{2, -1});
  EXPECT_EQ(metrics.rows(), 2);
  metrics.append({{"step", "3"}, {"new", "1"}});
  EXPECT_EQ(metrics.rows(), 3);
  // "gone" (a column of an earlier session: an actor rank this one lacks) keeps its history.
  EXPECT_EQ(file_text(path), "step,new,elo,gone\n1,,5.0,x\n2,,,y\n3,1,,\n");
}

TEST(MetricsFile, AResumeKnowsTheLastNumberEachColumnKept) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  std::ofstream(path) << "step,ladder_elo,note\n1,120.5,a\n2,,b\n3,300.0,c\n";
  // Cut at step 2: the row of step 3 is gone, so its rating is not what the run resumes from.
  const MetricsFile metrics(path, {"step", "ladder_elo", "note"}, MetricsCut{2, -1});
  EXPECT_EQ(metrics.last_kept("ladder_elo"), 120.5);
  EXPECT_EQ(metrics.last_kept("note"), std::nullopt);  // not a number
  EXPECT_EQ(metrics.last_kept("missing"), std::nullopt);
  const MetricsFile fresh(tmp / "other.csv", {"step", "ladder_elo"}, std::nullopt);
  EXPECT_EQ(fresh.last_kept("ladder_elo"), std::nullopt);
}

TEST(MetricsFile, AResumeKeepsExactlyTheRowsItsCheckpointCounted) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  // Rows at step 2 before the checkpoint at step 2 (2 rows), then a row at step 2 and a
  // torn row written after it by the session that was killed.
  std::ofstream(path) << "step,loss\n1,0.9\n2,0.8\n2,0.7\n3,0.";
  MetricsFile metrics(path, {"step", "loss"}, MetricsCut{2, 2});
  metrics.append({{"step", "2"}, {"loss", "0.6"}});
  EXPECT_EQ(file_text(path), "step,loss\n1,0.9\n2,0.8\n2,0.6\n");
  EXPECT_EQ(metrics.rows(), 3);
}

TEST(MetricsFile, ARowTheDiskRefusesIsAFileErrorAndLeavesNoTornRow) {
  TempDir tmp;
  const std::string path = tmp / "metrics.csv";
  MetricsFile metrics(path, {"step", "loss"}, std::nullopt);
  metrics.append({{"step", "1"}, {"loss", "0.5"}});
  const std::string before = file_text(path);
  std::string message;
  {
    const FileSizeLimit full(before.size() + 3);
    message = error_of<FileError>([&] { metrics.append({{"step", "2"}, {"loss", "0.123456789"}}); });
  }
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(file_text(path), before);
  EXPECT_EQ(metrics.rows(), 1);
}

TEST(AtomicFile, AFullDiskLeavesTheOldFileAndNoTemporaryFile) {
  TempDir tmp;
  const std::string path = tmp / "data.bin";
  write_file_atomically(path, "old");
  std::string message;
  {
    const FileSizeLimit full(1000);
    message = error_of<FileError>([&] { write_file_atomically(path, std::string(5000, 'x')); });
  }
  EXPECT_EQ(message, "cannot write '" + path + "': File too large");
  EXPECT_EQ(file_text(path), "old");
  EXPECT_TRUE(temporary_files(tmp.path()).empty());
  EXPECT_TRUE(is_temporary_name("latest.pt.tmp.123.456"));
  EXPECT_FALSE(is_temporary_name("notes.tmp.txt"));
  EXPECT_FALSE(is_temporary_name("a.tmp.12"));
}

TEST(RunFolder, ASecondUserIsRefusedWithTheHoldersPidUntilTheHolderEnds) {
  TempDir tmp;
  const std::string dir = tmp / "run";
  {
    const auto run = RunFolder::create(dir, nullptr);
    std::ofstream(run->config_path()) << "game: virus_war\n";
    const std::string pid = "pid " + std::to_string(::getpid());
    for (const std::string& message : {error_of<InputError>([&] { RunFolder::open(dir, nullptr); }),
                                       error_of<InputError>([&] { RunFolder::create(dir, nullptr); })}) {
      EXPECT_NE(message.find("'" + dir + "' is in use by another training"), std::string::npos) << message;
      EXPECT_NE(message.find(pid), std::string::npos) << message;
    }
  }
  EXPECT_NO_THROW(RunFolder::open(dir, nullptr));
}

TEST(RunFolder, ALockDiesWithItsProcessEvenAfterKill9) {
  TempDir tmp;
  const std::string dir = tmp / "run";
  RunFolder::create(dir, nullptr);
  std::ofstream(dir + "/config.yaml") << "game: virus_war\n";
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Holds the folder until killed; never returns into the test.
    ::close(ready[0]);
    try {
      const auto run = RunFolder::open(dir, nullptr);
      const char byte = 1;
      if (::write(ready[1], &byte, 1) != 1) ::_exit(3);
      while (true) ::pause();
    } catch (...) {
      ::_exit(2);
    }
  }
  ::close(ready[1]);
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1) << "the child could not open the folder";
  ::close(ready[0]);
  const std::string message = error_of<InputError>([&] { RunFolder::open(dir, nullptr); });
  EXPECT_NE(message.find("pid " + std::to_string(child)), std::string::npos) << message;
  ::kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_NO_THROW(RunFolder::open(dir, nullptr));
}

TEST(RunFolder, OpeningRemovesTheTemporaryFilesOfKilledWriters) {
  TempDir tmp;
  const std::string dir = tmp / "run";
  RunFolder::create(dir, nullptr);
  std::ofstream(dir + "/config.yaml") << "game: virus_war\n";
  for (const char* name : {"checkpoints/latest.pt.tmp.4242.1234567", "checkpoints/step_000000004.pt.tmp.4242.99",
                           "replay.bin.tmp.7.8", "evaluation/step_000000004.json.tmp.1.2", "metrics.csv.tmp.3.4"})
    touch(fs::path(dir) / name);
  touch(fs::path(dir) / "notes.tmp.txt");  // a name of the user's, not a temporary file
  std::vector<std::string> lines;
  RunFolder::open(dir, [&](const std::string& line) { lines.push_back(line); });
  EXPECT_TRUE(temporary_files(dir).size() == 1 && temporary_files(dir)[0].ends_with("notes.tmp.txt"));
  EXPECT_EQ(lines, std::vector<std::string>{"removed 5 temporary files left by an interrupted writer"});
}

TEST(RunFolder, GamesReachTheDiskAtEachSyncAndItsSizeIsTheMark) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  run->append_game("[1,-1] a1");
  run->append_game("[-1,1] b2");
  EXPECT_EQ(run->sync_games(), 20);
  EXPECT_EQ(file_text(tmp / "run/games/selfplay.txt"), "[1,-1] a1\n[-1,1] b2\n");
}

TEST(RunFolder, AFailedCheckpointLeavesThePreviousOneLatestAndNoReplayOfItsStep) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  auto write = [](const std::string& text) { return [text](const std::string& path) { write_file_atomically(path, text); }; };
  run->commit_checkpoint(2, 0, write("replay 2"), write("checkpoint 2"));
  EXPECT_EQ(file_text(run->latest_checkpoint()), "checkpoint 2");
  const auto refuse = [](const std::string& path) { throw FileError("cannot write '" + path + "': No space left on device"); };
  EXPECT_THROW(run->commit_checkpoint(4, 0, write("replay 4"), refuse), FileError);
  EXPECT_EQ(file_text(run->latest_checkpoint()), "checkpoint 2");
  EXPECT_FALSE(fs::exists(run->replay_path(4)));
  EXPECT_EQ(file_text(run->replay_path(2)), "replay 2");
  // A replay that fails stops the commit before the checkpoint.
  EXPECT_THROW(run->commit_checkpoint(4, 0, refuse, write("checkpoint 4")), FileError);
  EXPECT_FALSE(fs::exists(run->checkpoint_path(4)));
  EXPECT_TRUE(temporary_files(run->path()).empty());
}

TEST(RunFolder, TheReplaysOfTheTwoNewestCheckpointsAreKept) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  touch(run->legacy_replay_path());
  auto write = [](const std::string& path) { write_file_atomically(path, "x"); };
  for (int step : {1, 2, 3}) run->commit_checkpoint(step, 0, write, write);
  EXPECT_FALSE(fs::exists(run->replay_path(1)));
  EXPECT_TRUE(fs::exists(run->replay_path(2)));
  EXPECT_TRUE(fs::exists(run->replay_path(3)));
  EXPECT_FALSE(fs::exists(run->legacy_replay_path()));
  EXPECT_EQ(run->checkpoints().size(), 3u);
}

TEST(RunFolder, RewindCutsWhatWasWrittenAfterTheCheckpoint) {
  TempDir tmp;
  const auto run = RunFolder::create(tmp / "run", nullptr);
  run->append_game("[1,-1] a1");
  const std::int64_t mark = run->sync_games();
  run->append_game("[-1,1] after the checkpoint");
  run->sync_games();
  for (int step : {2, 4, 6}) {
    touch(run->evaluation_base(step) + ".txt");
    touch(run->evaluation_base(step) + ".json");
    touch(run->replay_path(step));
  }
  run->rewind(4, mark);
  EXPECT_EQ(file_text(run->path() / "games/selfplay.txt"), "[1,-1] a1\n");
  EXPECT_TRUE(fs::exists(run->evaluation_base(4) + ".json"));
  EXPECT_FALSE(fs::exists(run->evaluation_base(6) + ".txt"));
  EXPECT_FALSE(fs::exists(run->evaluation_base(6) + ".json"));
  EXPECT_TRUE(fs::exists(run->replay_path(4)));
  EXPECT_FALSE(fs::exists(run->replay_path(6)));
  // Games appended after a rewind follow the cut.
  run->append_game("[0,0] c3");
  run->sync_games();
  EXPECT_EQ(file_text(run->path() / "games/selfplay.txt"), "[1,-1] a1\n[0,0] c3\n");
  // Before any checkpoint: everything goes.
  run->rewind(-1, 0);
  EXPECT_EQ(file_text(run->path() / "games/selfplay.txt"), "");
  EXPECT_FALSE(fs::exists(run->evaluation_base(2) + ".txt"));
  EXPECT_FALSE(fs::exists(run->replay_path(2)));
}

}  // namespace
}  // namespace boardlab
