// Squares' heuristic reference player: each round the legal square that gains the most area and territory, weighed by its chance to stay.
//
// Scores are covered areas (shared/rules/squares.md), so a square's own area is its gain,
// but only if it survives the round: a new square that overlaps the other player's new square
// of a smaller side is removed. A big square is the likeliest to be hit, so each square's gain
// is weighed by the chance that it stays, with the other player's choice taken as uniform
// over its legal actions (what random plays, and near what rollout UCT's mixed strategies
// play): the share of its legal squares that overlap this one with a smaller side, counted
// from prefix sums of its legal corners per side.
//
// A square also decides where both players can still grow, since every new square must touch
// its owner's cells: one that walls the opponent off from the open field is worth more than
// one of the same size in a corner. The territory is estimated as a Voronoi split of the free
// cells that a 2×2 square could still cover (no square ever fits anywhere else): both
// players' cells grow one ring (8-neighbourhood, the rules' touching) a step through those
// cells; a cell reached first belongs to whoever reached it, a cell reached by both at once
// to neither. Before the other player has a square on the field (it may place anywhere)
// there is no split to make, and area alone counts.
//
// A square that stays is worth twice its area plus the territory margin it leaves (the
// territory is only a promise, half of which the opponent contests); one removed leaves the
// margin as it was. Near-ties (within 1e-9) go to the seeded generator. The player never
// passes while it can place (a square only adds to its score).
//
// Cost: one Voronoi flood (at most 20 steps of 20-row masks) per legal square, ~50 µs a round.
#include "games/squares/squares_heuristic.h"

#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <vector>

#include "core/errors.h"
#include "games/squares/field.h"
#include "games/squares/squares.h"

namespace boardlab {
namespace {

// The weight of a square's area against the territory margin it leaves (2 : 1).
constexpr int kAreaWeight = 2;
constexpr double kTie = 1e-9;

Field minus(const Field& a, const Field& b) { return a & ~b; }

// The cells of `free` that some 2×2 square inside `free` covers.
Field coverable(const Field& free) {
  Field out;
  for (int y = 0; y + 1 < kFieldSide; ++y) {
    const std::uint32_t two_rows = free.row[y] & free.row[y + 1];
    const std::uint32_t corners = two_rows & (two_rows >> 1);  // x and x+1 free in both rows
    const std::uint32_t covered = (corners | (corners << 1)) & kFullRow;
    out.row[y] |= covered;
    out.row[y + 1] |= covered;
  }
  return out;
}

// The cells of `open` that `mine` reaches before `theirs` growing a ring a step through
// `open`, less those `theirs` reaches first.
int territory_margin(Field mine, Field theirs, Field open) {
  int margin = 0;
  while (true) {
    const Field reach_mine = dilate8(mine) & open, reach_theirs = dilate8(theirs) & open;
    const Field only_mine = minus(reach_mine, reach_theirs), only_theirs = minus(reach_theirs, reach_mine);
    if (only_mine.empty() && only_theirs.empty()) return margin;
    margin += only_mine.count() - only_theirs.count();
    mine |= only_mine;
    theirs |= only_theirs;
    open = minus(open, reach_mine | reach_theirs);  // cells reached by both at once stay neutral
  }
}

// The other player's legal corners of each side, counted over rectangles in O(1).
class CornerCounts {
 public:
  explicit CornerCounts(const Corners& corners) {
    for (int k = 0; k < kNumSizes; ++k)
      for (int y = 0; y < kPointSide; ++y)
        for (int x = 0; x < kPointSide; ++x) {
          const int here = y < kFieldSide && x < kFieldSide ? static_cast<int>((corners[k].row[y] >> x) & 1u) : 0;
          sum_[k][y + 1][x + 1] = here + sum_[k][y][x + 1] + sum_[k][y + 1][x] - sum_[k][y][x];
        }
  }
  // Corners of side index k with x in [x0, x1] and y in [y0, y1] (clipped to the field's points).
  int count(int k, int x0, int y0, int x1, int y1) const {
    x0 = std::max(x0, 0), y0 = std::max(y0, 0), x1 = std::min(x1, kPointSide - 1), y1 = std::min(y1, kPointSide - 1);
    if (x0 > x1 || y0 > y1) return 0;
    return sum_[k][y1 + 1][x1 + 1] - sum_[k][y0][x1 + 1] - sum_[k][y1 + 1][x0] + sum_[k][y0][x0];
  }
  // Squares of a smaller side than size_of(k) that overlap the square of that side at (x, y).
  int smaller_overlapping(int k, int x, int y) const {
    const int s = size_of(k);
    int n = 0;
    for (int j = 0; j < k; ++j) {
      const int t = size_of(j);
      n += count(j, x - t + 1, y - t + 1, x + s - 1, y + s - 1);
    }
    return n;
  }

 private:
  std::array<std::array<std::array<int, kPointSide + 1>, kPointSide + 1>, kNumSizes> sum_{};
};

class SquaresHeuristic final : public Bot {
 public:
  explicit SquaresHeuristic(std::uint64_t seed) : rng_(seed) {}

  Action act(const PlayerView& view) override {
    const std::unique_ptr<State> sampled = view.sample(rng_);  // a copy: Squares has no hidden information
    const auto& state = dynamic_cast<const SquaresState&>(*sampled);
    const Player me = view.viewer(), them = 1 - me;
    Corners mine, theirs;
    state.legal_corners(me, mine);
    state.legal_corners(them, theirs);
    const CornerCounts counts(theirs);
    const double their_choices = state.num_legal(them);  // pass included
    const Field occupied = state.occupied();
    // Before the other player stands on the field it may still place anywhere: no split then.
    const bool split = !state.cells(them).empty();
    const int unchanged = split ? territory_margin(state.cells(me), state.cells(them), coverable(~occupied)) : 0;
    best_.clear();
    double best_score = 0;
    for (int k = 0; k < kNumSizes; ++k) {
      const int s = size_of(k);
      for (int y = 0; y < kFieldSide; ++y)
        for (std::uint32_t row = mine[k].row[y]; row != 0; row &= row - 1) {
          const int x = std::countr_zero(row);
          const Field square = Field::square(s, x, y);
          const int kept = kAreaWeight * s * s + (split ? territory_margin(state.cells(me) | square, state.cells(them),
                                                                           coverable(~(occupied | square)))
                                                        : 0);
          const double removed = counts.smaller_overlapping(k, x, y) / their_choices;
          const double score = (1 - removed) * kept + removed * unchanged;
          if (best_.empty() || score > best_score + kTie) {
            best_.clear();
            best_score = score;
          }
          if (score >= best_score - kTie) best_.push_back(placement_action(s, x, y));
        }
    }
    if (best_.empty()) return SquaresGame::kPass;  // no placement: pass is the only legal action
    return best_[rng_.below(static_cast<std::uint32_t>(best_.size()))];
  }

 private:
  Rng rng_;
  std::vector<Action> best_;  // kept between moves, so that its capacity is too
};

}  // namespace

std::unique_ptr<Bot> make_squares_heuristic(const Game& game, std::uint64_t seed) {
  if (dynamic_cast<const SquaresGame*>(&game) == nullptr)
    throw InputError("the Squares heuristic player plays squares, not " + game.to_string());
  return std::make_unique<SquaresHeuristic>(seed);
}

}  // namespace boardlab
