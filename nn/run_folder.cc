// Paths, lock, logs, checkpoint commits and resume points of a run folder.
#include "nn/run_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "core/errors.h"
#include "files/atomic_file.h"

namespace boardlab {

namespace fs = std::filesystem;

namespace {

// Games are written in blocks of about this many bytes, and whole at each checkpoint.
constexpr std::size_t kGamesBufferBytes = 1 << 16;

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw FileError("cannot write '" + path + "': " + std::strerror(n < 0 ? errno : EIO));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

RunFolder::RunFolder(fs::path path, std::function<void(const std::string&)> log)
    : path_(std::move(path)), log_fn_(std::move(log)) {
  std::error_code error;
  fs::create_directories(path_, error);
  if (error) throw FileError("run folder '" + path_.string() + "': cannot create it: " + error.message());
  lock();
}

RunFolder::~RunFolder() {
  if (games_fd_ >= 0) {
    try {
      std::lock_guard lock(mutex_);
      flush_games();
    } catch (const std::exception&) {
      // A failed write was reported where it happened; closing must not throw.
    }
    ::close(games_fd_);
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock
}

void RunFolder::lock() {
  // flock belongs to the open file: it dies with the process (kill -9 included), so a lock
  // is never stale, and a second RunFolder in the same process is refused too.
  const std::string file = (path_ / "lock").string();
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw FileError("run folder '" + path_.string() + "': cannot open its lock file: " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    char text[32] = {};
    const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
    ::close(fd);
    if (error != EWOULDBLOCK)
      throw FileError("run folder '" + path_.string() + "': cannot lock it: " + std::strerror(error));
    std::string holder(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    holder = holder.substr(0, holder.find_first_not_of("0123456789"));
    throw InputError("run folder '" + path_.string() + "' is in use by another training" +
                     (holder.empty() ? std::string() : " (pid " + holder + ")") +
                     "; wait for it to end or stop it, or choose another folder");
  }
  lock_fd_ = fd;
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // The pid only informs the message above; the lock is what counts.
  }
}

void RunFolder::remove_temporary_files() {
  // Only with the lock held: no live writer can own one of them.
  int removed = 0;
  for (const fs::path& folder : {path_, path_ / "checkpoints", path_ / "games", path_ / "evaluation"}) {
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      if (!entry.is_regular_file() || !is_temporary_name(entry.path().filename().string())) continue;
      if (fs::remove(entry.path(), error)) ++removed;
    }
  }
  if (removed > 0)
    log("removed " + std::to_string(removed) + " temporary file" + (removed == 1 ? "" : "s") +
        " left by an interrupted writer");
}

std::unique_ptr<RunFolder> RunFolder::create(const std::string& dir, std::function<void(const std::string&)> log) {
  if (dir.empty()) throw InputError("train: name the run folder to create");
  std::error_code error;
  if (fs::exists(dir, error) && !fs::is_directory(dir, error))
    throw InputError("run folder '" + dir + "' is a file, not a folder: choose another --out");
  std::unique_ptr<RunFolder> run(new RunFolder(dir, std::move(log)));
  if (fs::exists(run->path_ / "config.yaml"))
    throw InputError("run folder '" + dir + "' already holds a run: resume it with --resume, or choose another --out");
  run->prepare();
  return run;
}

std::unique_ptr<RunFolder> RunFolder::open(const std::string& dir, std::function<void(const std::string&)> log) {
  if (dir.empty()) throw InputError("resume: name the run folder to continue");
  if (!fs::exists(fs::path(dir) / "config.yaml"))
    throw InputError("resume: '" + dir + "' is not a run folder (no config.yaml)");
  std::unique_ptr<RunFolder> run(new RunFolder(dir, std::move(log)));
  run->prepare();
  return run;
}

void RunFolder::prepare() {
  std::error_code error;
  fs::create_directories(path_ / "checkpoints", error);
  if (!error) fs::create_directories(path_ / "games", error);
  if (!error) fs::create_directories(path_ / "evaluation", error);
  if (error) throw FileError("run folder '" + path_.string() + "': cannot create its folders: " + error.message());
  log_file_.open(path_ / "log.txt", std::ios::app);
  if (!log_file_) throw FileError("cannot write '" + (path_ / "log.txt").string() + "': " + std::strerror(errno));
  const std::string games = (path_ / "games" / "selfplay.txt").string();
  games_fd_ = ::open(games.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (games_fd_ < 0) throw FileError("cannot write '" + games + "': " + std::strerror(errno));
  remove_temporary_files();
}

std::string RunFolder::config_path() const { return (path_ / "config.yaml").string(); }
std::string RunFolder::latest_checkpoint() const { return (path_ / "checkpoints" / "latest.pt").string(); }
std::string RunFolder::legacy_replay_path() const { return (path_ / "replay.bin").string(); }
std::string RunFolder::metrics_path() const { return (path_ / "metrics.csv").string(); }

std::string RunFolder::checkpoint_path(std::int64_t step) const {
  return (path_ / "checkpoints" / (step_name(step) + ".pt")).string();
}

std::string RunFolder::replay_path(std::int64_t step) const {
  return (path_ / "checkpoints" / (step_name(step) + ".replay")).string();
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
  if (log_fn_) log_fn_(line);
  log_file_ << line << std::endl;
  if (!log_file_) {
    const int error = errno;
    log_file_.clear();
    throw FileError("cannot write '" + (path_ / "log.txt").string() + "': " + std::strerror(error != 0 ? error : EIO));
  }
}

void RunFolder::flush_games() {
  if (games_buffer_.empty()) return;
  std::string buffer;
  buffer.swap(games_buffer_);
  write_all(games_fd_, buffer, (path_ / "games" / "selfplay.txt").string());
}

void RunFolder::append_game(const std::string& line) {
  std::lock_guard lock(mutex_);
  games_buffer_ += line;
  games_buffer_ += '\n';
  if (games_buffer_.size() >= kGamesBufferBytes) flush_games();
}

std::int64_t RunFolder::sync_games() {
  std::lock_guard lock(mutex_);
  flush_games();
  const std::string path = (path_ / "games" / "selfplay.txt").string();
  struct stat info {};
  if (::fsync(games_fd_) != 0 || ::fstat(games_fd_, &info) != 0)
    throw FileError("cannot write '" + path + "': " + std::strerror(errno));
  return static_cast<std::int64_t>(info.st_size);
}

std::vector<std::pair<std::int64_t, fs::path>> RunFolder::step_files(const fs::path& folder,
                                                                     const std::string& extension) const {
  std::vector<std::pair<std::int64_t, fs::path>> found;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::int64_t step = step_of(entry.path().filename().string());
    if (step >= 0 && entry.path().extension() == extension) found.emplace_back(step, entry.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<fs::path> RunFolder::checkpoints() const {
  std::vector<fs::path> out;
  for (auto& [step, path] : step_files(path_ / "checkpoints", ".pt")) out.push_back(std::move(path));
  return out;
}

void RunFolder::link_latest(const std::string& path) const {
  const std::string latest = latest_checkpoint();
  const std::string temporary = temporary_path_for(latest);
  fs::remove(temporary);
  fs::create_hard_link(path, temporary);
  commit_file_atomically(temporary, latest);
}

void RunFolder::publish_checkpoint(const std::string& path, int keep) const {
  link_latest(path);
  const auto files = step_files(path_ / "checkpoints", ".pt");
  if (keep > 0)
    for (std::size_t i = 0; i + static_cast<std::size_t>(keep) + 1 < files.size(); ++i) fs::remove(files[i].second);
  // The replays of the two newest checkpoints: the one before the latest is what a resume
  // falls back to when the latest cannot be read.
  const std::int64_t oldest_kept = files.size() >= 2 ? files[files.size() - 2].first : 0;
  for (const auto& [step, replay] : step_files(path_ / "checkpoints", ".replay"))
    if (step < oldest_kept) fs::remove(replay);
  fs::remove(legacy_replay_path());
}

void RunFolder::commit_checkpoint(std::int64_t step, int keep, const std::function<void(const std::string&)>& save_replay,
                                  const std::function<void(const std::string&)>& save_checkpoint) {
  const std::string replay = replay_path(step), checkpoint = checkpoint_path(step);
  save_replay(replay);
  try {
    save_checkpoint(checkpoint);
  } catch (...) {
    // A replay no checkpoint names; one that a committed checkpoint of this step names stays.
    std::error_code ignored;
    if (!fs::exists(checkpoint)) fs::remove(replay, ignored);
    throw;
  }
  publish_checkpoint(checkpoint, keep);
}

std::optional<ResumePoint> RunFolder::resume_point() {
  std::vector<std::string> problems;
  auto try_load = [&](const fs::path& file) -> std::optional<ResumePoint> {
    try {
      return ResumePoint{file.string(), load_checkpoint(file.string())};
    } catch (const std::exception& e) {
      problems.push_back(file.filename().string() + " cannot be read (" + first_line(e.what()) + ")");
      return std::nullopt;
    }
  };
  auto joined = [&] {
    std::string all;
    for (const auto& p : problems) all += (all.empty() ? "" : "; ") + p;
    return all;
  };
  const fs::path latest = latest_checkpoint();
  const bool has_latest = fs::exists(latest);
  auto is_latest = [&](const fs::path& file) {
    std::error_code error;
    return has_latest && fs::equivalent(latest, file, error);
  };
  // The step file is the commit point, latest.pt a link made after it: a run stopped between
  // the two has a newer step file than latest.pt, and that step file is where it stood.
  const auto files = step_files(path_ / "checkpoints", ".pt");
  bool latest_tried = false;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    const bool linked = is_latest(it->second);
    latest_tried = latest_tried || linked;
    auto point = try_load(it->second);
    if (!point) continue;
    if (!linked) {
      const std::string name = it->second.filename().string();
      if (!has_latest)
        problems.insert(problems.begin(), "latest.pt is missing");
      else if (problems.empty())
        problems.push_back("latest.pt does not link to " + name +
                           " (a run stopped between the two commits, or a copied folder)");
      log("resume: " + joined() + "; resuming from " + name + ", the newest readable checkpoint");
      link_latest(it->second.string());
    }
    return point;
  }
  // A folder whose step files are gone but whose latest.pt is its own file.
  if (has_latest && !latest_tried) {
    if (auto point = try_load(latest)) return point;
  }
  if (problems.empty()) return std::nullopt;
  throw InputError("resume: no checkpoint of '" + path_.string() + "' can be read: " + joined());
}

void RunFolder::rewind(std::int64_t step, std::int64_t games_bytes) {
  const fs::path games = path_ / "games" / "selfplay.txt";
  {
    std::lock_guard lock(mutex_);
    flush_games();
  }
  if (games_bytes >= 0 && fs::file_size(games) > static_cast<std::uintmax_t>(games_bytes))
    fs::resize_file(games, static_cast<std::uintmax_t>(games_bytes));
  for (const auto& [file_step, file] : step_files(path_ / "evaluation", ".txt"))
    if (file_step > step) fs::remove(file);
  for (const auto& [file_step, file] : step_files(path_ / "evaluation", ".json"))
    if (file_step > step) fs::remove(file);
  for (const auto& [file_step, file] : step_files(path_ / "checkpoints", ".replay"))
    if (file_step > step) fs::remove(file);
}

}  // namespace boardlab
