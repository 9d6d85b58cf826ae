// open without blocking, fstat the descriptor, refuse what is no regular file or too large, read at most the bound.
#include "files/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

namespace boardlab {
namespace {

// Closes the descriptor on every way out, the throws included.
struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

std::string quoted(std::string_view what, const std::string& path) {
  return std::string(what) + " '" + path + "'";
}

[[noreturn]] void refuse(std::string_view what, const std::string& path, const std::string& why) {
  throw InputError("cannot read " + quoted(what, path) + ": " + why);
}

[[noreturn]] void too_large(std::string_view what, const std::string& path, std::size_t max_bytes) {
  throw InputError(quoted(what, path) + " is larger than " + size_text(max_bytes) + ": not a " + std::string(what));
}

}  // namespace

std::string size_text(std::size_t bytes) {
  constexpr std::size_t kKiB = 1024;
  for (const auto& [unit, name] : {std::pair{kKiB * kKiB * kKiB, " GiB"}, {kKiB * kKiB, " MiB"}, {kKiB, " KiB"}})
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + name;
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string read_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, forever. The checks
  // are on the open descriptor, not the path, so a file swapped in between is caught too.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) refuse(what, path, std::strerror(errno));
  const Descriptor closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) refuse(what, path, std::strerror(errno));
  if (S_ISDIR(info.st_mode)) refuse(what, path, "it is a folder");
  if (!S_ISREG(info.st_mode)) refuse(what, path, "it is not a regular file (a device, FIFO or socket)");
  const auto size = static_cast<std::size_t>(info.st_size);
  if (size > max_bytes) too_large(what, path, max_bytes);
  std::string bytes;
  bytes.reserve(size);
  char buffer[1 << 16];
  while (true) {
    // One byte past the bound at most: enough to tell a file that grew while read.
    const std::size_t room = max_bytes - bytes.size();
    const std::size_t want = room < sizeof buffer ? room + 1 : sizeof buffer;
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw FileError("cannot read " + quoted(what, path) + ": " + std::strerror(errno));
    }
    if (n == 0) return bytes;
    if (static_cast<std::size_t>(n) > room) too_large(what, path, max_bytes);
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace boardlab
