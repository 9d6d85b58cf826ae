// Crash-safe file replacement: a reader sees the old file or the new one, never half of one.
#pragma once

#include <string>
#include <string_view>

namespace boardlab {

// Writes `bytes` to a temporary file beside `path`, fsyncs it, renames it over `path`
// and fsyncs the folder. Throws std::runtime_error naming the path and the OS error.
void write_file_atomically(const std::string& path, std::string_view bytes);

// For writers that produce the file themselves (LibTorch archives): fsync `temporary`,
// rename it to `path`, fsync the folder.
void commit_file_atomically(const std::string& temporary, const std::string& path);

// A fresh temporary name beside `path` (same folder, so rename is atomic).
std::string temporary_path_for(const std::string& path);

std::string read_file(const std::string& path);

}  // namespace boardlab
