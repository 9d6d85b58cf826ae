// write, fsync, rename, fsync the folder.
#include "core/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace boardlab {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " '" + path + "': " + std::strerror(errno));
}

void fsync_path(const std::string& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) fail("cannot open", path);
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("cannot fsync", path);
  }
  ::close(fd);
}

}  // namespace

std::string temporary_path_for(const std::string& path) {
  std::ostringstream name;
  name << path << ".tmp." << ::getpid() << "." << std::hash<std::thread::id>{}(std::this_thread::get_id());
  return name.str();
}

void commit_file_atomically(const std::string& temporary, const std::string& path) {
  fsync_path(temporary, O_RDONLY);
  if (std::rename(temporary.c_str(), path.c_str()) != 0) fail("cannot rename " + temporary + " to", path);
  std::string folder = std::filesystem::path(path).parent_path().string();
  fsync_path(folder.empty() ? "." : folder, O_RDONLY | O_DIRECTORY);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  const std::string temporary = temporary_path_for(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) fail("cannot create", temporary);
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(temporary.c_str());
      fail("cannot write", temporary);
    }
    written += static_cast<std::size_t>(n);
  }
  ::close(fd);
  commit_file_atomically(temporary, path);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot read", path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

}  // namespace boardlab
