// A flat hash table from a pair of 64-bit keys to a node index: joint children and transpositions.
#pragma once

#include <cstdint>
#include <vector>

namespace boardlab {

// Open addressing with linear probing over one vector: lookups touch one cache line, and
// clear() keeps the capacity, so a search that reuses its table allocates only while it
// grows. No erase: entries live until clear().
class NodeTable {
 public:
  // The node stored for (a, b), or -1.
  std::int32_t find(std::uint64_t a, std::uint64_t b) const {
    if (slots_.empty()) return -1;
    for (std::size_t i = index(a, b);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (slot.node < 0) return -1;
      if (slot.a == a && slot.b == b) return slot.node;
    }
  }

  // Stores `node` for (a, b) unless an entry is there; returns the node now stored.
  std::int32_t insert(std::uint64_t a, std::uint64_t b, std::int32_t node) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    for (std::size_t i = index(a, b);; i = (i + 1) & mask()) {
      Slot& slot = slots_[i];
      if (slot.node < 0) {
        slot = {a, b, node};
        ++used_;
        return node;
      }
      if (slot.a == a && slot.b == b) return slot.node;
    }
  }

  void clear() {
    if (used_ == 0) return;
    for (Slot& slot : slots_) slot.node = -1;
    used_ = 0;
  }
  std::size_t size() const { return used_; }

  // Calls f(a, b, node) for every entry.
  template <typename F>
  void for_each(F&& f) const {
    for (const Slot& slot : slots_)
      if (slot.node >= 0) f(slot.a, slot.b, slot.node);
  }

 private:
  struct Slot {
    std::uint64_t a = 0, b = 0;
    std::int32_t node = -1;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t index(std::uint64_t a, std::uint64_t b) const {
    // splitmix64's finalizer over both keys: state hashes are already mixed, node
    // indices and joint codes are not.
    std::uint64_t h = a ^ (b * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(h ^ (h >> 31)) & mask();
  }
  void grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : 2 * old.size(), Slot{});
    used_ = 0;
    for (const Slot& slot : old)
      if (slot.node >= 0) insert(slot.a, slot.b, slot.node);
  }

  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace boardlab
