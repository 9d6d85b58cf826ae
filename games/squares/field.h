// The 20×20 cells of the Squares field as bitmasks (a uint32_t per row), and every legal placement of one size at once.
//
// Cell (x, y) is bit x of row y: x the file, y the rank of its lower-left grid point. A
// square of side s with lower-left point (x0, y0) covers cells x0..x0+s−1 × y0..y0+s−1.
// Two squares overlap when they share a cell, and their closed squares meet exactly when
// their cells are within one step of each other (8-neighbourhood): the legality rules
// become erosions and dilations of masks, one row at a time, never a loop over squares.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace boardlab {

inline constexpr int kFieldSide = 20;   // cells per side
inline constexpr int kPointSide = 21;   // grid points per side: files a–v without j, ranks 1–21
inline constexpr int kFieldCells = kFieldSide * kFieldSide;
inline constexpr int kNumSizes = 5;     // sides 2, 4, 6, 8, 10
inline constexpr std::uint32_t kFullRow = (1u << kFieldSide) - 1;

constexpr int size_of(int size_index) { return 2 * (size_index + 1); }
// Lower-left corners per side: 0 ≤ x0, y0 ≤ 20 − s.
constexpr int corners_per_side(int size_index) { return kPointSide - size_of(size_index); }
constexpr int corner_mask(int size_index) { return static_cast<int>((1u << corners_per_side(size_index)) - 1); }

// A set of cells.
struct Field {
  std::array<std::uint32_t, kFieldSide> row{};

  bool operator==(const Field&) const = default;
  bool empty() const {
    std::uint32_t any = 0;
    for (std::uint32_t r : row) any |= r;
    return any == 0;
  }
  int count() const {
    int n = 0;
    for (std::uint32_t r : row) n += std::popcount(r);
    return n;
  }
  bool has(int x, int y) const { return ((row[y] >> x) & 1u) != 0; }
  bool intersects(const Field& other) const {
    std::uint32_t any = 0;
    for (int y = 0; y < kFieldSide; ++y) any |= row[y] & other.row[y];
    return any != 0;
  }
  Field& operator|=(const Field& other) {
    for (int y = 0; y < kFieldSide; ++y) row[y] |= other.row[y];
    return *this;
  }
  friend Field operator&(Field a, const Field& b) {
    for (int y = 0; y < kFieldSide; ++y) a.row[y] &= b.row[y];
    return a;
  }
  friend Field operator|(Field a, const Field& b) { return a |= b; }
  Field operator~() const {
    Field out;
    for (int y = 0; y < kFieldSide; ++y) out.row[y] = ~row[y] & kFullRow;
    return out;
  }

  // The cells of the square of side s at lower-left point (x0, y0), which must fit.
  static Field square(int s, int x0, int y0) {
    Field out;
    const std::uint32_t bits = ((1u << s) - 1) << x0;
    for (int y = y0; y < y0 + s; ++y) out.row[y] = bits;
    return out;
  }
};

// The set and its 8-neighbourhood, clipped to the field.
inline Field dilate8(const Field& f) {
  std::array<std::uint32_t, kFieldSide> wide;
  for (int y = 0; y < kFieldSide; ++y) wide[y] = (f.row[y] | (f.row[y] << 1) | (f.row[y] >> 1)) & kFullRow;
  Field out;
  for (int y = 0; y < kFieldSide; ++y)
    out.row[y] = wide[y] | (y > 0 ? wide[y - 1] : 0) | (y + 1 < kFieldSide ? wide[y + 1] : 0);
  return out;
}

// Lower-left corners of squares per side, a row of corner bits per rank: corners[k].row[y0]
// bit x0 for side size_of(k), only x0, y0 ≤ 20 − s set.
using Corners = std::array<Field, kNumSizes>;

namespace field_detail {

// Bit x of the result: bits x..x+s−1 of `r` are all set (AND) / any is set (OR).
template <bool kAll>
constexpr std::uint32_t run(std::uint32_t r, int s) {
  const auto join = [](std::uint32_t a, std::uint32_t b) { return kAll ? a & b : a | b; };
  const std::uint32_t r2 = join(r, r >> 1);
  const std::uint32_t r4 = join(r2, r2 >> 2);
  switch (s) {
    case 2: return r2;
    case 4: return r4;
    case 6: return join(r4, r2 >> 4);
    case 8: return join(r4, r4 >> 4);
    default: return join(join(r4, r4 >> 4), r2 >> 8);  // 10
  }
}

// out[k].row[y0] = the rows y0..y0+s−1 of `f` joined (then joined along x), s = size_of(k).
template <bool kAll>
void blocks(const Field& f, Corners& out) {
  // Rows joined in runs of 2, 4, 8 (and 6, 10 from them), shared by every side.
  std::uint32_t v2[kFieldSide], v4[kFieldSide], v8[kFieldSide];
  const auto join = [](std::uint32_t a, std::uint32_t b) { return kAll ? a & b : a | b; };
  for (int y = 0; y + 1 < kFieldSide; ++y) v2[y] = join(f.row[y], f.row[y + 1]);
  for (int y = 0; y + 3 < kFieldSide; ++y) v4[y] = join(v2[y], v2[y + 2]);
  for (int y = 0; y + 7 < kFieldSide; ++y) v8[y] = join(v4[y], v4[y + 4]);
  for (int k = 0; k < kNumSizes; ++k) {
    const int s = size_of(k), n = corners_per_side(k);
    const std::uint32_t mask = static_cast<std::uint32_t>(corner_mask(k));
    Field& o = out[k];
    for (int y = 0; y < n; ++y) {
      const std::uint32_t col = s == 2   ? v2[y]
                                : s == 4 ? v4[y]
                                : s == 6 ? join(v4[y], v2[y + 4])
                                : s == 8 ? v8[y]
                                         : join(v8[y], v2[y + 8]);
      o.row[y] = run<kAll>(col, s) & mask;
    }
    for (int y = n; y < kFieldSide; ++y) o.row[y] = 0;
  }
}

}  // namespace field_detail

// Every square that overlaps no occupied cell and, unless `anywhere`, has a cell in
// `near` (the cells its closed square must meet: the 8-neighbourhood of what it must
// touch): the erosion of the free cells by an s×s block, ANDed with the dilation of
// `near` by the reflected block.
inline void placements(const Field& occupied, const Field& near, bool anywhere, Corners& out) {
  field_detail::blocks<true>(~occupied, out);
  if (anywhere) return;
  Corners touching;
  field_detail::blocks<false>(near, touching);
  for (int k = 0; k < kNumSizes; ++k)
    for (int y = 0; y < kFieldSide; ++y) out[k].row[y] &= touching[k].row[y];
}

// The cells covered by at least one of the squares of side size_of(k) at `corners` (the
// dilation of the corners by the block up and to the right).
inline Field covered(const Corners& corners, int k) {
  const int s = size_of(k);
  Field wide;
  for (int y = 0; y < kFieldSide; ++y) {
    std::uint32_t r = 0;
    for (int i = 0; i < s; ++i) r |= corners[k].row[y] << i;
    wide.row[y] = r & kFullRow;
  }
  Field out;
  for (int y = 0; y < kFieldSide; ++y)
    for (int i = 0; i < s && i <= y; ++i) out.row[y] |= wide.row[y - i];
  return out;
}

}  // namespace boardlab
