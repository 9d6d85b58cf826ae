// A game's history packed in 16 bits a step (its seat and action), whose copies keep the capacity: clones in search append without reallocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"

namespace boardlab {

// kSeatBits high bits hold the seat (0 .. 2^kSeatBits − 1), the rest the action.
template <int kSeatBits>
class StepLog {
 public:
  static constexpr int kActionBits = 16 - kSeatBits;
  static constexpr Action kActionLimit = Action{1} << kActionBits;  // actions below this fit

  StepLog() = default;
  StepLog(const StepLog& other) { *this = other; }
  StepLog& operator=(const StepLog& other) {
    if (this != &other) {
      packed_.reserve(other.packed_.capacity());
      packed_.assign(other.packed_.begin(), other.packed_.end());
    }
    return *this;
  }
  void reserve(std::size_t n) { packed_.reserve(n); }
  void push_back(Player p, Action a) { packed_.push_back(static_cast<std::uint16_t>(a | (p << kActionBits))); }
  std::size_t size() const { return packed_.size(); }
  Step operator[](std::size_t i) const { return {packed_[i] >> kActionBits, packed_[i] & (kActionLimit - 1)}; }

 private:
  std::vector<std::uint16_t> packed_;
};

}  // namespace boardlab
