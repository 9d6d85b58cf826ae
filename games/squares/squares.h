// Squares («квадраты»), exactly as shared/rules/squares.md: two players place squares at the same time.
//
// The field is 20×20 cells; grid points are named by files a–v without j (x 0..20) and
// ranks 1–21 (y 0..20). Each round both players choose at once (a simultaneous node) a
// square of even side 2..10 that overlaps no square on the field and touches one of their
// own squares or a green zone (anywhere free while they have no square), or pass. Two new
// squares that overlap: the smaller stays and the larger is removed; of equal sides both
// stay and their intersection becomes a green zone, common to both. Two passes in one round
// end the game; the larger covered area wins.
//
// Actions (per player, 1166): placements ordered by side, 2 (19² lower-left corners), 4
// (17²), 6 (15²), 8 (13²), 10 (11²), each side's corners row-major from a1
// (offset + (21 − s)·y0 + x0), then pass (1165). Text: the side and the lower-left corner
// point, `4c5`, `10a1`, or `pass`; a round is `4c5/2m7` (Red's choice first).
//
// Choices where the rule file is silent:
// - seats: Red (0) and Blue (1), named after the squares' colours;
// - pass is legal at every round, also for a player who could place (the rule file lets both
//   choose "a square, or pass"); it is the only choice of a player with no placement;
// - a green zone is part of both squares that form it, so it belongs to both players' cells:
//   it blocks both, a square touching it is legal for both, and its area counts in both
//   scores. Squares on the field never go away (only a square that loses its round's
//   collision is removed, before it was ever on the field), so every green zone lies inside
//   a square of each player, and "touches an own square or a green zone" is "touches an
//   own cell";
// - a player "has no square on the field" while it owns no cell: after round one, if its
//   first square lost the collision, it places anywhere free again; a player whose only
//   squares form a green zone has squares on the field;
// - the game is drawn at equal scores (returns 0 and 0); scores() gives each seat its
//   covered area, so the margin lies in [−400, 400] (traits().max_score_margin = 400);
// - a round is one turn (move_number() counts rounds); no round is ever capped: every round
//   but the last covers at least 4 new cells, so a game has at most 101 rounds (202 steps);
// - ownership (the auxiliary target, GameTraits::has_ownership): +1 a cell only the viewer's
//   squares cover, −1 one only the opponent's cover, 0 an empty or green cell (both own it);
// - observation: 18 planes on the 20×20 cells (cell 20·y + x, a1's cell = 0), the board as it
//   stands for both viewers (the rules treat the two seats alike, so no turn of the board);
//   "constant" planes hold one value on every cell:
//     0 viewer's cells (green included)      1 opponent's cells (green included)
//     2 green cells
//     3..7  cells covered by some legal square of the viewer, side 2, 4, 6, 8, 10
//           (plane 3 is the viewer's frontier: where it can still claim cells)
//     8..12 the same for the opponent (where it can claim cells, and block the viewer)
//     13 the viewer has a square on the field   14 the opponent has one   (constant)
//     15 ones (so that convolutions see the edge of the field, which squares cannot cross)
//     16 viewer's score / 400   17 opponent's score / 400                 (constant)
//   The scores are two planes rather than their difference because observations lie in
//   [0, 1] (the environments declare that range).
//   Cells, not the 21×21 points: everything on the field is a set of cells, the ownership
//   target must share the observation's grid, and the symmetries of the square act on cells
//   exactly. A legal square is marked by the cells it covers (an s×s block, which maps onto
//   the block of its image under each symmetry); the policy head, a linear layer over the
//   whole board, addresses the 1166 actions without a plane per action;
// - text: rank 20's cells on top, Red `r`, Blue `b`, green `g`, empty `.`; each cell is
//   labelled by its lower-left point, so a square `4c5` covers the 4×4 cells from column c,
//   row 5 up and to the right. Then each player's squares and score, and the status.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"
#include "games/squares/field.h"

namespace boardlab {

class SquaresGame final : public Game {
 public:
  static constexpr int kNumPlacements = 19 * 19 + 17 * 17 + 15 * 15 + 13 * 13 + 11 * 11;  // 1165
  static constexpr Action kPass = kNumPlacements;
  static constexpr int kNumActions = kNumPlacements + 1;
  static constexpr int kNumPlanes = 18;
  // At most 100 rounds that each cover 4 or more new cells, and the final double pass.
  static constexpr int kMaxRounds = kFieldCells / 4 + 1;
  static constexpr int kMaxGameLength = 2 * kMaxRounds;
  static constexpr double kMaxScoreMargin = kFieldCells;

  explicit SquaresGame(const GameParameters& params);

  GameType type() const override;
  int num_players() const override { return 2; }
  std::string player_name(Player p) const override { return p == 0 ? "Red" : "Blue"; }
  int num_distinct_actions() const override { return kNumActions; }
  ObservationShape observation_shape() const override { return {kNumPlanes, kFieldSide, kFieldSide}; }
  int max_game_length() const override { return kMaxGameLength; }
  const std::vector<Symmetry>& symmetries() const override { return symmetries_; }
  std::unique_ptr<State> new_initial_state() const override;

 private:
  static ActionLayout placement_layout();  // traits().action_layout
  std::vector<Symmetry> symmetries_;
};

// A placement: side and lower-left corner point.
struct Placement {
  int size = 0;
  int x0 = 0;
  int y0 = 0;
  Field cells() const { return Field::square(size, x0, y0); }
  bool operator==(const Placement&) const = default;
};

// The action of a placement (which must fit in the field), and back (a placement action).
Action placement_action(int size, int x0, int y0);
Placement placement_of(Action action);
// A grid point's name: (2, 4) → "c5".
std::string point_name(int x, int y);

class SquaresState final : public State {
 public:
  // A square on the field and its owner.
  struct Square {
    std::uint16_t action = 0;
    std::uint8_t owner = 0;
  };
  // Two squares per round at most (equal squares both stay), over at most 100 rounds.
  static constexpr int kMaxSquares = 2 * (SquaresGame::kMaxRounds - 1);

  explicit SquaresState(const SquaresGame& game);

  Player current_player() const override { return over_ ? kTerminalPlayer : kSimultaneousPlayer; }
  int move_number() const override { return rounds_; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override;
  void apply(Action action) override;
  void apply_joint(std::span<const Action> actions) override;
  void write_returns(std::span<double> out) const override;
  void observation(Player p, std::span<float> out) const override;
  void ownership(Player viewer, std::span<float> out) const override;
  void scores(std::span<double> out) const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<SquaresState>(*this); }
  std::uint64_t hash() const override;
  std::string to_string() const override;
  // The field, its green zones and every square on it: the same for every viewer (a round's
  // choices are hidden only until the round is played).
  std::optional<Diagram> diagram(Player viewer) const override;
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;
  std::vector<Step> history() const override;

  // A uniformly random legal action of `player` (pass included), without listing them.
  Action draw_random_action_of(Player player, Rng& rng) const override;
  // Whether `action` is legal for `player` now (false at the end), and why not.
  bool is_legal(Player player, Action action) const;
  std::string illegality(Player player, Action action) const;
  int num_legal(Player player) const;

  // Cells of p's squares (green zones included), the green zones, and every covered cell.
  const Field& cells(Player p) const { return own_[p]; }
  const Field& green() const { return green_; }
  Field occupied() const { return own_[0] | own_[1]; }
  int score(Player p) const { return score_[p]; }
  std::span<const Square> squares() const { return {squares_.data(), static_cast<std::size_t>(num_squares_)}; }
  // The lower-left corners of p's legal squares, per side (empty at the end).
  void legal_corners(Player p, Corners& out) const;

 private:
  void add_square(Player p, Action action, const Field& cells);
  void update_legal();
  std::string outcome_text() const;  // to_string()'s last line: the round being chosen, or the result

  bool over_ = false;
  std::uint8_t rounds_ = 0;
  std::int16_t num_squares_ = 0;
  std::array<std::int16_t, 2> score_{};
  std::array<Field, 2> own_{};
  Field green_{};
  // Each player's legal actions as bits in action order, pass included (empty at the end):
  // computed once per round, so legality checks, counts and random choices are bit operations.
  static constexpr int kLegalWords = (SquaresGame::kNumActions + 63) / 64;
  std::array<std::array<std::uint64_t, kLegalWords>, 2> legal_{};
  std::array<Square, kMaxSquares> squares_{};
  // Each round's two actions, Red's first.
  std::array<std::uint16_t, SquaresGame::kMaxGameLength> history_{};
};

GameSpec squares_spec();

}  // namespace boardlab
