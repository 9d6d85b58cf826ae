// Bit sets of the cells of a width×height grid (bit row·width + file, a1 first) and their 8-neighbourhood operations.
//
// Virus War (10×10), Klopodavka and War (up to 1280 cells) keep their boards as such sets. The
// code is written once over the set type B: SmallBits, the compiler's 128-bit integer, for
// boards of up to 128 cells (its shifts take a few instructions, and a Grid that is a
// constant folds into them), and WideBits<kWords> for larger ones. Both behave as unsigned
// integers (& | ^ ~ << >> ==), which is all the rules need.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>
#include <type_traits>

namespace boardlab {

__extension__ typedef unsigned __int128 SmallBits;  // GCC/Clang builtin: two words

// kWords 64-bit words, least significant first, with the operators of an unsigned integer.
template <int kWords>
struct WideBits {
  static_assert(kWords >= 2);
  std::array<std::uint64_t, kWords> word{};

  friend constexpr WideBits operator&(WideBits a, const WideBits& b) { return a &= b; }
  friend constexpr WideBits operator|(WideBits a, const WideBits& b) { return a |= b; }
  friend constexpr WideBits operator^(WideBits a, const WideBits& b) { return a ^= b; }
  constexpr WideBits& operator&=(const WideBits& b) {
    for (int i = 0; i < kWords; ++i) word[i] &= b.word[i];
    return *this;
  }
  constexpr WideBits& operator|=(const WideBits& b) {
    for (int i = 0; i < kWords; ++i) word[i] |= b.word[i];
    return *this;
  }
  constexpr WideBits& operator^=(const WideBits& b) {
    for (int i = 0; i < kWords; ++i) word[i] ^= b.word[i];
    return *this;
  }
  constexpr WideBits operator~() const {
    WideBits out;
    for (int i = 0; i < kWords; ++i) out.word[i] = ~word[i];
    return out;
  }
  // Towards higher cells by n bits (0 <= n < 64·kWords).
  constexpr WideBits operator<<(int n) const {
    WideBits out;
    if (n > 0 && n < 64) {  // a file or a rank of a board up to 63 wide: the usual case, unrolled
      out.word[0] = word[0] << n;
      for (int i = 1; i < kWords; ++i) out.word[i] = (word[i] << n) | (word[i - 1] >> (64 - n));
      return out;
    }
    const int words = n / 64, bits = n % 64;
    for (int i = kWords - 1; i >= words; --i) {
      out.word[i] = word[i - words] << bits;
      if (bits != 0 && i > words) out.word[i] |= word[i - words - 1] >> (64 - bits);
    }
    return out;
  }
  // Towards lower cells by n bits (0 <= n < 64·kWords).
  constexpr WideBits operator>>(int n) const {
    WideBits out;
    if (n > 0 && n < 64) {
      for (int i = 0; i + 1 < kWords; ++i) out.word[i] = (word[i] >> n) | (word[i + 1] << (64 - n));
      out.word[kWords - 1] = word[kWords - 1] >> n;
      return out;
    }
    const int words = n / 64, bits = n % 64;
    for (int i = 0; i + words < kWords; ++i) {
      out.word[i] = word[i + words] >> bits;
      if (bits != 0 && i + words + 1 < kWords) out.word[i] |= word[i + words + 1] << (64 - bits);
    }
    return out;
  }
  constexpr bool operator==(const WideBits&) const = default;
};

// The set of one cell.
template <typename B>
constexpr B cell_bit(int cell) {
  if constexpr (std::is_same_v<B, SmallBits>) {
    return SmallBits{1} << cell;
  } else {
    B out;
    out.word[cell / 64] = std::uint64_t{1} << (cell % 64);
    return out;
  }
}

constexpr bool any(SmallBits b) { return b != 0; }
template <int kWords>
constexpr bool any(const WideBits<kWords>& b) {
  for (std::uint64_t w : b.word)
    if (w != 0) return true;
  return false;
}

template <typename B>
constexpr bool has_cell(const B& b, int cell) {
  return any(b & cell_bit<B>(cell));
}

inline int popcount(SmallBits b) {
  return std::popcount(static_cast<std::uint64_t>(b)) + std::popcount(static_cast<std::uint64_t>(b >> 64));
}
template <int kWords>
int popcount(const WideBits<kWords>& b) {
  int count = 0;
  for (std::uint64_t w : b.word) count += std::popcount(w);
  return count;
}

// The lowest cell of a non-empty set.
inline int lowest_cell(SmallBits b) {
  const auto low = static_cast<std::uint64_t>(b);
  return low ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(b >> 64));
}
template <int kWords>
int lowest_cell(const WideBits<kWords>& b) {
  int i = 0;
  while (b.word[i] == 0) ++i;
  return 64 * i + std::countr_zero(b.word[i]);
}

// Index of the n-th set bit of a word (n < popcount(word)).
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

// The n-th cell of a set, in ascending order (n < popcount).
inline int select_cell(SmallBits b, int n) {
  const auto low = static_cast<std::uint64_t>(b);
  const int low_count = std::popcount(low);
  return n < low_count ? select_bit(low, n) : 64 + select_bit(static_cast<std::uint64_t>(b >> 64), n - low_count);
}
template <int kWords>
int select_cell(const WideBits<kWords>& b, int n) {
  int i = 0;
  for (int count = std::popcount(b.word[0]); n >= count; count = std::popcount(b.word[++i])) n -= count;
  return 64 * i + select_bit(b.word[i], n);
}

// Calls f(cell) for every cell of the set, in ascending order.
template <typename F>
void for_each_cell(SmallBits b, F&& f) {
  for (auto w = static_cast<std::uint64_t>(b); w; w &= w - 1) f(std::countr_zero(w));
  for (auto w = static_cast<std::uint64_t>(b >> 64); w; w &= w - 1) f(64 + std::countr_zero(w));
}
template <int kWords, typename F>
void for_each_cell(const WideBits<kWords>& b, F&& f) {
  for (int i = 0; i < kWords; ++i)
    for (std::uint64_t w = b.word[i]; w; w &= w - 1) f(64 * i + std::countr_zero(w));
}

// The cells of a set, ascending.
template <typename B>
std::vector<int> cells_of(const B& b) {
  std::vector<int> out;
  for_each_cell(b, [&](int c) { out.push_back(c); });
  return out;
}

// The image of a set under a map of cells (a board symmetry).
template <typename B>
B map_cells(const B& b, std::span<const int> cell_map) {
  B out{};
  for_each_cell(b, [&](int c) { out |= cell_bit<B>(cell_map[c]); });
  return out;
}

// The shape of a board and the masks its neighbourhood operations need.
template <typename B>
struct Grid {
  using Set = B;
  int width = 0;
  int height = 0;
  int cells = 0;
  B all{};             // every cell of the board, no bit beyond it
  B not_first_file{};  // shifting one cell east must not wrap onto the next rank's first file
  B not_last_file{};

  constexpr Grid(int board_width, int board_height)
      : width(board_width), height(board_height), cells(board_width * board_height) {
    for (int cell = 0; cell < cells; ++cell) {
      const B b = cell_bit<B>(cell);
      all |= b;
      if (cell % width != 0) not_first_file |= b;
      if (cell % width != width - 1) not_last_file |= b;
    }
  }
};

// The set and its 8-neighbourhood, clipped to the board.
template <typename B>
constexpr B dilate(const B& b, const Grid<B>& g) {
  const B row = b | ((b << 1) & g.not_first_file) | ((b >> 1) & g.not_last_file);
  return (row | (row << g.width) | (row >> g.width)) & g.all;
}

// The cells all 8 of whose neighbours are in the set (so none on the board's edge): the
// centres of full rings.
template <typename B>
constexpr B ring_centres(const B& b, const Grid<B>& g) {
  const B sides = ((b >> 1) & g.not_last_file) & ((b << 1) & g.not_first_file);  // east and west in b
  const B rows = sides & b;  // a cell and both its sides: a full row of three
  return sides & (rows >> g.width) & (rows << g.width) & g.all;
}

}  // namespace boardlab
