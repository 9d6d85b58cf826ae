// 10×10 bitboards for Virus War: one 128-bit word, bit 10·rank + file, with precomputed masks.
#pragma once

#include <bit>
#include <cstdint>

namespace boardlab {

__extension__ typedef unsigned __int128 Bits;  // GCC/Clang builtin: two words, shifts in a few instructions

inline constexpr int kBoardSide = 10;
inline constexpr int kBoardCells = 100;

constexpr Bits bit(int cell) { return Bits{1} << cell; }

inline constexpr Bits kAllCells = (Bits{1} << kBoardCells) - 1;

constexpr Bits file_mask(int file) {
  Bits mask = 0;
  for (int rank = 0; rank < kBoardSide; ++rank) mask |= bit(rank * kBoardSide + file);
  return mask;
}
inline constexpr Bits kNotFileA = kAllCells & ~file_mask(0);
inline constexpr Bits kNotFileK = kAllCells & ~file_mask(kBoardSide - 1);

// The set and its 8-neighbourhood, clipped to the board.
constexpr Bits dilate(Bits b) {
  const Bits row = b | ((b << 1) & kNotFileA) | ((b >> 1) & kNotFileK);
  return (row | (row << kBoardSide) | (row >> kBoardSide)) & kAllCells;
}

inline int popcount(Bits b) {
  return std::popcount(static_cast<std::uint64_t>(b)) + std::popcount(static_cast<std::uint64_t>(b >> 64));
}

inline int lowest_cell(Bits b) {
  const auto low = static_cast<std::uint64_t>(b);
  return low ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(b >> 64));
}

// Index of the n-th set bit (n < popcount(word)).
inline int select_bit(std::uint64_t word, int n) {
#if defined(__BMI2__)
  return std::countr_zero(__builtin_ia32_pdep_di(std::uint64_t{1} << n, word));
#else
  int base = 0;
  for (int width = 32; width >= 8; width /= 2) {
    const std::uint64_t low = word & ((std::uint64_t{1} << width) - 1);
    const int count = std::popcount(low);
    if (n >= count) {
      n -= count;
      word >>= width;
      base += width;
    } else {
      word = low;
    }
  }
  for (; n > 0; --n) word &= word - 1;
  return base + std::countr_zero(word);
#endif
}

inline int select_cell(Bits b, int n) {
  const auto low = static_cast<std::uint64_t>(b);
  const int low_count = std::popcount(low);
  return n < low_count ? select_bit(low, n) : 64 + select_bit(static_cast<std::uint64_t>(b >> 64), n - low_count);
}

}  // namespace boardlab
