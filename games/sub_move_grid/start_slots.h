// The board of Klopodavka and War: its parameters and sheet preset, the n players' start slots, the bitboard type for its size, and the symmetries that keep the turn order.
//
// Both rule files set up 2 to 6 players the same way: seats A, B, ... take the start slots
// clockwise from the bottom left (2 players: BL TR; 3: BL TM BR; 4: BL TL TR BR; 5: BL TL
// TM TR BR; 6: BL TL TM TR BR BM), each on a 3×3 block flush with its slot, and play goes
// clockwise, seat after seat. On an even width the top-middle block sits half a cell left
// of the centre and the bottom-middle one half a cell right, so that turning the board by
// 180° maps the slots onto each other; the blocks must not touch (one empty cell at least
// between any two), or the game refuses the board.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/game.h"
#include "core/game_parameters.h"
#include "games/sub_move_grid/grid_bits.h"

namespace boardlab {

// The start slots, clockwise from the bottom left.
enum class Slot : std::uint8_t { kBottomLeft, kTopLeft, kTopMiddle, kTopRight, kBottomRight, kBottomMiddle };

struct SlotBoard {
  static constexpr int kMaxPlayers = 6;
  static constexpr int kMaxCells = 1280;
  static constexpr int kMaxTurns = 65535;
  static constexpr int kSheetWidth = 39;
  static constexpr int kSheetHeight = 32;
};

// The occupied slots in seat order for 2..6 players.
std::vector<Slot> slots_for(int players);
// The centre cell (width·rank + file) of a slot's 3×3 block.
int slot_centre(Slot slot, int width, int height);

// The parameters both games share: players, width, height, board (custom or sheet) and
// max_turns, with these defaults; a game adds its own after them.
std::vector<ParamSpec> slot_board_params(std::int64_t max_turns);
// Applies the sheet preset (width and height become 39×32) and checks the shared parameters,
// throwing GameParameterError that starts with `game`: and says why.
void resolve_slot_board(const std::string& game, GameParameters& params);

// Bitboards sized for the board (games/sub_move_grid/grid_bits.h): the smallest of
// SmallBits, WideBits<4>, <8> and <20> that holds it.
using SlotGrid = std::variant<Grid<SmallBits>, Grid<WideBits<4>>, Grid<WideBits<8>>, Grid<WideBits<20>>>;
SlotGrid slot_grid(int width, int height);

// What a game keeps for the bitboard type of its board: PerBits<B> (Grid<B>, War's
// UnitPatterns<B>, made from the Grid<B> and naming B as its Set) for the B that fits.
template <template <typename> class PerBits>
class OnBoardBits {
 public:
  OnBoardBits(int width, int height)
      : held_(std::visit([](const auto& grid) -> Held { return PerBits(grid); }, slot_grid(width, height))) {}
  template <typename B>
  const PerBits<B>& get() const {
    return std::get<PerBits<B>>(held_);
  }
  // f(per_bits) for the board's type, so that code for that set type runs.
  template <typename F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), held_);
  }

 private:
  using Held = std::variant<PerBits<SmallBits>, PerBits<WideBits<4>>, PerBits<WideBits<8>>, PerBits<WideBits<20>>>;
  Held held_;
};

// A new state of a game on its board's set type: BoardState<B> made from `game`, then set up by make(state).
template <typename Interface, template <typename> class BoardState, typename GameT, typename Bits, typename Make>
std::unique_ptr<Interface> state_on_board(const GameT& game, const Bits& bits, Make make) {
  return bits.visit([&](const auto& per_bits) -> std::unique_ptr<Interface> {
    auto state = std::make_unique<BoardState<typename std::decay_t<decltype(per_bits)>::Set>>(game);
    make(*state);
    return state;
  });
}

// The symmetries of the board (rectangle, or square) that map the occupied slots onto each
// other with a permutation of the seats that keeps the turn order (a rotation of the seats;
// with 2 players any): 2 players on a square board have the 180° turn and both diagonal
// reflections, 4 players the three rotations, 6 players (and 2 or 4 on any rectangle) the
// 180° turn, 3 and 5 players none. The actions are `planes` planes of cells (action =
// plane·cells + cell) and one board-wide action after them, which maps to itself.
std::vector<Symmetry> slot_symmetries(int players, int width, int height, int planes);

// The state of such a game: what the shared code asks of it beyond the State API.
class SlotState : public State {
 public:
  // Whole-turn passes in a row just before this point.
  virtual int passes_in_a_row() const = 0;
  // Why `action` is illegal here, or an empty string when it is legal.
  virtual std::string illegality(Action action) const = 0;
  // The image under a board symmetry: cell c goes to cell_map[c], seat p becomes seat_map[p];
  // it keeps its record only when `keeps_record` (its first mover is still seat A).
  virtual std::unique_ptr<State> mapped(std::span<const int> cell_map, std::span<const Player> seat_map,
                                        bool keeps_record) const = 0;

 protected:
  using State::State;
};

// Game::apply_symmetry for such a game: the image of `state` (a SlotState of `game`) under
// `game`'s symmetry `index`.
std::unique_ptr<State> apply_slot_symmetry(const Game& game, const State& state, int index);

// The layout of such actions for a spatial policy head: each plane at its cell, the last action board-wide.
ActionLayout plane_action_layout(int planes, int cells);

}  // namespace boardlab
