// The project's one pseudo-random generator: fast, seedable, copyable, identical on every platform.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>

namespace boardlab {

// xoshiro256** seeded through splitmix64. std::mt19937 is 2.5 KB of state and its
// distributions differ between standard libraries; this is 32 bytes and reproducible.
class Rng {
 public:
  using result_type = std::uint64_t;

  explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

  void reseed(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }

  std::uint64_t operator()() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for n < 2^32).
  std::uint32_t below(std::uint32_t n) {
    return static_cast<std::uint32_t>(((*this)() >> 32) * n >> 32);
  }

  // Uniform double in [0, 1).
  double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

  // A derived generator for a sub-task (a game in a batch, a thread), independent of this one.
  Rng split() { return Rng((*this)() ^ 0x9e3779b97f4a7c15ULL); }

  // The whole generator state, for checkpoints that resume the same random stream.
  std::array<std::uint64_t, 4> state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  void set_state(const std::array<std::uint64_t, 4>& state) {
    for (int i = 0; i < 4; ++i) s_[i] = state[i];
  }

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  std::uint64_t s_[4];
};

// An index below n drawn with probability weight(i) / total, for non-negative weights summing
// to `total` (> 0): one uniform draw walked down the running sums. Where rounding leaves the
// draw past the last running sum, the last index with a positive weight.
template <class Weight>
  requires std::invocable<Weight&, std::size_t>
std::size_t draw_index(Rng& rng, std::size_t n, Weight&& weight, double total = 1.0) {
  double pick = rng.uniform() * total;
  std::size_t last = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = static_cast<double>(weight(i));
    if (w <= 0) continue;
    if ((pick -= w) < 0) return i;
    last = i;
  }
  return last;
}

// The same over a container of weights (weights[i]).
template <class Weights>
std::size_t draw_index(Rng& rng, const Weights& weights, double total = 1.0) {
  return draw_index(rng, std::size(weights), [&](std::size_t i) { return weights[i]; }, total);
}

}  // namespace boardlab
