// Morabaraba board tables: the 24 points, their names and squares on the board, adjacency and mills as 24-bit masks.
//
// Point order is the rule file's listing order: ring r (0 outer, 1 middle, 2 inner), position
// k = 0..7 clockwise from the top-left corner, index 8·r + k:
//    0 a7   1 d7   2 g7   3 g4   4 g1   5 d1   6 a1   7 a4
//    8 b6   9 d6  10 f6  11 f4  12 f2  13 d2  14 b2  15 b4
//   16 c5  17 d5  18 e5  19 e4  20 e3  21 d3  22 c3  23 c4
// In this order the board's lines are regular: a point is adjacent to its ring neighbours
// (k ± 1) and to the point with the same k on the next ring (the spokes join the midpoints,
// odd k; the diagonals join the corners, even k); the mills are the ring sides (k, k+1, k+2
// for even k) and the eight radial lines (k, 8 + k, 16 + k). So the observation's grid is
// this order itself: a row per ring, a column per k, the columns wrapping (k = 7 is next to
// k = 0); every line of the board joins neighbouring cells and every mill is a straight line
// of three, where one 3×3 convolution sees it whole.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

namespace boardlab::morabaraba {

using Points = std::uint32_t;  // bit i: point i

inline constexpr int kNumPoints = 24;
inline constexpr int kNumMills = 20;
inline constexpr int kBoardSide = 7;  // files a–g, ranks 1–7
inline constexpr int kRings = 3;      // the observation grid's rows
inline constexpr int kRingPoints = 8;  // and its columns: point 8·r + k is cell 8·r + k
inline constexpr Points kAllPoints = (Points{1} << kNumPoints) - 1;
// The corners (even k), where the diagonals meet. Turning the rings by one column maps corners to
// midpoints, which no symmetry does (the ring sides' mills start at corners), so the observation
// marks them: a network whose convolutions wrap the columns could not tell them apart otherwise.
inline constexpr Points kCorners = 0x555555;
// Pads the per-point mill lists: a mask no set of points can complete (bit 31 is never a point).
inline constexpr Points kNoMill = Points{1} << 31;

constexpr Points bit(int point) { return Points{1} << point; }

inline constexpr std::array<std::string_view, kNumPoints> kPointNames = {
    "a7", "d7", "g7", "g4", "g1", "d1", "a1", "a4",  //
    "b6", "d6", "f6", "f4", "f2", "d2", "b2", "b4",  //
    "c5", "d5", "e5", "e4", "e3", "d3", "c3", "c4"};

constexpr int point_file(int point) { return kPointNames[point][0] - 'a'; }
constexpr int point_rank(int point) { return kPointNames[point][1] - '1'; }  // 0 for rank 1

// The point on each square of the 7×7 board (row-major from a1), or -1 where there is none.
inline constexpr std::array<std::int8_t, kBoardSide * kBoardSide> kSquarePoint = [] {
  std::array<std::int8_t, kBoardSide * kBoardSide> out{};
  for (auto& p : out) p = -1;
  for (int p = 0; p < kNumPoints; ++p) out[point_rank(p) * kBoardSide + point_file(p)] = static_cast<std::int8_t>(p);
  return out;
}();

// The point at (file, rank) counted from 0, or -1 where the board has no point.
constexpr int point_at(int file, int rank) { return kSquarePoint[rank * kBoardSide + file]; }

struct Tables {
  std::array<Points, kNumPoints> adjacent{};
  std::array<Points, kNumMills> mills{};
  // The mills through each point (3 for corners, 2 for midpoints), padded with kNoMill.
  std::array<std::array<Points, 3>, kNumPoints> mills_through{};
};

constexpr Tables make_tables() {
  Tables t{};
  auto at = [](int ring, int k) { return 8 * ring + (k + 8) % 8; };
  for (int ring = 0; ring < 3; ++ring)
    for (int k = 0; k < 8; ++k) {
      Points& adj = t.adjacent[at(ring, k)];
      adj |= bit(at(ring, k - 1)) | bit(at(ring, k + 1));
      if (ring > 0) adj |= bit(at(ring - 1, k));
      if (ring < 2) adj |= bit(at(ring + 1, k));
    }
  int m = 0;
  for (int ring = 0; ring < 3; ++ring)
    for (int k = 0; k < 8; k += 2) t.mills[m++] = bit(at(ring, k)) | bit(at(ring, k + 1)) | bit(at(ring, k + 2));
  for (int k = 0; k < 8; ++k) t.mills[m++] = bit(k) | bit(8 + k) | bit(16 + k);
  for (auto& list : t.mills_through) list = {kNoMill, kNoMill, kNoMill};
  std::array<int, kNumPoints> count{};
  for (Points mill : t.mills)
    for (int p = 0; p < kNumPoints; ++p)
      if (mill & bit(p)) t.mills_through[p][count[p]++] = mill;
  return t;
}

inline constexpr Tables kTables = make_tables();

// Does `own` hold a whole mill through `point` (the point itself included)?
constexpr bool in_mill(Points own, int point) {
  const auto& through = kTables.mills_through[point];
  return (own & through[0]) == through[0] || (own & through[1]) == through[1] || (own & through[2]) == through[2];
}

// Every point of `own` that stands in one of own's mills.
constexpr Points points_in_mills(Points own) {
  Points out = 0;
  for (Points mill : kTables.mills)
    if ((own & mill) == mill) out |= mill;
  return out;
}

inline int count(Points points) { return std::popcount(points); }
inline int lowest(Points points) { return std::countr_zero(points); }

// Index of the n-th set point (n < count(points)).
inline int select_point(Points points, int n) {
#if defined(__BMI2__)
  return std::countr_zero(__builtin_ia32_pdep_si(Points{1} << n, points));
#else
  for (; n > 0; --n) points &= points - 1;
  return std::countr_zero(points);
#endif
}

}  // namespace boardlab::morabaraba
