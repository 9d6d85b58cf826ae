// Stratego's board geometry: 100 cells as 128-bit masks, the lakes, neighbours, piece kinds and their notation.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

namespace boardlab::stratego {

// Cells are rank-major from Red's side: cell = 10·(rank − 1) + file index, a1 = 0, k10 = 99.
__extension__ typedef unsigned __int128 Bits;

inline constexpr int kSide = 10;
inline constexpr int kCells = 100;
inline constexpr std::string_view kFiles = "abcdefghik";  // no j, as in the Gravon archive

constexpr Bits bit(int cell) { return Bits{1} << cell; }
constexpr Bits kBoard = (Bits{1} << kCells) - 1;
constexpr Bits kLakes = bit(42) | bit(43) | bit(52) | bit(53) | bit(46) | bit(47) | bit(56) | bit(57);
constexpr Bits file_mask(int file) {
  Bits m = 0;
  for (int r = 0; r < kSide; ++r) m |= bit(r * kSide + file);
  return m;
}
constexpr Bits kFileA = file_mask(0), kFileK = file_mask(kSide - 1);

inline int lowest(Bits b) {
  const auto lo = static_cast<std::uint64_t>(b);
  return lo ? std::countr_zero(lo) : 64 + std::countr_zero(static_cast<std::uint64_t>(b >> 64));
}
inline int highest(Bits b) {
  const auto hi = static_cast<std::uint64_t>(b >> 64);
  return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(static_cast<std::uint64_t>(b));
}
inline int count(Bits b) {
  return std::popcount(static_cast<std::uint64_t>(b)) + std::popcount(static_cast<std::uint64_t>(b >> 64));
}
// All four orthogonal neighbours of the cells of b, on the board.
constexpr Bits dilate(Bits b) {
  return ((b << kSide) | (b >> kSide) | ((b & ~kFileK) << 1) | ((b & ~kFileA) >> 1)) & kBoard;
}

// Directions in action order: north (towards rank 10), east, south, west.
inline constexpr int kDirs = 4;
inline constexpr int kStep[kDirs] = {kSide, 1, -kSide, -1};

// The cells next to those of b in direction d, on the board (lakes included).
constexpr Bits shift(Bits b, int d) {
  switch (d) {
    case 0: return (b << kSide) & kBoard;
    case 1: return (b & ~kFileK) << 1;
    case 2: return b >> kSide;
    default: return (b & ~kFileA) >> 1;
  }
}
// The cells of b moved back by `distance` squares against direction d: the sources of moves
// that land on b (the caller knows those moves stayed on the board).
constexpr Bits shift_back(Bits b, int d, int distance) {
  return d == 0 ? b >> (kSide * distance) : d == 1 ? b >> distance : d == 2 ? b << (kSide * distance) : b << distance;
}

// The next cell from `cell` in direction d, or -1 off the board or in a lake.
struct Neighbours {
  std::array<std::array<std::int8_t, kDirs>, kCells> next{};
  constexpr Neighbours() {
    for (int c = 0; c < kCells; ++c)
      for (int d = 0; d < kDirs; ++d) {
        const int f = c % kSide, r = c / kSide;
        const int nf = f + (d == 1) - (d == 3), nr = r + (d == 0) - (d == 2);
        const int n = nr * kSide + nf;
        next[c][d] = static_cast<std::int8_t>(
            nf < 0 || nf >= kSide || nr < 0 || nr >= kSide || (kLakes & bit(n)) ? -1 : n);
      }
  }
};
inline constexpr Neighbours kNeighbours;

// The cells a piece on `cell` passes moving in direction d, up to the board's edge or a lake:
// a Scout's whole reach on an empty board.
struct Rays {
  std::array<std::array<Bits, kDirs>, kCells> ray{};
  std::array<std::array<std::int8_t, kDirs>, kCells> length{};
  constexpr Rays() {
    for (int c = 0; c < kCells; ++c)
      for (int d = 0; d < kDirs; ++d)
        for (int n = kNeighbours.next[c][d]; n >= 0; n = kNeighbours.next[n][d]) {
          ray[c][d] |= bit(n);
          ++length[c][d];
        }
  }
};
inline constexpr Rays kRays;

// Piece kinds: 0..9 are the ranks 1 (Spy) .. 10 (Marshal) by strength − 1, then the immobile ones.
enum Kind : std::int8_t {
  kSpy = 0, kScout = 1, kMiner = 2, kSergeant = 3, kLieutenant = 4, kCaptain = 5, kMajor = 6,
  kColonel = 7, kGeneral = 8, kMarshal = 9, kBomb = 10, kFlag = 11,
};
inline constexpr int kKinds = 12;
inline constexpr int kNoPiece = 12;  // the "empty square" of a barrage setup
// One character per kind, the rank numbers of the rule file with X for 10 (the Gravon convention).
inline constexpr std::string_view kKindChars = "123456789XBF";
inline constexpr std::string_view kKindNames[kKinds] = {"Spy",   "Scout", "Miner",   "Sergeant", "Lieutenant", "Captain",
                                                        "Major", "Colonel", "General", "Marshal", "Bomb", "Flag"};
constexpr bool is_mobile(int kind) { return kind < kBomb; }

inline constexpr std::array<std::int8_t, kKinds> kClassicCounts = {1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 6, 1};
inline constexpr std::array<std::int8_t, kKinds> kBarrageCounts = {1, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1};

// The result of `attacker` striking `defender`: +1 the attacker wins, 0 both fall, -1 the defender wins.
constexpr int strike(int attacker, int defender) {
  if (defender == kFlag) return 1;
  if (defender == kBomb) return attacker == kMiner ? 1 : -1;
  if (attacker == kSpy && defender == kMarshal) return 1;
  return attacker > defender ? 1 : attacker == defender ? 0 : -1;
}

inline int kind_of_char(char c) {
  if (c == 'x') c = 'X';
  if (c == 'b') c = 'B';
  if (c == 'f') c = 'F';
  const auto at = kKindChars.find(c);
  return at == std::string_view::npos ? -1 : static_cast<int>(at);
}

}  // namespace boardlab::stratego
