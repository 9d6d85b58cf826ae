// The run folder: where a training run keeps its config, checkpoints, replay, games, evaluations and log.
//
// A run folder holds:
//   config.yaml            the config as used (every key)
//   checkpoints/           step_NNNNNNNNN.pt and latest.pt (a hard link to the newest)
//   replay.bin             the replay window, saved with every checkpoint
//   metrics.csv            one row per progress line and per evaluation (nn/metrics_file.h)
//   games/selfplay.txt     every self-play game: "[returns] record" in the game's notation, " (truncated)" after a capped one
//   evaluation/            each evaluation's table (.txt) and results (.json)
//   log.txt                the progress lines
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace boardlab {

class RunFolder {
 public:
  // A new run in `dir` (created as needed); refuses a folder that already holds a run.
  static std::unique_ptr<RunFolder> create(const std::string& dir, std::function<void(const std::string&)> log);
  // An existing run, to resume; refuses a folder without config.yaml.
  static std::unique_ptr<RunFolder> open(const std::string& dir, std::function<void(const std::string&)> log);

  const std::filesystem::path& path() const { return path_; }
  std::string config_path() const;
  std::string latest_checkpoint() const;
  std::string replay_path() const;
  std::string metrics_path() const;
  // The files of one step: checkpoints/step_N.pt, evaluation/step_N (add .txt or .json).
  std::string checkpoint_path(std::int64_t step) const;
  std::string evaluation_base(std::int64_t step) const;
  // "step_000012345": nine digits, so that names sort by step up to a billion steps.
  static std::string step_name(std::int64_t step);
  // The step a checkpoint or evaluation file name stands for, or -1 for another name.
  static std::int64_t step_of(const std::string& file_name);

  // Writes to log.txt and to the run's log callback; thread-safe.
  void log(const std::string& line);
  // Appends a line to games/selfplay.txt; thread-safe.
  void append_game(const std::string& line);

  // Makes latest.pt a hard link to the checkpoint at `path` in one rename (never missing,
  // never partial), then keeps the `keep` newest step files besides it (0: all), by step.
  void publish_checkpoint(const std::string& path, int keep) const;
  // The step_N.pt files, oldest first by step (not by name: older runs wrote six digits).
  std::vector<std::filesystem::path> checkpoints() const;

 private:
  RunFolder(std::filesystem::path path, std::function<void(const std::string&)> log);

  std::filesystem::path path_;
  std::function<void(const std::string&)> log_fn_;
  std::mutex mutex_;
  std::ofstream log_file_;
  std::ofstream games_file_;
};

}  // namespace boardlab
