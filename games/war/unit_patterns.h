// War's four unit types: their move patterns as precomputed shifts and masks of a bitboard, the command flood fill, and the turn budget.
//
// A pattern is 8 offsets (file, rank), each closed under negation, so "v is in u's pattern
// from u" is the same as "u is in it from v". Spreading a set of cells by a pattern is one
// shift per offset, masked to the cells that offset may land on (Stockfish's shift<D>(b) &
// ~FileABB): no per-cell table and no allocation, whatever the board's size.
#pragma once

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstdint>

#include "games/sub_move_grid/grid_bits.h"

namespace boardlab {

enum class Unit : std::uint8_t { kInfantry, kKnight, kTank, kPlane };
constexpr int kUnitTypes = 4;

struct UnitType {
  char letter;      // in the notation: Pe5, Kc3, Tg7, Sf10 (the seat's П, К, Т, С)
  const char* name;  // in refusals
  int base;         // sub-moves per turn before the bonus for unused types
  std::array<std::array<std::int8_t, 2>, 8> offsets;  // (file, rank)
};

constexpr std::array<UnitType, kUnitTypes> kUnitType = {{
    {'P', "infantry", 4, {{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}}},
    {'K', "knight", 2, {{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}}},
    {'T', "tank", 2, {{{2, 0}, {-2, 0}, {0, 2}, {0, -2}, {2, 2}, {2, -2}, {-2, 2}, {-2, -2}}}},
    {'S', "plane", 1, {{{5, 0}, {-5, 0}, {0, 5}, {0, -5}, {5, 5}, {5, -5}, {-5, 5}, {-5, -5}}}},
}};

// The unit whose letter is `letter` (either case), or -1.
constexpr int unit_of_letter(char letter) {
  if (letter >= 'a' && letter <= 'z') letter = static_cast<char>(letter - 'a' + 'A');
  for (int t = 0; t < kUnitTypes; ++t)
    if (kUnitType[t].letter == letter) return t;
  return -1;
}

// The sub-moves of each type a player made in the current turn. Base counts 4, 2, 2, 1; each
// type not used at all this turn allows one extra sub-move of another type, so after every
// sub-move Σ_t max(0, c_t − base_t) ≤ |{t : c_t = 0}| (the seed's example: no infantry,
// knights or tanks allow 1 + 3 = 4 planes).
struct TurnBudget {
  std::array<std::int8_t, kUnitTypes> used{};

  static bool holds(const std::array<std::int8_t, kUnitTypes>& c) {
    int excess = 0, unused = 0;
    for (int t = 0; t < kUnitTypes; ++t) {
      excess += std::max(0, c[t] - kUnitType[t].base);
      unused += c[t] == 0;
    }
    return excess <= unused;
  }
  bool holds() const { return holds(used); }
  // Whether one more sub-move of type t keeps the invariant.
  bool allows(int t) const {
    std::array<std::int8_t, kUnitTypes> after = used;
    ++after[t];
    return holds(after);
  }
  int total() const { return used[0] + used[1] + used[2] + used[3]; }
  // The most sub-moves of one type a turn can hold: its base and one per other type unused.
  static constexpr int kMostOfOneType = 4 + kUnitTypes - 1;
  // The most sub-moves of a turn: every type at its base (leaving one out gains one and loses at least one).
  static constexpr int kMostPerTurn = 4 + 2 + 2 + 1;
  bool operator==(const TurnBudget&) const = default;
};

// The patterns of the four types on one board, as shifts and destination masks.
template <typename B>
class UnitPatterns {
 public:
  using Set = B;
  explicit UnitPatterns(const Grid<B>& grid) : grid_(grid) {
    const int w = grid.width, h = grid.height;
    for (int t = 0; t < kUnitTypes; ++t) {
      for (const auto& [df, dr] : kUnitType[t].offsets) {
        if (std::abs(df) >= w || std::abs(dr) >= h) continue;  // lands off any board this small
        Jump jump{dr * w + df, B{}};
        for (int cell = 0; cell < grid.cells; ++cell) {
          const int file = cell % w - df, rank = cell / w - dr;  // where a unit reaching `cell` stands
          if (file >= 0 && file < w && rank >= 0 && rank < h) jump.lands |= cell_bit<B>(cell);
        }
        jumps_[t][jump_count_[t]++] = jump;
      }
    }
  }

  const Grid<B>& grid() const { return grid_; }

  // The cells type t's pattern reaches from any cell of `from`.
  B spread(int t, const B& from) const {
    if (t == static_cast<int>(Unit::kInfantry)) return dilate(from, grid_);  // `from` too: never a target or a new link
    B out{};
    for (int i = 0; i < jump_count_[t]; ++i) {
      const Jump& j = jumps_[t][i];
      out |= (j.shift > 0 ? from << j.shift : from >> -j.shift) & j.lands;
    }
    return out;
  }

  // The units of `units` (by type; the general apart) joined to `general` by chains of links,
  // growing `commanded` (a set already joined, the general among them) from `frontier` (its
  // cells not yet spread from). u and v are linked when their offset is in u's pattern or in
  // v's; the general holds every pattern.
  B command(const std::array<B, kUnitTypes>& units, const B& general, B commanded, B frontier) const {
    const B all = units[0] | units[1] | units[2] | units[3] | general;
    while (any(frontier)) {
      B reached{};
      for (int t = 0; t < kUnitTypes; ++t) {
        // By the pattern of a frontier unit that holds t's (a t or the general), any own unit;
        // by t's pattern from any other frontier unit, the t units (patterns are symmetric).
        const B holders = frontier & (units[t] | general), others = frontier & ~holders;
        if (any(holders)) reached |= spread(t, holders) & all;
        if (any(others) && any(units[t])) reached |= spread(t, others) & units[t];
      }
      frontier = reached & ~commanded;
      commanded |= frontier;
    }
    return commanded;
  }

 private:
  struct Jump {
    int shift;  // cell + shift is where a unit on cell reaches
    B lands;    // the cells such a jump may land on without leaving the board or wrapping a rank
  };
  Grid<B> grid_;
  std::array<std::array<Jump, 8>, kUnitTypes> jumps_{};
  std::array<int, kUnitTypes> jump_count_{};
};

}  // namespace boardlab
