// Sealing zip archives with a checksum in their comment, and checking the seal.
#include "nn/archive_seal.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "core/errors.h"
#include "nn/content_hash.h"

namespace boardlab {
namespace {

// The zip end-of-central-directory record: a signature, 16 bytes of counts and offsets, a
// 16-bit comment length, then the comment.
constexpr std::string_view kEndSignature = "PK\x05\x06";
constexpr std::size_t kEndRecordSize = 22;
constexpr std::size_t kCommentLengthOffset = 20;
constexpr std::string_view kSealPrefix = "boardlab-seal:";
constexpr std::size_t kSealSize = kSealPrefix.size() + 16;

// The offset of the end record whose comment runs exactly to the end of `bytes`.
std::optional<std::size_t> find_end_record(std::string_view bytes) {
  if (bytes.size() < kEndRecordSize) return std::nullopt;
  const std::size_t last = bytes.size() - kEndRecordSize;
  const std::size_t first = last > 0xFFFF ? last - 0xFFFF : 0;
  for (std::size_t at = last + 1; at-- > first;) {
    if (bytes.substr(at, 4) != kEndSignature) continue;
    const auto lo = static_cast<unsigned char>(bytes[at + kCommentLengthOffset]);
    const auto hi = static_cast<unsigned char>(bytes[at + kCommentLengthOffset + 1]);
    if (at + kEndRecordSize + (lo | (hi << 8)) == bytes.size()) return at;
  }
  return std::nullopt;
}

std::string seal_of(std::string_view sealed_part) {
  ContentHash hash;
  hash.add(sealed_part.data(), sealed_part.size());
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash.value()));
  return std::string(kSealPrefix) + hex;
}

}  // namespace

std::string seal_archive(std::string archive) {
  const auto end = find_end_record(archive);
  if (!end || *end + kEndRecordSize != archive.size())
    throw std::logic_error("seal_archive: not a zip archive with an empty comment");
  const std::string seal = seal_of(std::string_view(archive).substr(0, *end + kCommentLengthOffset));
  archive[*end + kCommentLengthOffset] = static_cast<char>(seal.size() & 0xFF);
  archive[*end + kCommentLengthOffset + 1] = static_cast<char>(seal.size() >> 8);
  return archive + seal;
}

Seal check_seal(std::string_view bytes, const std::string& path) {
  const auto end = find_end_record(bytes);
  if (!end)
    throw InputError("checkpoint '" + path + "' cannot be read (corrupt or not a checkpoint): it is not a zip archive");
  const std::string_view comment = bytes.substr(*end + kEndRecordSize);
  // LibTorch writes no comment, so any other comment is damage too.
  if (comment.empty()) return Seal::kAbsent;
  if (comment.size() != kSealSize || comment != seal_of(bytes.substr(0, *end + kCommentLengthOffset)))
    throw InputError("checkpoint '" + path + "': checksum mismatch: the file is corrupt (its bytes no longer " +
                     "hash to the seal saved with them)");
  return Seal::kValid;
}

}  // namespace boardlab
