// The run folder: where a training run keeps its config, checkpoints, replay, games, evaluations and log.
//
// A run folder holds:
//   config.yaml            the config as used (every key)
//   lock                   held (flock) by the process training in the folder; holds its pid
//   checkpoints/           step_NNNNNNNNN.pt and latest.pt (a hard link to the newest), and
//                          step_NNNNNNNNN.replay, the replay window at the two newest steps
//   metrics.csv            one row per progress line and per evaluation (nn/metrics_file.h)
//   games/selfplay.txt     every self-play game: "[returns] record" in the game's notation, " (truncated)" after a capped one
//   evaluation/            each evaluation's table (.txt) and results (.json)
//   log.txt                the progress lines
//
// The folder always reads as one moment, the latest checkpoint's: the replay is written
// under its step's name before the checkpoint, and the checkpoint (the commit point) records
// how far games/selfplay.txt and metrics.csv had got. A resume cuts everything written after
// it: longer games and metrics, evaluations of later steps, replays of uncommitted steps and
// the temporary files of killed writers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nn/checkpoint.h"

namespace boardlab {

// Where a resume starts: a checkpoint and the file it was read from.
struct ResumePoint {
  std::string path;
  Checkpoint checkpoint;
};

class RunFolder {
 public:
  // A new run in `dir` (created as needed); refuses a folder that already holds a run or
  // that another process uses. Both lock the folder for the object's lifetime.
  static std::unique_ptr<RunFolder> create(const std::string& dir, std::function<void(const std::string&)> log);
  // An existing run, to resume; refuses a folder without config.yaml or in use.
  static std::unique_ptr<RunFolder> open(const std::string& dir, std::function<void(const std::string&)> log);
  ~RunFolder();  // flushes the games and releases the lock
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string config_path() const;
  std::string latest_checkpoint() const;
  std::string metrics_path() const;
  // The files of one step: checkpoints/step_N.pt and .replay, evaluation/step_N (add .txt or .json).
  std::string checkpoint_path(std::int64_t step) const;
  std::string replay_path(std::int64_t step) const;
  std::string evaluation_base(std::int64_t step) const;
  // replay.bin, the one replay file of older versions (saved with every checkpoint, and
  // sometimes ahead of it).
  std::string legacy_replay_path() const;
  // "step_000012345": nine digits, so that names sort by step up to a billion steps.
  static std::string step_name(std::int64_t step);
  // The step a checkpoint or evaluation file name stands for, or -1 for another name.
  static std::int64_t step_of(const std::string& file_name);

  // Writes to log.txt and to the run's log callback; thread-safe. FileError when log.txt
  // cannot be written (after the callback saw the line).
  void log(const std::string& line);
  // Appends a line to games/selfplay.txt (buffered); thread-safe. FileError on failure.
  void append_game(const std::string& line);
  // Writes the buffered games and fsyncs the file; returns its size, the checkpoint's mark.
  std::int64_t sync_games();

  // Commits the run's state at `step`: `save_replay` writes replay_path(step), then
  // `save_checkpoint` writes checkpoint_path(step) (the commit point), then latest.pt
  // becomes a hard link to it in one rename and the `keep` newest step files besides it are
  // kept (0: all), by step, and the replays of the two newest. When a save fails, what it
  // wrote for this step is removed, the previous checkpoint stays the latest and the error
  // propagates.
  void commit_checkpoint(std::int64_t step, int keep, const std::function<void(const std::string&)>& save_replay,
                         const std::function<void(const std::string&)>& save_checkpoint);
  // The latest.pt part of commit_checkpoint, for a checkpoint already at `path`.
  void publish_checkpoint(const std::string& path, int keep) const;
  // The step_N.pt files, oldest first by step (not by name: older runs wrote six digits).
  std::vector<std::filesystem::path> checkpoints() const;

  // The checkpoint a resume starts from: the newest readable step_N.pt (latest.pt alone when
  // no step file is left). When that is not what latest.pt links to (latest.pt missing,
  // behind it, or unreadable with it), one log line says why and latest.pt is linked to it.
  // None when the folder has no checkpoint at all (a run that died before its first);
  // InputError listing each file's problem when it has some and none reads.
  std::optional<ResumePoint> resume_point();
  // Cuts the folder back to the moment of the checkpoint at `step` (-1: before any):
  // games/selfplay.txt to `games_bytes` (unless -1, unknown), and removes evaluations of
  // later steps and the replays of steps after it. metrics.csv is cut by MetricsFile.
  void rewind(std::int64_t step, std::int64_t games_bytes);

 private:
  RunFolder(std::filesystem::path path, std::function<void(const std::string&)> log);
  // Makes latest.pt a hard link to `path` in one rename.
  void link_latest(const std::string& path) const;
  void lock();
  void prepare();  // the subfolders, log.txt, games/selfplay.txt; stale temporary files go
  void remove_temporary_files();
  void flush_games();  // with mutex_ held
  // The step files of a folder with `extension`, by step.
  std::vector<std::pair<std::int64_t, std::filesystem::path>> step_files(const std::filesystem::path& folder,
                                                                         const std::string& extension) const;

  std::filesystem::path path_;
  std::function<void(const std::string&)> log_fn_;
  int lock_fd_ = -1;
  std::mutex mutex_;
  std::ofstream log_file_;
  int games_fd_ = -1;
  std::string games_buffer_;
};

}  // namespace boardlab
