// War («Война»), the n-player Virus War of four unit types under command of a general, exactly as shared/rules/war.md.
//
// The board, the seats and their start slots, the turn order, max_turns and the rank returns
// are Klopodavka's (games/sub_move_grid/start_slots.h, standings.h): seats A, B, ... take the
// slots clockwise from the bottom left, each with one general on the centre of its slot's
// 3×3 block. A sub-move of unit type t places a t on an empty cell, or kills a live unit of
// another player there, where t's pattern (games/war/unit_patterns.h) reaches from a
// commanded own t or from the own general, which holds every pattern.
//
// Actions: t·width·height + c for unit type t (0 infantry P, 1 knight K, 2 tank T, 3 plane
// S) at cell c = width·(rank − 1) + file: a placement or a kill, which one following from the
// cell; 4·width·height is `end`. Text: `Pe5`, `Kc3`, `Tg7`, `Sf10`; `end`, written `pass`
// when it is the turn's first action (`--` is read too); a turn `Pe5-Pe6-Kc3` with its
// closing `end` left out (State::implied_turn_end puts it back when a record is read).
//
// Choices where the rule file is silent:
// - the board's parameters are Klopodavka's, its checks included: the 3×3 start blocks must
//   not touch, although only the generals stand on them, so that the two games share their
//   boards (10×10 fits 2 to 4 players, 6 need 11×7 at least); `board=sheet` is 39×32;
// - a turn ends by itself when no sub-move is left to it (the budget is spent, or no type it
//   may still use has a target): an `end` then would be the only legal action, and players
//   do not announce what the rules force. With nothing to do at the start of its turn a
//   player passes (its only action);
// - kills come from the same commanded sources and patterns as placements, and a kill uses
//   up one sub-move of its type; a general killed mid-turn puts its player out at once, and
//   the game ends at once when one general is left (the turn with it);
// - a unit placed is commanded at once (its source is, and the offset is in its own type's
//   pattern); units cut off by a kill lose command at once and act again as soon as a
//   placement reconnects them, in the same turn too;
// - the units of a player that is out stay where they are, inert and uncommanded; anyone
//   whose pattern reaches them may kill them. A player that is out is skipped in the turn
//   order, and its return is settled then (is_out(); ranks and returns as in Klopodavka);
// - "a full round of passes" is counted as consecutive whole-turn passes: when their number
//   reaches the number of players still in, the game is drawn; max_turns counts turns (a
//   player's sub-moves, or its pass) of all players together, and ends the game truncated
//   (is_truncated()), a draw among the survivors, as in Klopodavka;
// - symmetries: Klopodavka's, the board's that keep the turn order (every pattern is
//   symmetric under the square's symmetries); the image of a state is set up directly, so
//   it has no record unless seat A stays A;
// - observations keep the board as it is and name the players relative to the viewer: k = 0
//   is the viewer, then the seats after it in turn order. Planes (n players):
//     7k+0..7k+3 seat k's infantry, knights, tanks, planes   7k+4 its general
//     7k+5 its commanded units (the general among them)      (all empty once it is out)
//     7k+6 constant: (1 + players out before it) / n once it is out, else 0
//     7n+0 dead cells   7n+1 inert units (of players out)
//     7n+2..7n+5 the cells the viewer's commanded sources reach with each type's pattern
//       that it could place on or kill (whatever its budget)
//     7n+6..7n+9 constant: the viewer's sub-moves of each type this turn / (its base + 3),
//       when it is to move
//     7n+10 constant: passes in a row / players still in
//     7n+11 constant: turns played / max_turns;
// - ownership (an auxiliary training target): a live unit belongs to its player, inert ones
//   too; empty and dead cells to nobody;
// - text: two characters a cell: `..` empty, `xx` dead, else the seat's letter, upper case
//   while commanded and lower case when not (or inert), then the unit's letter: `AG` A's
//   general, `BP` a commanded infantry of B, `bK` an uncommanded or inert knight of B; rank
//   `height` on top; then a status line with the sub-moves of each type used this turn.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"
#include "games/sub_move_grid/grid_notation.h"
#include "games/sub_move_grid/slot_game.h"
#include "games/sub_move_grid/start_slots.h"
#include "games/war/unit_patterns.h"

namespace boardlab {

class WarGame final : public SlotGame {
 public:
  // `params` as GameSpec::make gets them (checked: see war_spec()).
  explicit WarGame(const GameParameters& params);

  Action action_of(int unit, int cell) const { return unit * cells() + cell; }
  Action end() const { return board_wide_action(); }
  // The unit patterns (and the Grid) for the board's set type.
  const OnBoardBits<UnitPatterns>& patterns() const { return patterns_; }
  // Zobrist keys: a unit of seat p (kind 0..3 the types, 4 the general) on a cell, a dead
  // cell; and a type's count of sub-moves in the turn (SlotGame's turn_state_key).
  std::uint64_t unit_key(Player p, int kind, int cell) const {
    return cell_keys_[static_cast<std::size_t>(cell * kCellKinds + kind * kMaxPlayers + p)];
  }
  std::uint64_t dead_key(int cell) const { return cell_keys_[static_cast<std::size_t>(cell * kCellKinds + kCellKinds - 1)]; }
  std::uint64_t used_key(int unit, int count) const { return turn_state_key(unit * kCounts + count); }

  ObservationShape observation_shape() const override;
  int max_game_length() const override;
  std::unique_ptr<State> new_initial_state() const override;
  std::string format_turn(std::span<const std::string> steps, bool simultaneous) const override;

 private:
  static constexpr int kCellKinds = (kUnitTypes + 1) * kMaxPlayers + 1;
  static constexpr int kCounts = TurnBudget::kMostOfOneType + 1;
  OnBoardBits<UnitPatterns> patterns_;
};

// A War position, whatever the board's size (the rules run on a bitboard sized for it).
// What tests and tools ask beyond the State API.
class WarState : public SlotState {
 public:
  // What stands on a cell: nothing, a dead cell, or a unit (its type, kGeneral for the general).
  static constexpr int kNothing = -2;
  static constexpr int kDead = -1;
  static constexpr int kGeneral = kUnitTypes;
  struct CellView {
    int content = kNothing;
    Player owner = -1;  // the unit's player
    bool commanded = false;
    bool operator==(const CellView&) const = default;
  };

  // The start: every player's general, A to move.
  static std::unique_ptr<WarState> initial(const WarGame& game);
  // A constructed position for tests and analysis: `height` rows of `width` two-character
  // cells of the to_string() alphabet (the top rank first, whitespace ignored; the seat
  // letter's case is not read: command follows from the board), `to_move` at the start of
  // its turn. A player without a general is out (its units inert), all of them tied for the
  // last places. Such a state has no history, so record() refuses it.
  static std::unique_ptr<WarState> from_diagram(const WarGame& game, std::string_view diagram, Player to_move);

  const WarGame& war() const { return static_cast<const WarGame&>(game()); }
  virtual CellView cell(int c) const = 0;
  // The sub-moves of each type the mover has made in this turn.
  virtual TurnBudget budget() const = 0;
  // The cell of p's general; -1 once p is out.
  virtual int general(Player p) const = 0;
  // p's live units joined to its general by chains of links (the general among them); none once p is out.
  virtual std::vector<int> commanded(Player p) const = 0;
  // The cells p could place a unit of type t on or kill at with type t, whatever its budget.
  virtual std::vector<int> targets_for(Player p, int unit) const = 0;

  // The board as a diagram, the same for every viewer (every cell is public).
  std::optional<Diagram> diagram(Player viewer) const override;

 protected:
  using SlotState::SlotState;
  // to_string()'s last line: whose sub-move in which turn, or the final standings.
  virtual std::string status_line() const = 0;
};

GameSpec war_spec();

}  // namespace boardlab
