// Tests for training runs: a tiny run's folder has every part, and a resumed run continues its steps and random streams.
#include "nn/pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/stop.h"
#include "nn/checkpoint.h"
#include "nn/replay_buffer.h"
#include "nn/train_config.h"
#include "nn_test_util.h"
#include "tests/error_of.h"
#include "tiny_run.h"

namespace boardlab {
namespace {

namespace fs = std::filesystem;
using nn_testing::file_text;
using nn_testing::TempDir;
using nn_testing::options;
using nn_testing::tiny;
constexpr int kBatch = nn_testing::kTinyRunBatch;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!line.empty() && line.back() == separator) parts.emplace_back();
  return parts;
}

// The state `n` draws further along the stream that starts at `state`.
std::array<std::uint64_t, 4> advanced(const std::array<std::uint64_t, 4>& state, int n) {
  Rng rng;
  rng.set_state(state);
  for (int i = 0; i < n; ++i) rng();
  return rng.state();
}

// How many draws lead from `from` to `to` along one stream, or -1 if none within `limit`.
int draws_between(const std::array<std::uint64_t, 4>& from, const std::array<std::uint64_t, 4>& to, int limit) {
  Rng rng;
  rng.set_state(from);
  for (int n = 0; n <= limit; ++n, rng())
    if (rng.state() == to) return n;
  return -1;
}

std::vector<std::int64_t> metric_steps(const std::string& path) {
  std::vector<std::int64_t> steps;
  const auto lines = lines_of(file_text(path));
  for (std::size_t i = 1; i < lines.size(); ++i) steps.push_back(std::stoll(split(lines[i], ',')[0]));
  return steps;
}

TEST(Pipeline, ResumeContinuesTheStepCountAndTheRandomStreams) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  const TrainSummary first = train(options(run, tiny({"run.max_steps=6", "checkpoint.every_steps=3"}), &log));
  ASSERT_EQ(first.steps, 6);
  const std::string checkpoints = run + "/checkpoints/";
  const Checkpoint at3 = load_checkpoint(checkpoints + "step_000000003.pt");
  const Checkpoint at6 = load_checkpoint(checkpoints + "step_000000006.pt");
  ASSERT_EQ(at6.info.step, 6);
  // The master stream (seeds fresh workers), the sampling stream, then the one worker's.
  ASSERT_EQ(at6.info.rng_states.size(), 3u);
  // The worker's stream goes on from one checkpoint to the next. It is drawn only when a game
  // starts and on temperature moves, so three steps may pass without a draw on a busy machine.
  constexpr int kDrawLimit = 1 << 20;
  EXPECT_GE(draws_between(at3.info.rng_states[2], at6.info.rng_states[2], kDrawLimit), 0);
  EXPECT_EQ(load_checkpoint(checkpoints + "latest.pt").info.rng_states, at6.info.rng_states);
  // Within a session: sampling draws kBatch per step, the master stream is not drawn after start-up.
  EXPECT_EQ(at6.info.rng_states[1], advanced(at3.info.rng_states[1], 3 * kBatch));
  EXPECT_EQ(at6.info.rng_states[0], at3.info.rng_states[0]);
  const std::string metrics_before = file_text(run + "/metrics.csv");
  const std::int64_t rows_before = static_cast<std::int64_t>(metric_steps(run + "/metrics.csv").size());

  // Resuming may change keys: here the run gets longer.
  TrainOptions resume = options(run, {"run.max_steps=9"}, &log);
  resume.config_path.clear();
  resume.resume = true;
  log.clear();
  const TrainSummary second = train(resume);
  EXPECT_EQ(second.steps, 9);
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.front().rfind("resuming virus_war(strict=false) in " + run + " at step 6:", 0), 0u) << log.front();

  const Checkpoint at9 = load_checkpoint(checkpoints + "latest.pt");
  EXPECT_EQ(at9.info.step, 9);
  EXPECT_TRUE(fs::equivalent(checkpoints + "latest.pt", checkpoints + "step_000000009.pt"));
  // Self-play and training run at the same time: the three steps may come before a new
  // game ends (they train on the loaded replay), so the counters need not have grown.
  EXPECT_GE(at9.info.games, at6.info.games);
  EXPECT_GE(at9.info.positions, at6.info.positions);
  EXPECT_GE(at9.info.seconds, at6.info.seconds);
  // The resumed session started from the step-6 states: it drew 3 steps of samples from
  // the saved sampling stream, and one draw from the saved master stream (fresh seeds it
  // did not use: the worker continued its saved stream).
  EXPECT_EQ(at9.info.rng_states[1], advanced(at6.info.rng_states[1], 3 * kBatch));
  EXPECT_EQ(at9.info.rng_states[0], advanced(at6.info.rng_states[0], 1));
  // The resumed worker continued its saved stream, which has moved on since step 3.
  EXPECT_GE(draws_between(at6.info.rng_states[2], at9.info.rng_states[2], kDrawLimit), 0);
  EXPECT_GT(draws_between(at3.info.rng_states[2], at9.info.rng_states[2], kDrawLimit), 0);
  EXPECT_NE(at9.info.rng_states[0], at6.info.rng_states[0]);
  EXPECT_NE(at9.info.rng_states[1], at6.info.rng_states[1]);
  EXPECT_NE(at9.info.config_yaml.find("max_steps: 9"), std::string::npos);
  EXPECT_NE(file_text(run + "/config.yaml").find("max_steps: 9"), std::string::npos);

  // metrics.csv: the first session's rows unchanged, then the new session's, in step order.
  const std::string metrics_after = file_text(run + "/metrics.csv");
  EXPECT_EQ(metrics_after.rfind(metrics_before, 0), 0u);
  const std::vector<std::int64_t> steps = metric_steps(run + "/metrics.csv");
  ASSERT_GT(static_cast<std::int64_t>(steps.size()), rows_before);
  for (std::size_t i = 1; i < steps.size(); ++i) EXPECT_LE(steps[i - 1], steps[i]) << "row " << i;
  EXPECT_EQ(steps[static_cast<std::size_t>(rows_before) - 1], 6);
  EXPECT_GE(steps[static_cast<std::size_t>(rows_before)], 6);
  EXPECT_EQ(steps.back(), 9);

  // The replay window continued too: its counters match the checkpoint's.
  ReplayBuffer replay(*at9.game, 50000);
  replay.load(checkpoints + "step_000000009.replay");
  EXPECT_EQ(replay.games_added(), at9.info.games);
  EXPECT_EQ(replay.positions_added(), at9.info.positions);
}

TEST(Pipeline, TinyRunWritesEveryPartOfItsFolder) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  const TrainSummary summary = train(options(
      run,
      tiny({"run.max_steps=4", "checkpoint.every_steps=1", "checkpoint.keep=1", "evaluation.every_steps=2",
            "evaluation.previous_checkpoint=true"}),
      &log));
  EXPECT_EQ(summary.run_dir, run);
  EXPECT_EQ(summary.steps, 4);
  EXPECT_EQ(summary.latest_checkpoint, run + "/checkpoints/latest.pt");

  // config.yaml: the config as used, which reads back to itself.
  const std::string yaml = file_text(run + "/config.yaml");
  const TrainConfig cfg = load_train_config(run + "/config.yaml");
  EXPECT_EQ(cfg.yaml, yaml);
  EXPECT_EQ(cfg.network.channels, 8);
  EXPECT_EQ(cfg.run.max_steps, 4);

  // checkpoints/: latest.pt is the newest step file; keep=1 leaves it and one before it.
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(run + "/checkpoints")) files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"latest.pt", "step_000000003.pt", "step_000000003.replay",
                                             "step_000000004.pt", "step_000000004.replay"}));
  const Checkpoint latest = load_checkpoint(summary.latest_checkpoint);
  EXPECT_EQ(latest.info.step, 4);
  EXPECT_EQ(latest.info.game, "virus_war(strict=false)");  // canonical, parameters included
  EXPECT_EQ(latest.info.config_yaml, yaml);
  EXPECT_EQ(latest.info.games, summary.games);
  EXPECT_EQ(latest.info.positions, summary.positions);
  EXPECT_TRUE(fs::equivalent(run + "/checkpoints/latest.pt", run + "/checkpoints/step_000000004.pt"));
  EXPECT_EQ(load_checkpoint(run + "/checkpoints/step_000000003.pt").info.step, 3);

  // The replay of step 4 holds every game so far (the window is larger than the run).
  ReplayBuffer replay(*latest.game, cfg.replay.window);
  replay.load(run + "/checkpoints/step_000000004.replay");
  EXPECT_EQ(replay.games_added(), summary.games);
  EXPECT_EQ(replay.positions(), summary.positions);
  std::printf("Virus War self-play replay, %lld positions: %.2f bytes/position without policy, %.2f with\n",
              static_cast<long long>(replay.positions()),
              static_cast<double>(replay.bytes_without_policy()) / static_cast<double>(replay.positions()),
              static_cast<double>(replay.bytes()) / static_cast<double>(replay.positions()));

  // metrics.csv: a header and rows (progress lines and evaluations), all as wide as the header.
  const auto metrics = lines_of(file_text(run + "/metrics.csv"));
  ASSERT_GE(metrics.size(), 2u);
  const auto header = split(metrics[0], ',');
  EXPECT_EQ(header.front(), "step");
  EXPECT_NE(std::find(header.begin(), header.end(), "score_vs_previous"), header.end());
  EXPECT_NE(std::find(header.begin(), header.end(), "score_vs_random"), header.end());
  for (std::size_t i = 1; i < metrics.size(); ++i) EXPECT_EQ(split(metrics[i], ',').size(), header.size()) << metrics[i];
  EXPECT_EQ(split(metrics.back(), ',')[0], "4");
  // Evaluations per simulation: positive wherever self-play ran; every game opens from one
  // position, which the evaluation cache answers after its first time, so rows stay below 2.
  const auto per_sim = std::find(header.begin(), header.end(), "evaluations_per_simulation");
  ASSERT_NE(per_sim, header.end());
  int filled = 0;
  for (std::size_t i = 1; i < metrics.size(); ++i) {
    const std::string cell = split(metrics[i], ',')[static_cast<std::size_t>(per_sim - header.begin())];
    if (cell.empty()) continue;
    ++filled;
    EXPECT_GT(std::stod(cell), 0.0) << metrics[i];
    EXPECT_LT(std::stod(cell), 2.0) << metrics[i];
  }
  EXPECT_GT(filled, 0);

  // games/selfplay.txt: every self-play game, each record a finished game with those returns.
  const auto games = lines_of(file_text(run + "/games/selfplay.txt"));
  EXPECT_EQ(static_cast<std::int64_t>(games.size()), summary.games);
  for (const auto& line : games) {
    const auto close = line.find("] ");
    ASSERT_TRUE(line.front() == '[' && close != std::string::npos) << line;
    const std::unique_ptr<State> final_state = latest.game->load_record(line.substr(close + 2));
    ASSERT_TRUE(final_state->is_terminal()) << line;
    const std::vector<double> returns = final_state->returns();
    EXPECT_EQ(line.substr(1, close - 1),
              std::to_string(static_cast<int>(returns[0])) + "," + std::to_string(static_cast<int>(returns[1])));
  }

  // evaluation/: a table and results at steps 2 and 4; the second also meets the step-2 network.
  for (const char* step : {"step_000000002", "step_000000004"}) {
    const std::string table = file_text(run + "/evaluation/" + step + ".txt");
    const std::string json = file_text(run + "/evaluation/" + step + ".json");
    EXPECT_NE(table.find("random"), std::string::npos) << table;
    ASSERT_FALSE(json.empty()) << step;
    EXPECT_EQ(json.front(), '{');
  }
  const std::string final_table = file_text(run + "/evaluation/step_000000004.txt");
  EXPECT_NE(final_table.find("net@4"), std::string::npos) << final_table;
  EXPECT_NE(final_table.find("net@2"), std::string::npos) << final_table;
  EXPECT_EQ(summary.final_evaluation, final_table);

  // log.txt: the lines the run reported, in order.
  const std::string log_text = file_text(run + "/log.txt");
  EXPECT_EQ(log_text.rfind("training virus_war(strict=false) in " + run + " at step 0:", 0), 0u) << log_text;
  EXPECT_NE(log_text.find("evaluation at step 2"), std::string::npos);
  EXPECT_NE(log_text.find("finished at step 4"), std::string::npos);
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log_text.rfind(log.front(), 0), 0u);

  // The folder now belongs to this run: a new run refuses it, a resume must keep the network.
  const std::string taken = error_of<InputError>([&] { train(options(run, tiny({}), &log)); });
  EXPECT_NE(taken.find("already holds a run"), std::string::npos) << taken;
  TrainOptions resume = options(run, {"network.channels=16"}, &log);
  resume.resume = true;
  const std::string changed = error_of<InputError>([&] { train(resume); });
  EXPECT_NE(changed.find("network differs"), std::string::npos) << changed;
  // A refused resume leaves the run as it was, so that a plain --resume still works.
  EXPECT_EQ(file_text(run + "/config.yaml"), yaml);
}

TEST(Pipeline, EveryEvaluationReachesMetricsAtItsStep) {
  // Evaluations every 3 steps of a 7-step run: at 3, 6 and the final 7, whatever the
  // progress rows in between; each one's Elo must be in the row of its own step.
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  train(options(run, tiny({"run.max_steps=7", "evaluation.every_steps=3"}), &log));
  const auto lines = lines_of(file_text(run + "/metrics.csv"));
  const auto header = split(lines[0], ',');
  const auto elo = static_cast<std::size_t>(std::find(header.begin(), header.end(), "elo") - header.begin());
  const auto score = static_cast<std::size_t>(std::find(header.begin(), header.end(), "score_vs_random") - header.begin());
  ASSERT_LT(elo, header.size());
  std::vector<std::int64_t> rated;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto cells = split(lines[i], ',');
    ASSERT_EQ(cells.size(), header.size()) << lines[i];
    if (cells[elo].empty()) continue;
    rated.push_back(std::stoll(cells[0]));
    EXPECT_FALSE(cells[score].empty()) << lines[i];
  }
  EXPECT_EQ(rated, (std::vector<std::int64_t>{3, 6, 7}));
  for (std::int64_t step : rated) {
    char name[64];
    std::snprintf(name, sizeof name, "/evaluation/step_%09lld.json", static_cast<long long>(step));
    EXPECT_TRUE(fs::exists(run + name)) << name;
  }
}

TEST(Pipeline, SelfPlayRecordsMarkGamesACapEnded) {
  TempDir tmp;
  const std::string run = tmp / "capped";
  std::vector<std::string> log;
  // Morabaraba capped at 10 plies: every game ends in placement, truncated.
  TrainOptions capped = options(run, tiny({"game=morabaraba(move_cap=10)", "run.max_steps=1"}), &log);
  capped.config_path = std::string(BOARDLAB_SOURCE_DIR) + "/configs/morabaraba.yaml";
  const TrainSummary summary = train(capped);
  const std::shared_ptr<const Game> game = load_game("morabaraba(move_cap=10)");
  const auto games = lines_of(file_text(run + "/games/selfplay.txt"));
  ASSERT_FALSE(games.empty());
  EXPECT_EQ(static_cast<std::int64_t>(games.size()), summary.games);
  const std::string mark = " (truncated)";
  for (const auto& line : games) {
    ASSERT_TRUE(line.ends_with(mark)) << line;
    const auto close = line.find("] ");
    ASSERT_NE(close, std::string::npos) << line;
    const std::unique_ptr<State> final_state = game->load_record(line.substr(close + 2, line.size() - close - 2 - mark.size()));
    EXPECT_TRUE(final_state->is_truncated()) << line;
    EXPECT_EQ(line.substr(1, close - 1), "0,0");
  }
}

// A stop request (Ctrl-C or SIGTERM under the command line's guard) ends the run at its
// next safe point: a checkpoint of the step reached, and no final evaluation.
TEST(Pipeline, AStopRequestEndsTheRunWithACheckpoint) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  TrainOptions o = options(run, tiny({"run.max_steps=1000000", "checkpoint.every_steps=1000000"}), &log);
  o.log = [&log](const std::string& line) {
    log.push_back(line);
    if (line.rfind("step ", 0) == 0 && line.rfind("step 0/", 0) != 0) request_stop();  // a progress line past step 0
  };
  const TrainSummary summary = train(o);
  clear_stop();
  EXPECT_TRUE(summary.stopped);
  EXPECT_GE(summary.steps, 1);
  EXPECT_LT(summary.steps, 1000000);
  EXPECT_TRUE(summary.final_evaluation.empty());
  EXPECT_EQ(load_checkpoint(run + "/checkpoints/latest.pt").info.step, summary.steps);
  ASSERT_FALSE(log.empty());
  EXPECT_EQ(log.back().rfind("stopped at step " + std::to_string(summary.steps), 0), 0u) << log.back();
}

// run.max_minutes bounds the whole run, evaluations included: none starts once it is spent.
TEST(Pipeline, NoEvaluationRunsPastTheTimeLimit) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  const TrainSummary summary =
      train(options(run, tiny({"run.max_minutes=0.001", "run.max_steps=1000000", "evaluation.games=1000"}), &log));
  EXPECT_FALSE(summary.stopped);
  EXPECT_TRUE(summary.final_evaluation.empty());
  const bool skipped = std::any_of(log.begin(), log.end(), [](const std::string& line) {
    return line.find("run.max_minutes is spent") != std::string::npos ||
           line.find("stopped after") != std::string::npos;
  });
  EXPECT_TRUE(skipped);
  EXPECT_TRUE(fs::is_empty(run + "/evaluation"));
}

TEST(Pipeline, ResumeNeedsARunFolder) {
  TempDir tmp;
  std::vector<std::string> log;
  TrainOptions resume = options(tmp / "nothing", {}, &log);
  resume.resume = true;
  const std::string message = error_of<InputError>([&] { train(resume); });
  EXPECT_NE(message.find("not a run folder"), std::string::npos) << message;
}

TrainOptions resume_options(const std::string& run, std::vector<std::string> overrides, std::vector<std::string>* log) {
  TrainOptions o = options(run, std::move(overrides), log);
  o.config_path.clear();
  o.resume = true;
  return o;
}

bool has_line_starting(const std::vector<std::string>& log, const std::string& start) {
  return std::any_of(log.begin(), log.end(), [&](const std::string& line) { return line.rfind(start, 0) == 0; });
}

// A run that died before its first checkpoint: --out refuses the folder ("resume it") and
// --resume runs it from step 0 with its own config, dropping what the dead session wrote.
TEST(Pipeline, ARunWithoutACheckpointResumesFromStepZero) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  {
    // What a session killed while filling its replay leaves.
    const TrainConfig cfg = load_train_config(nn_testing::kTinyRunConfig, tiny({"run.max_steps=2"}));
    fs::create_directories(run + "/games");
    fs::create_directories(run + "/evaluation");
    nn_testing::write_text(run + "/config.yaml", cfg.yaml);
    nn_testing::write_text(run + "/games/selfplay.txt", "[1,-1] a game of the dead session\n");
    nn_testing::write_text(run + "/metrics.csv", "step,seconds\n0,1.0\n0,2.0\n");
    nn_testing::write_text(run + "/evaluation/step_000000001.json", "{}");
  }
  const std::string taken = error_of<InputError>([&] { train(options(run, tiny({}), &log)); });
  EXPECT_NE(taken.find("resume it with --resume"), std::string::npos) << taken;
  const TrainSummary summary = train(resume_options(run, {}, &log));
  EXPECT_TRUE(has_line_starting(log, "resume: '" + run + "' has no checkpoint yet: starting it from step 0"));
  EXPECT_EQ(summary.steps, 2);
  EXPECT_EQ(load_checkpoint(run + "/checkpoints/latest.pt").info.step, 2);
  EXPECT_EQ(static_cast<std::int64_t>(lines_of(file_text(run + "/games/selfplay.txt")).size()), summary.games);
  EXPECT_EQ(file_text(run + "/games/selfplay.txt").find("dead session"), std::string::npos);
  EXPECT_FALSE(fs::exists(run + "/evaluation/step_000000001.json"));
  const auto steps = metric_steps(run + "/metrics.csv");
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps.back(), 2);
  EXPECT_EQ(split(lines_of(file_text(run + "/metrics.csv"))[0], ',').size(), split(lines_of(file_text(run + "/metrics.csv"))[1], ',').size());
}

TEST(Pipeline, AResumeFallsBackToTheNewestReadableCheckpoint) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  train(options(run, tiny({"run.max_steps=4", "checkpoint.every_steps=2"}), &log));
  const std::string checkpoints = run + "/checkpoints/";

  // Stopped between the two commits (step_4.pt written, latest.pt still step_2.pt): step 4,
  // the commit point, and latest.pt follows it.
  fs::remove(checkpoints + "latest.pt");
  fs::create_hard_link(checkpoints + "step_000000002.pt", checkpoints + "latest.pt");
  log.clear();
  EXPECT_EQ(train(resume_options(run, {"run.max_steps=4"}, &log)).steps, 4);
  EXPECT_TRUE(has_line_starting(log, "resume: latest.pt does not link to step_000000004.pt (a run stopped between the two commits, or a copied folder); "
                                     "resuming from step_000000004.pt, the newest readable checkpoint"));
  EXPECT_TRUE(has_line_starting(log, "resuming virus_war(strict=false) in " + run + " at step 4:"));
  EXPECT_TRUE(fs::equivalent(checkpoints + "latest.pt", checkpoints + "step_000000004.pt"));

  // latest.pt missing: the newest step file, said in one line.
  fs::remove(checkpoints + "latest.pt");
  log.clear();
  EXPECT_EQ(train(resume_options(run, {"run.max_steps=5"}, &log)).steps, 5);
  EXPECT_TRUE(has_line_starting(log, "resume: latest.pt is missing; resuming from step_000000004.pt, the newest readable checkpoint"));
  EXPECT_TRUE(has_line_starting(log, "resuming virus_war(strict=false) in " + run + " at step 4:"));

  // latest.pt corrupt (and step_5.pt with it: one file under two names): step_4.pt.
  nn_testing::write_text(checkpoints + "latest.pt", "garbage");
  ASSERT_EQ(file_text(checkpoints + "step_000000005.pt"), "garbage");
  log.clear();
  EXPECT_EQ(train(resume_options(run, {"run.max_steps=6"}, &log)).steps, 6);
  EXPECT_TRUE(has_line_starting(log, "resume: step_000000005.pt cannot be read ("));
  EXPECT_TRUE(has_line_starting(log, "resuming virus_war(strict=false) in " + run + " at step 4:"));
  const auto line = std::find_if(log.begin(), log.end(), [](const std::string& l) { return l.starts_with("resume: step_"); });
  ASSERT_NE(line, log.end());
  EXPECT_NE(line->find("; resuming from step_000000004.pt, the newest readable checkpoint"), std::string::npos) << *line;
  EXPECT_EQ(load_checkpoint(checkpoints + "latest.pt").info.step, 6);

  // Nothing readable: refused, naming each file.
  for (const auto& entry : fs::directory_iterator(checkpoints))
    if (entry.path().extension() == ".pt") nn_testing::write_text(entry.path().string(), "garbage");
  const std::string message = error_of<InputError>([&] { train(resume_options(run, {}, &log)); });
  EXPECT_EQ(message.rfind("resume: no checkpoint of '" + run + "' can be read: step_000000006.pt cannot be read", 0), 0u) << message;
  EXPECT_NE(message.find("step_000000002.pt cannot be read"), std::string::npos) << message;
}

// What a session writes after its last checkpoint (games, metrics rows, an evaluation, the
// replay of a checkpoint it never committed, temporary files) is cut when the run resumes:
// the folder reads as the checkpoint's moment, and goes on from it.
TEST(Pipeline, AResumeCutsTheFolderBackToItsCheckpoint) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  const TrainSummary first = train(options(run, tiny({"run.max_steps=4", "checkpoint.every_steps=2"}), &log));
  const Checkpoint at4 = load_checkpoint(run + "/checkpoints/latest.pt");
  EXPECT_EQ(static_cast<std::int64_t>(lines_of(file_text(run + "/games/selfplay.txt")).size()), first.games);
  EXPECT_EQ(at4.info.metrics_rows, static_cast<std::int64_t>(metric_steps(run + "/metrics.csv").size()));
  EXPECT_EQ(at4.info.games_file_bytes, static_cast<std::int64_t>(fs::file_size(run + "/games/selfplay.txt")));
  const std::string metrics_at4 = file_text(run + "/metrics.csv");
  {
    // The killed session's later writes.
    std::ofstream(run + "/games/selfplay.txt", std::ios::app) << "[1,-1] after the checkpoint\n[0,0] torn";
    std::ofstream(run + "/metrics.csv", std::ios::app) << "4,99.0\n5,99.5\n";
    nn_testing::write_text(run + "/evaluation/step_000000005.json", "{}");
    nn_testing::write_text(run + "/checkpoints/step_000000006.replay", "uncommitted");
    nn_testing::write_text(run + "/checkpoints/latest.pt.tmp.77.88", "half");
  }
  log.clear();
  const TrainSummary second = train(resume_options(run, {"run.max_steps=6"}, &log));
  EXPECT_EQ(second.steps, 6);
  EXPECT_TRUE(has_line_starting(log, "removed 1 temporary file left by an interrupted writer"));
  const std::string games = file_text(run + "/games/selfplay.txt");
  EXPECT_EQ(games.find("after the checkpoint"), std::string::npos);
  EXPECT_EQ(games.find("torn"), std::string::npos);
  EXPECT_EQ(static_cast<std::int64_t>(lines_of(games).size()), second.games);
  const std::string metrics = file_text(run + "/metrics.csv");
  EXPECT_EQ(metrics.rfind(metrics_at4, 0), 0u);
  EXPECT_EQ(metrics.find("99.5"), std::string::npos);
  EXPECT_FALSE(fs::exists(run + "/evaluation/step_000000005.json"));
  EXPECT_TRUE(nn_testing::temporary_files(run).empty());
  const Checkpoint at6 = load_checkpoint(run + "/checkpoints/latest.pt");
  ReplayBuffer replay(*at6.game, 50000);
  replay.load(run + "/checkpoints/step_000000006.replay");
  EXPECT_EQ(replay.games_added(), at6.info.games);
  EXPECT_EQ(at6.info.games, second.games);
}

// A full disk during a run: one line naming the file and why, the previous checkpoint whole,
// nothing temporary left, and the run resumes once there is room.
TEST(Pipeline, AFullDiskStopsTheRunInOneLineAndItResumesLater) {
  TempDir tmp;
  const std::string run = tmp / "run";
  std::vector<std::string> log;
  train(options(run, tiny({"run.max_steps=2", "checkpoint.every_steps=2"}), &log));
  // Half a checkpoint: the next one cannot fit (their sizes differ by tens of bytes from run
  // to run, as the archive pads its records), while the replay and the games, far smaller, can.
  const auto size = fs::file_size(run + "/checkpoints/step_000000002.pt");
  ASSERT_GT(size, 2 * fs::file_size(run + "/checkpoints/step_000000002.replay"));
  std::string message;
  {
    const nn_testing::FileSizeLimit full(size / 2);
    message = error_of<FileError>([&] { train(resume_options(run, {"run.max_steps=4"}, &log)); });
  }
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("cannot write '" + run + "/"), std::string::npos) << message;
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  EXPECT_EQ(load_checkpoint(run + "/checkpoints/latest.pt").info.step, 2);
  EXPECT_TRUE(nn_testing::temporary_files(run).empty());
  EXPECT_FALSE(fs::exists(run + "/checkpoints/step_000000004.replay"));
  const TrainSummary resumed = train(resume_options(run, {"run.max_steps=4"}, &log));
  EXPECT_EQ(resumed.steps, 4);
  EXPECT_EQ(static_cast<std::int64_t>(lines_of(file_text(run + "/games/selfplay.txt")).size()), resumed.games);
}

}  // namespace
}  // namespace boardlab
