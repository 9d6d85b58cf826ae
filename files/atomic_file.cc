// write, fsync, rename, fsync the folder; on failure, no temporary file left behind.
#include "files/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include "core/errors.h"

namespace boardlab {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
  throw FileError(what + " '" + path + "': " + std::strerror(error));
}

// Returns 0 or the errno of the failure.
int fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return errno;
  const int error = ::fsync(fd) != 0 ? errno : 0;
  ::close(fd);
  return error;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::string temporary_path_for(const std::string& path) {
  std::ostringstream name;
  name << path << ".tmp." << ::getpid() << "." << std::hash<std::thread::id>{}(std::this_thread::get_id());
  return name.str();
}

bool is_temporary_name(std::string_view name) {
  const std::size_t mark = name.rfind(".tmp.");
  if (mark == std::string_view::npos || mark == 0) return false;
  const std::string_view rest = name.substr(mark + 5);
  const std::size_t dot = rest.find('.');
  return dot != std::string_view::npos && all_digits(rest.substr(0, dot)) && all_digits(rest.substr(dot + 1));
}

void commit_file_atomically(const std::string& temporary, const std::string& path) {
  // A file system may report a full disk only at fsync (delayed allocation, network file
  // systems): the temporary file goes, the old file stays.
  if (const int error = fsync_path(temporary, O_RDONLY); error != 0) {
    ::unlink(temporary.c_str());
    fail("cannot write", path, error);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    fail("cannot rename " + temporary + " to", path, error);
  }
  const std::string folder = std::filesystem::path(path).parent_path().string();
  if (const int error = fsync_path(folder.empty() ? "." : folder, O_RDONLY | O_DIRECTORY); error != 0)
    fail("cannot fsync the folder of", path, error);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = temporary_path_for(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("cannot write", path, errno);
  auto give_up = [&](int error) {
    ::close(fd);
    ::unlink(temporary.c_str());
    fail("cannot write", path, error);
  };
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      give_up(errno);
    }
    if (n == 0) give_up(EIO);
    written += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    fail("cannot write", path, error);
  }
  commit_file_atomically(temporary, path);
}

}  // namespace boardlab
