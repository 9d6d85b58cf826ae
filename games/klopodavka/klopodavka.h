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
//   ties averaged, so they sum to zero (two players: ±1, or 0 and 0);
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
#include <variant>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"
#include "games/sub_move_grid/grid_bits.h"
#include "games/sub_move_grid/grid_notation.h"

namespace boardlab {

class KlopodavkaGame final : public Game {
 public:
  static constexpr int kMaxPlayers = 6;
  static constexpr int kMaxCells = 1280;
  static constexpr int kMaxSubMoves = 20;
  static constexpr int kMaxTurns = 65535;
  static constexpr int kSheetWidth = 39;
  static constexpr int kSheetHeight = 32;
  // The start slots, clockwise from the bottom left.
  enum Slot : std::uint8_t { kBottomLeft, kTopLeft, kTopMiddle, kTopRight, kBottomRight, kBottomMiddle };

  // `params` as GameSpec::make gets them (checked: see klopodavka_spec()).
  explicit KlopodavkaGame(const GameParameters& params);

  int width() const { return width_; }
  int height() const { return height_; }
  int cells() const { return width_ * height_; }
  int submoves() const { return submoves_; }
  bool revolution() const { return revolution_; }
  int max_turns() const { return max_turns_; }
  Action crown_action(int cell) const { return cells() + cell; }
  Action pass() const { return 2 * cells(); }
  Slot slot(Player p) const { return slots_[p]; }
  // The centre of seat p's start block: its first main bug.
  int home(Player p) const { return homes_[p]; }
  const GridNotation& notation() const { return notation_; }
  // Bitboard masks for the state's set type (games/sub_move_grid/grid_bits.h): the smallest
  // of SmallBits, WideBits<4>, <8> and <20> that holds the board.
  template <typename B>
  const Grid<B>& grid() const {
    return std::get<Grid<B>>(grid_);
  }
  // Calls f(grid) with the board's Grid<B>, so that code for the board's set type runs.
  template <typename F>
  decltype(auto) visit_grid(F&& f) const {
    return std::visit(std::forward<F>(f), grid_);
  }
  // Zobrist keys: a bug of seat p, a cell p killed, p's main bug, on `cell`; then the rest of
  // a state (the turn number through a mixer: max_turns is a parameter, so no table fits it).
  std::uint64_t bug_key(Player p, int cell) const { return cell_keys_[cell_key_index(cell, p)]; }
  std::uint64_t killed_key(Player p, int cell) const { return cell_keys_[cell_key_index(cell, kMaxPlayers + p)]; }
  std::uint64_t main_key(Player p, int cell) const { return cell_keys_[cell_key_index(cell, 2 * kMaxPlayers + p)]; }
  std::uint64_t mover_key(Player p) const { return state_keys_[p]; }
  std::uint64_t sub_move_key(int sub_move) const { return state_keys_[kMaxPlayers + sub_move]; }
  std::uint64_t passes_key(int passes) const { return state_keys_[kPassKeys + passes]; }
  // Seat p went out `order`-th (1 for the first out).
  std::uint64_t out_key(Player p, int order) const { return state_keys_[kOutKeys + (kMaxPlayers + 1) * p + order]; }
  std::uint64_t end_key(int reason) const { return state_keys_[kEndKeys + reason]; }
  static std::uint64_t turn_key(int number);

  GameType type() const override { return {}; }  // sequential, deterministic, perfect information, zero-sum ±1
  int num_players() const override { return players_; }
  std::string player_name(Player p) const override;
  int num_distinct_actions() const override { return 2 * cells() + 1; }
  ObservationShape observation_shape() const override;
  int max_game_length() const override;
  const std::vector<Symmetry>& symmetries() const override { return symmetries_; }
  std::unique_ptr<State> apply_symmetry(const State& state, int index) const override;
  Action pass_action() const override { return pass(); }
  // Place-or-kill at its cell (plane 0), crowning at its cell (plane 1); pass board-wide.
  ActionLayout action_layout() const override;
  std::unique_ptr<State> new_initial_state() const override;
  bool has_ownership() const override { return true; }
  std::vector<std::string> split_turn(std::string_view turn, bool simultaneous) const override;

 private:
  static int cell_key_index(int cell, int kind) { return cell * 3 * kMaxPlayers + kind; }
  static constexpr int kPassKeys = kMaxPlayers + kMaxSubMoves;
  static constexpr int kOutKeys = kPassKeys + kMaxPlayers + 1;
  static constexpr int kEndKeys = kOutKeys + kMaxPlayers * (kMaxPlayers + 1);
  static constexpr int kStateKeys = kEndKeys + 4;
  void add_symmetries();

  int players_;
  int width_;
  int height_;
  int submoves_;
  bool revolution_;
  int max_turns_;
  std::vector<Slot> slots_;
  std::vector<int> homes_;
  GridNotation notation_;
  std::variant<Grid<SmallBits>, Grid<WideBits<4>>, Grid<WideBits<8>>, Grid<WideBits<20>>> grid_;
  std::vector<std::uint64_t> cell_keys_;
  std::vector<std::uint64_t> state_keys_;
  std::vector<Symmetry> symmetries_;
};

// A Klopodavka position, whatever the board's size (the rules run on a bitboard sized for
// it). What tests and tools ask beyond the State API.
class KlopodavkaState : public State {
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
  virtual int passes_in_a_row() const = 0;
  virtual bool is_out(Player p) const = 0;
  // The cell of p's main bug; -1 once p is out.
  virtual int main_bug(Player p) const = 0;
  // Cells next to p's live bugs or to the chains of cells p killed that touch them (and those
  // conductors themselves): where p reaches, whatever is there.
  virtual std::vector<int> reachable(Player p) const = 0;
  // The cells p could play at the start of its turn (empty once p is out).
  virtual std::vector<int> targets_for(Player p) const = 0;
  // The empty cells inside a ring of 8 live bugs of p (where it could crown, under `revolution`).
  virtual std::vector<int> crown_cells(Player p) const = 0;
  // Why `action` is illegal here, or an empty string when it is legal.
  virtual std::string illegality(Action action) const = 0;
  // The image under a board symmetry: cell c goes to cell_map[c], seat p becomes seat_map[p].
  virtual std::unique_ptr<State> mapped(std::span<const int> cell_map, std::span<const Player> seat_map,
                                        bool keeps_record) const = 0;

 protected:
  using State::State;
};

GameSpec klopodavka_spec();

}  // namespace boardlab
