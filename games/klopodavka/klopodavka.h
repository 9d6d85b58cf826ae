// Klopodavka («Клоподавка»), Virus War for 2–6 players, exactly as shared/rules/klopodavka.md.
//
// Seats 0..n−1 are named A, B, C, ... and take the start slots of the rule file in clockwise
// order (2 players: BL TR; 3: BL TM BR; 4: BL TL TR BR; 5: BL TL TM TR BR; 6: BL TL TM TR BR
// BM); play goes clockwise, seat after seat, from A at the bottom left. The reachability
// (games/sub_move_grid/reach.h) and the turns of sub-moves (games/sub_move_grid/sub_move_turn.h)
// are Virus War's, with each player conducting along the cells it killed itself.
//
// Actions: cell c = width·(rank − 1) + file (0 .. width·height − 1) places a bug on an empty
// cell or kills the live bug of another player there, which one following from the cell;
// width·height + c crowns a new main bug on c (a revolution); 2·width·height is the pass.
// Text: `e5`, `*e5`, `pass` (`--` is read too); a turn `a1-b2-*c3`; files a..z without j,
// then aa ab ... on boards wider than 25 files (games/sub_move_grid/grid_notation.h).
//
// Choices where the rule file is silent:
// - on an even width the top-middle block sits half a cell left of the centre and the
//   bottom-middle one half a cell right, so that turning the board by 180° maps the slots
//   onto each other (6 players keep that symmetry); the start blocks must not touch (one
//   empty cell at least between any two), or the game refuses the board: a 10×10 board fits
//   2 to 4 players, 6 need 11×7 at least;
// - `board=sheet` is the 39×32 notebook sheet; with it width and height stay at their
//   defaults (or say 39 and 32, as the canonical game string does); `board=custom` (the
//   default) takes width and height as given; boards hold at most 1280 cells;
// - a ring for a revolution is the 8 neighbours of an empty cell, all live bugs of the
//   mover (its main bug may be one of them), so no cell on the board's edge can be crowned;
//   the crowned cell is an ordinary reachable target too: placing a bug there without
//   crowning stays legal;
// - a player that is out is skipped in the turn order; its bugs stay inert: they neither act
//   nor conduct, and any player that reaches them may kill them (a kill there is an ordinary
//   kill: it conducts for the killer). Cells killed by a player that is out stay walls;
// - the game ends at once when a kill leaves one main bug, even in the middle of a turn; as
//   in Virus War, such a kill completes the turn: it may come before the turn's full length;
// - "every surviving player passes in one full round" is counted as consecutive whole-turn
//   passes: when their number reaches the number of players still in, the game is drawn;
// - max_turns counts turns (a player's sub-moves, or its pass) of all players together; when
//   that many are played the game is truncated (is_truncated()), a draw among the survivors;
// - ranks: the players still in at the end share the first place; the others are ranked by
//   when they went out (later is better). Returns go linearly from +1 (first) to −1 (last),
//   ties averaged, so they sum to zero (two players: ±1, or 0 and 0). A player's rank is
//   settled when it goes out (only those still in can go out after it), so returns() gives
//   it from then on, and is_out() says so: PettingZoo's environment ends such a player then;
// - symmetries: the symmetries of the board (rectangle, or square) that map the occupied
//   slots onto each other with a permutation of the seats that keeps the turn order (a
//   rotation of the seats; with 2 players any). A reflection reverses the clockwise order of
//   3 or more players and is not one: 2 players on a square board have the 180° turn and
//   both diagonal reflections, 4 players the three rotations, 6 players (and 2 or 4 on any
//   rectangle) the 180° turn, 3 and 5 players none. The image of a state is set up directly
//   (its first mover is another seat), so it has no record unless seat A stays A;
// - observations keep the board as it is (no common frame exists for 3, 5 or 6 players, or
//   on a rectangle) and name the players relative to the viewer: k = 0 is the viewer, then
//   the seats after it in turn order. Planes (n players, s = submoves):
//     5k+0 seat k's live bugs (empty once out)   5k+1 its main bug   5k+2 the cells it killed
//     5k+3 its targets: the cells it could play at the start of its turn (empty once out)
//     5k+4 constant: (1 + players out before it) / n once it is out, else 0
//     5n+0 inert bugs (of players out)           5n+1 cells where the viewer could crown
//     5n+2 .. 5n+1+s one-hot: the sub-move the viewer is on, when it is to move
//     5n+2+s constant: passes in a row / players still in
//     5n+3+s constant: turns played / max_turns (the cap is near: a draw for the survivors);
// - ownership (an auxiliary training target): a live bug (inert or not) belongs to its
//   player, a killed cell to its killer (its colour on paper), an empty cell to nobody;
// - text: empty `.`, a bug `a`..`f` (A..F), a main bug `A`..`F`, a cell killed by A..F
//   `1`..`6`, rank `height` on top; then a status line.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"
#include "games/sub_move_grid/grid_bits.h"
#include "games/sub_move_grid/grid_notation.h"
#include "games/sub_move_grid/slot_game.h"
#include "games/sub_move_grid/start_slots.h"

namespace boardlab {

class KlopodavkaGame final : public SlotGame {
 public:
  static constexpr int kMaxSubMoves = 20;

  // `params` as GameSpec::make gets them (checked: see klopodavka_spec()).
  explicit KlopodavkaGame(const GameParameters& params);

  int submoves() const { return submoves_; }
  bool revolution() const { return revolution_; }
  Action crown_action(int cell) const { return cells() + cell; }
  Action pass() const { return board_wide_action(); }
  // Bitboard masks for the board's set type (games/sub_move_grid/grid_bits.h).
  const OnBoardBits<Grid>& grids() const { return grids_; }
  // Zobrist keys: a bug of seat p, a cell p killed, p's main bug, on `cell` (the rest of a
  // state's keys are SlotGame's; the sub-move of the turn is its turn_state_key).
  std::uint64_t bug_key(Player p, int cell) const { return cell_keys_[cell_key_index(cell, p)]; }
  std::uint64_t killed_key(Player p, int cell) const { return cell_keys_[cell_key_index(cell, kMaxPlayers + p)]; }
  std::uint64_t main_key(Player p, int cell) const { return cell_keys_[cell_key_index(cell, 2 * kMaxPlayers + p)]; }

  ObservationShape observation_shape() const override;
  int max_game_length() const override;
  std::unique_ptr<State> new_initial_state() const override;

 private:
  static std::size_t cell_key_index(int cell, int kind) { return static_cast<std::size_t>(cell * 3 * kMaxPlayers + kind); }

  int submoves_;
  bool revolution_;
  OnBoardBits<Grid> grids_;
};

// A Klopodavka position, whatever the board's size (the rules run on a bitboard sized for
// it). What tests and tools ask beyond the State API.
class KlopodavkaState : public SlotState {
 public:
  enum class Content : std::uint8_t { kEmpty, kBug, kMainBug, kKilled };
  struct CellView {
    Content content = Content::kEmpty;
    Player owner = -1;  // the bug's player, or the player that killed the cell
    bool operator==(const CellView&) const = default;
  };

  // The start: every player's block, A to move.
  static std::unique_ptr<KlopodavkaState> initial(const KlopodavkaGame& game);
  // A constructed position for tests and analysis: `height` rows of `width` symbols of the
  // to_string() alphabet (the top rank first, whitespace ignored), `to_move` at the start of
  // its turn. A player without a main bug is out (its bugs inert), all of them tied for the
  // last places. Such a state has no history, so record() refuses it.
  static std::unique_ptr<KlopodavkaState> from_diagram(const KlopodavkaGame& game, std::string_view diagram,
                                                       Player to_move);

  const KlopodavkaGame& klopodavka() const { return static_cast<const KlopodavkaGame&>(game()); }
  virtual CellView cell(int c) const = 0;
  // How many sub-moves the mover has made in this turn.
  virtual int sub_move() const = 0;
  // The cell of p's main bug; -1 once p is out.
  virtual int main_bug(Player p) const = 0;
  // Cells next to p's live bugs or to the chains of cells p killed that touch them (and those
  // conductors themselves): where p reaches, whatever is there.
  virtual std::vector<int> reachable(Player p) const = 0;
  // The cells p could play at the start of its turn (empty once p is out).
  virtual std::vector<int> targets_for(Player p) const = 0;
  // The empty cells inside a ring of 8 live bugs of p (where it could crown, under `revolution`).
  virtual std::vector<int> crown_cells(Player p) const = 0;

  // The board as a diagram, the same for every viewer (every cell is public).
  std::optional<Diagram> diagram(Player viewer) const override;

 protected:
  using SlotState::SlotState;
  // to_string()'s last line: whose sub-move in which turn, or the final standings.
  virtual std::string status_line() const = 0;
};

GameSpec klopodavka_spec();

}  // namespace boardlab
