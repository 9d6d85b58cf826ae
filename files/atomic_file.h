// Crash-safe file replacement: a reader sees the old file or the new one, never half of one.
#pragma once

#include <string>
#include <string_view>

namespace boardlab {

// Writes `bytes` to a temporary file beside `path`, fsyncs it, renames it over `path`
// and fsyncs the folder. On any failure (a full disk, a file size limit) the temporary
// file is removed, `path` is left as it was, and FileError names `path` and the OS error.
void write_file_atomically(const std::string& path, std::string_view bytes);

// For writers that produce the file themselves: fsync `temporary`, rename it to `path`,
// fsync the folder. On failure `temporary` is removed and FileError names `path`.
void commit_file_atomically(const std::string& temporary, const std::string& path);

// A fresh temporary name beside `path` (same folder, so rename is atomic):
// "PATH.tmp.PID.THREAD"; is_temporary_name() recognizes it.
std::string temporary_path_for(const std::string& path);
// Whether a file name is one temporary_path_for made (what a killed writer leaves).
bool is_temporary_name(std::string_view file_name);

}  // namespace boardlab
