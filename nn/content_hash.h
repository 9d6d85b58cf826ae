// A fast 64-bit hash for checkpoint checksums (not cryptographic: it finds corruption, not forgery).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace boardlab {

// Fed word by word: h ↦ (h ^ word) · an odd constant + c is a bijection of h, so a change in
// any one word always changes the result; a final mix spreads the bits.
class ContentHash {
 public:
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      mix(word);
    }
    std::uint64_t tail = 0;
    // An empty tensor's data is null, which memcpy must never get (found by fuzz/checkpoint_fields).
    if (i < size) std::memcpy(&tail, bytes + i, size - i);
    mix(tail ^ (static_cast<std::uint64_t>(size - i) << 56));
  }
  void add(std::string_view text) {
    add_int(static_cast<std::int64_t>(text.size()));
    add(text.data(), text.size());
  }
  void add_int(std::int64_t v) { mix(static_cast<std::uint64_t>(v)); }
  std::int64_t value() const {
    std::uint64_t z = h_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::int64_t>(z ^ (z >> 31));
  }

 private:
  void mix(std::uint64_t word) { h_ = (h_ ^ word) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL; }
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

}  // namespace boardlab
