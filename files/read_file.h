// The one reader of a whole file a user may have named: regular files only, never more than a bound, never blocking on a FIFO.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace boardlab {

// For files boardlab wrote itself into a run folder whose size has no natural limit (a
// replay as large as its window): only the regular-file check applies.
inline constexpr std::size_t kNoSizeBound = std::numeric_limits<std::size_t>::max();

// The whole file at `path`, of at most `max_bytes` bytes. `what` names the file in errors
// ("config file", "checkpoint"). Opened without blocking (a FIFO never waits for a
// writer) and checked on the open descriptor, so that what is checked is what is read:
//   "cannot read WHAT 'PATH': No such file or directory" (any failure to open),
//   "cannot read WHAT 'PATH': it is a folder",
//   "cannot read WHAT 'PATH': it is not a regular file (a device, FIFO or socket)",
//   "WHAT 'PATH' is larger than 1 MiB: not a WHAT" (before a byte is read, and again
//   when the file grows past the bound while read),
// each an InputError: the user named the wrong file. A read that fails midway (EIO) is
// a FileError.
std::string read_file(const std::string& path, std::size_t max_bytes, std::string_view what);

// A size for messages: "1 MiB", "4 GiB", "100 bytes".
std::string size_text(std::size_t bytes);

}  // namespace boardlab
