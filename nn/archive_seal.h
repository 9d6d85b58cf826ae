// A whole-file checksum for checkpoint archives, kept in the zip comment and checked before LibTorch parses a byte.
//
// Why before parsing: LibTorch compiles the TorchScript code inside an archive as it loads,
// and its parser crashes (SEGV) on some corrupt code (found by fuzz/random_checkpoint), so a
// checksum of the content read back (checkpoint.cc) comes too late for a corrupt file. The
// seal is a zip comment, which every zip reader skips: torch.jit.load and unzip read a
// sealed checkpoint as before.
#pragma once

#include <string>
#include <string_view>

namespace boardlab {

// `archive` (a zip with an empty comment, as LibTorch writes it) with its seal appended as
// the comment: a hash of every byte before the comment-length field.
std::string seal_archive(std::string archive);

enum class Seal {
  kAbsent,  // no seal: a checkpoint written before seals, loaded unchecked
  kValid,
};
// Throws InputError naming `path` when `bytes` is not a zip archive, or has a comment that
// is not a seal matching its bytes.
Seal check_seal(std::string_view bytes, const std::string& path);

}  // namespace boardlab
