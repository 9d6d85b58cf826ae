// Paths, logs and checkpoint files of a run folder.
#include "nn/run_folder.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "core/atomic_file.h"
#include "core/errors.h"

namespace boardlab {

namespace fs = std::filesystem;

RunFolder::RunFolder(fs::path path, std::function<void(const std::string&)> log)
    : path_(std::move(path)), log_fn_(std::move(log)) {
  fs::create_directories(path_ / "checkpoints");
  fs::create_directories(path_ / "games");
  fs::create_directories(path_ / "evaluation");
  log_file_.open(path_ / "log.txt", std::ios::app);
  games_file_.open(path_ / "games" / "selfplay.txt", std::ios::app);
  if (!log_file_ || !games_file_) throw InputError("run folder '" + path_.string() + "': cannot write its log or games");
}

std::unique_ptr<RunFolder> RunFolder::create(const std::string& dir, std::function<void(const std::string&)> log) {
  if (fs::exists(fs::path(dir) / "config.yaml"))
    throw InputError("run folder '" + dir + "' already holds a run: resume it with --resume, or choose another --out");
  return std::unique_ptr<RunFolder>(new RunFolder(dir, std::move(log)));
}

std::unique_ptr<RunFolder> RunFolder::open(const std::string& dir, std::function<void(const std::string&)> log) {
  if (dir.empty()) throw InputError("resume: name the run folder to continue");
  if (!fs::exists(fs::path(dir) / "config.yaml"))
    throw InputError("resume: '" + dir + "' is not a run folder (no config.yaml)");
  return std::unique_ptr<RunFolder>(new RunFolder(dir, std::move(log)));
}

std::string RunFolder::config_path() const { return (path_ / "config.yaml").string(); }
std::string RunFolder::latest_checkpoint() const { return (path_ / "checkpoints" / "latest.pt").string(); }
std::string RunFolder::replay_path() const { return (path_ / "replay.bin").string(); }
std::string RunFolder::metrics_path() const { return (path_ / "metrics.csv").string(); }

std::string RunFolder::checkpoint_path(std::int64_t step) const {
  return (path_ / "checkpoints" / (step_name(step) + ".pt")).string();
}

std::string RunFolder::evaluation_base(std::int64_t step) const {
  return (path_ / "evaluation" / step_name(step)).string();
}

std::string RunFolder::step_name(std::int64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "step_%09lld", static_cast<long long>(step));
  return buf;
}

std::int64_t RunFolder::step_of(const std::string& file_name) {
  if (!file_name.starts_with("step_")) return -1;
  const char* begin = file_name.data() + 5;
  const char* end = file_name.data() + file_name.size();
  std::int64_t step = -1;
  auto [stop, ec] = std::from_chars(begin, end, step);
  if (ec != std::errc() || stop == begin || (stop != end && *stop != '.')) return -1;
  return step;
}

void RunFolder::log(const std::string& line) {
  std::lock_guard lock(mutex_);
  log_file_ << line << std::endl;
  if (log_fn_) log_fn_(line);
}

void RunFolder::append_game(const std::string& line) {
  std::lock_guard lock(mutex_);
  games_file_ << line << '\n';
}

std::vector<fs::path> RunFolder::checkpoints() const {
  std::vector<std::pair<std::int64_t, fs::path>> found;
  for (const auto& entry : fs::directory_iterator(path_ / "checkpoints")) {
    const std::string name = entry.path().filename().string();
    const std::int64_t step = step_of(name);
    if (step >= 0 && entry.path().extension() == ".pt") found.emplace_back(step, entry.path());
  }
  std::sort(found.begin(), found.end());
  std::vector<fs::path> out;
  for (auto& [step, path] : found) out.push_back(std::move(path));
  return out;
}

void RunFolder::publish_checkpoint(const std::string& path, int keep) const {
  const std::string latest = latest_checkpoint();
  const std::string temporary = temporary_path_for(latest);
  fs::remove(temporary);
  fs::create_hard_link(path, temporary);
  commit_file_atomically(temporary, latest);
  if (keep <= 0) return;
  const std::vector<fs::path> files = checkpoints();
  for (std::size_t i = 0; i + static_cast<std::size_t>(keep) + 1 < files.size(); ++i) fs::remove(files[i]);
}

}  // namespace boardlab
