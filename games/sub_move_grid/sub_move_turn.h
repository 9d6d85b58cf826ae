// Turns of sub-moves as Virus War and Klopodavka play them: full turns only, a pass only instead of the first sub-move.
//
// A turn is up to `per_turn` sub-moves by one player, each an action of its own (the
// player's current_player() repeats). The player may not stop early while a target is
// left: reproducing or killing never shrinks the mover's reach (a new live cell adds its
// neighbours, a killed cell joins the mover's chains) and the final board of a turn does
// not depend on the order of its sub-moves, so a turn can always be continued while any
// target is left, and ends early exactly when none is: no look-ahead is needed. Instead of
// its first sub-move a player may pass the whole turn; when every player still in the game
// has passed in a row, the game is drawn.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/rng.h"
#include "core/types.h"
#include "games/sub_move_grid/grid_bits.h"

namespace boardlab {

struct SubMoveTurn {
  std::int8_t sub_move = 0;   // sub-moves made in the current turn
  std::int8_t passes = 0;     // whole-turn passes in a row just before this point
  std::uint16_t number = 0;   // turns completed: State::move_number()

  bool may_pass() const { return sub_move == 0; }
  // Counts a sub-move; whether the turn may go on (it then must, while a target is left).
  bool another_sub_move_allowed(int per_turn) { return ++sub_move < per_turn; }
  // The turn ended after its sub-moves: the next one starts, and the passes in a row are over.
  void end_after_sub_moves() {
    sub_move = 0;
    passes = 0;
    ++number;
  }
  // The mover passed the whole turn: whether every one of the `players_in` players still in
  // the game has now passed in a row, which draws the game.
  bool pass(int players_in) {
    ++number;
    return ++passes >= players_in;
  }
  // A sub-move ended the game: it ends the turn too.
  void end_with_the_game() { ++number; }
};

// The actions of a sub-move node in ascending order: the cells of `cells` (action = cell),
// then those of `extra` (action = extra_offset + cell), then `pass` unless it is
// kInvalidAction. `out` is cleared first and keeps its capacity.
template <typename B>
void list_sub_moves(const B& cells, const B& extra, Action extra_offset, Action pass, std::vector<Action>& out) {
  out.clear();
  for_each_cell(cells, [&](int cell) { out.push_back(cell); });
  for_each_cell(extra, [&](int cell) { out.push_back(extra_offset + cell); });
  if (pass != kInvalidAction) out.push_back(pass);
}

// A uniformly random one of the actions list_sub_moves lists, without listing them.
template <typename B>
Action random_sub_move(const B& cells, const B& extra, Action extra_offset, Action pass, Rng& rng) {
  const int first = popcount(cells), second = popcount(extra);
  const int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(first + second + (pass != kInvalidAction))));
  if (k < first) return select_cell(cells, k);
  if (k < first + second) return extra_offset + select_cell(extra, k - first);
  return pass;
}

// Reasons for refusals both games give in the same words.
std::string action_outside_refusal(Action action, int num_actions);
std::string mid_turn_pass_refusal(std::string_view who, int sub_move, int per_turn);

}  // namespace boardlab
