// Turns of sub-moves as Virus War and Klopodavka play them: full turns only, a pass only instead of the first sub-move.
//
// A turn is up to `per_turn` sub-moves by one player, each an action of its own (the
// player's current_player() repeats). The player may not stop early while a target is
// left: reproducing or killing never shrinks the mover's reach (a new live cell adds its
// neighbours, a killed cell joins the mover's chains) and the final board of a turn does
// not depend on the order of its sub-moves, so a turn can always be continued while any
// target is left, and ends early exactly when none is: no look-ahead is needed. Instead of
// its first sub-move a player may pass the whole turn; when every player still in the game
// has passed in a row, the game is drawn. War keeps the counters and the listing but ends
// its turns its own way: any number of sub-moves within a budget per unit type, closed by
// `end` or by running out of sub-moves.
#pragma once

#include <cstdint>
#include <span>
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

// The actions of a sub-move node in ascending order: the cells of each plane of `planes`
// (action = plane·plane_size + cell), then `pass` unless it is kInvalidAction. `out` is
// cleared first and keeps its capacity.
template <typename B>
void list_sub_moves(std::span<const B> planes, int plane_size, Action pass, std::vector<Action>& out) {
  out.clear();
  for (std::size_t plane = 0; plane < planes.size(); ++plane) {
    const Action offset = static_cast<Action>(plane) * plane_size;
    for_each_cell(planes[plane], [&](int cell) { out.push_back(offset + cell); });
  }
  if (pass != kInvalidAction) out.push_back(pass);
}

// A uniformly random one of the actions list_sub_moves lists, without listing them.
template <typename B>
Action random_sub_move(std::span<const B> planes, int plane_size, Action pass, Rng& rng) {
  int total = pass != kInvalidAction;
  for (const B& plane : planes) total += popcount(plane);
  int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(total)));
  for (std::size_t plane = 0; plane < planes.size(); ++plane) {
    const int count = popcount(planes[plane]);
    if (k < count) return static_cast<Action>(plane) * plane_size + select_cell(planes[plane], k);
    k -= count;
  }
  return pass;
}

// Reasons for refusals both games give in the same words.
std::string action_outside_refusal(Action action, int num_actions);
std::string mid_turn_pass_refusal(std::string_view who, int sub_move, int per_turn);

}  // namespace boardlab
