// A simultaneous root searched as the matrix game it is (SimultaneousSelection::kMatrix): candidates, joint cells, their values.
//
// Decoupled selection gives each seat the mean value of its action over whatever the other
// seats happened to pick, which is mostly their prior: in Squares, 64 simulations over
// 1,166 actions a seat rate a 10×10 first square as if no smaller square would land on it.
// Here each seat considers a few candidates, drawn Gumbel-top-k from its prior (Danihelka
// et al. 2022, as Gumbel search draws its root actions), every joint of the candidates is
// visited in turn, and each seat's policy is its strategy in an equilibrium of the table
// of the joints' mean values (mcts/matrix_game.h): a best response to the others' mix.
// Nodes below the root use decoupled PUCT, which reads the priors.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.h"
#include "core/types.h"
#include "mcts/matrix_game.h"

namespace boardlab {

class RootMatrix {
 public:
  // A decision begins: block k (seat seats[k]) considers the statistics candidates[k].
  void start(std::vector<Player> seats, std::vector<std::vector<std::int32_t>> candidates);
  void stop() { cells_ = 0; }
  bool active() const { return cells_ > 0; }

  const std::vector<std::int32_t>& candidates(std::size_t k) const { return candidates_[k]; }
  // The cell the next simulation visits: the fewest visits, pending ones included, first in order.
  std::int32_t next_cell() const;
  // Block k's candidate index at `cell` (seat 0's digit lowest).
  std::int32_t digit(std::int32_t cell, std::size_t k) const;
  void begin(std::int32_t cell) { ++pending_[static_cast<std::size_t>(cell)]; }
  void cancel(std::int32_t cell) { --pending_[static_cast<std::size_t>(cell)]; }
  // A simulation through `cell` ends, worth value[p] to each player p.
  void add(std::int32_t cell, std::span<const float> value);
  // The table of the cells' mean values per block; a cell not yet visited (a budget below
  // the cells, or a search stopped early) takes each seat's mean over the visited ones.
  PayoffTable table() const;

 private:
  std::vector<Player> seats_;
  std::vector<std::vector<std::int32_t>> candidates_;
  std::size_t cells_ = 0;
  std::vector<int> visits_, pending_;
  std::vector<double> value_sum_;  // cell * blocks + k
};

// The most joint actions a matrix root tables: its equilibrium is solved once per decision,
// at a cost of a few thousand passes over the table.
inline constexpr int kMaxMatrixCells = 1 << 16;

// How many candidates each seat with a choice considers: `wanted` where set, else the most
// that let `simulations` visit every joint of them once (at least 2), at most a seat's actions.
std::vector<int> matrix_candidate_counts(std::span<const int> actions, int wanted, int simulations);

// search.matrix_uniform_candidates: the last `uniform` of a seat's candidates `top` (indices
// below `count`, the likeliest first), all but the first at most, give way to actions drawn
// uniformly from the others.
void draw_uniform_candidates(std::int32_t count, int uniform, Rng& rng, std::vector<std::int32_t>& top);

}  // namespace boardlab
