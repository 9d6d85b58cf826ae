// Virus War («Война вирусов»), exactly as shared/rules/virus_war.md, with the `strict` option.
//
// Actions: the 100 cells, row-major from a1 (10·(rank−1) + file, files a b c d e f g h i k),
// and pass (100). A cell action reproduces on an empty cell and kills on a live enemy
// cell. A turn is up to three sub-moves by the same player, so current_player() repeats.
//
// Choices where the rule file is silent or contradicts itself:
// - its example list says `pass` is legal at the very start, but its Pass section says a
//   player who has not entered must enter (and says why); the engine follows the Pass
//   section: X's only first action is a1, O's only first action is k10;
// - under `strict` the full turn is checked literally at the start of the turn, as the rule
//   file says (and the C engine mustitz/virus-war does): sub-moves are counted as if the
//   game went on after a kill of the opponent's last live symbol, so a shorter turn that
//   would win does not save a player who cannot make three;
// - a turn is a player's run of sub-moves, or its pass (move_number() counts them); a
//   pass reads as `pass` or `--`;
// - observation planes (the viewer's frame: for O the board is turned 180° so that every
//   player's home corner is a1; see Game::action_to_view):
//     0 viewer's live symbols   1 opponent's live symbols
//     2 viewer's dead symbols   3 opponent's dead symbols (killed by the viewer)
//     4 cells the viewer may play at the start of a turn (its targets)
//     5 cells the opponent may play at the start of its turn (its targets: where the
//       viewer's cells can be attacked; reach runs along chains across the whole board,
//       further than a small network sees, and who runs out of targets loses)
//     6,7,8 one-hot sub-move 1/2/3 of the turn when it is the viewer's move
//     9 the previous turn was a pass (a second pass ends the game in a draw)
// - ownership (an auxiliary training target, GameTraits::has_ownership): a cell belongs to the
//   player whose live symbol is on it, and a dead symbol to the player who killed it (the
//   killer's chains run through it: it is that player's fortress and reach); an empty
//   cell belongs to nobody. In the viewer's frame, like the observation;
// - text: live X `X`, live O `O`, dead X `x`, dead O `o`, empty `.`, rank 10 on top.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "core/game.h"
#include "core/game_spec.h"
#include "games/sub_move_grid/grid_bits.h"
#include "games/sub_move_grid/sub_move_turn.h"

namespace boardlab {

// The 10×10 board: one 128-bit set, bit 10·rank + file.
using Bits = SmallBits;
inline constexpr int kBoardSide = 10;
inline constexpr int kBoardCells = kBoardSide * kBoardSide;
inline constexpr Grid<Bits> kVirusWarGrid(kBoardSide, kBoardSide);

class VirusWarGame final : public Game {
 public:
  static constexpr int kNumActions = kBoardCells + 1;
  static constexpr Action kPass = kBoardCells;
  static constexpr int kSubMovesPerTurn = 3;
  static constexpr int kNumPlanes = 10;
  // Every sub-move moves a cell along empty → live → dead (≤ 200), and passes cannot
  // follow each other without ending the game (≤ one per turn with sub-moves, plus one).
  static constexpr int kMaxGameLength = 2 * kBoardCells + 2 * kBoardCells + 1;

  explicit VirusWarGame(const GameParameters& params);

  bool strict() const { return strict_; }

  GameType type() const override;
  int num_players() const override { return 2; }
  std::string player_name(Player p) const override { return p == 0 ? "X" : "O"; }
  int num_distinct_actions() const override { return kNumActions; }
  ObservationShape observation_shape() const override { return {kNumPlanes, kBoardSide, kBoardSide}; }
  int max_game_length() const override { return kMaxGameLength; }
  const std::vector<Symmetry>& symmetries() const override { return symmetries_; }
  Action action_to_view(Player viewer, Action action) const override;
  Action action_from_view(Player viewer, Action action) const override { return action_to_view(viewer, action); }
  std::unique_ptr<State> new_initial_state() const override;
  std::vector<std::string> split_turn(std::string_view turn, bool simultaneous) const override;

 private:
  static ActionLayout cell_layout();  // traits().action_layout
  bool strict_;
  std::vector<Symmetry> symmetries_;
};

class VirusWarState final : public State {
 public:
  enum class Cell : std::uint8_t { kEmpty, kLiveX, kLiveO, kDeadX, kDeadO };

  explicit VirusWarState(const VirusWarGame& game);

  // A constructed position for tests and analysis: ten rows of ten characters (rank 10
  // first) in the to_string() alphabet, whitespace ignored, `to_move` at the start of its
  // turn. Such a state has no history, so record() refuses it.
  static std::unique_ptr<VirusWarState> from_diagram(const VirusWarGame& game, std::string_view diagram,
                                                     Player to_move);

  Player current_player() const override { return outcome_ == kOngoing ? mover_ : kTerminalPlayer; }
  int move_number() const override { return turn_.number; }
  void list_legal_actions(Player player, std::vector<Action>& out) const override;
  Action draw_random_action(Rng& rng) const override;
  void apply(Action action) override;
  void write_returns(std::span<double> out) const override;
  void observation(Player p, std::span<float> out) const override;
  void ownership(Player viewer, std::span<float> out) const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<VirusWarState>(*this); }
  std::uint64_t hash() const override;
  std::string to_string() const override;
  // Every cell is public: the diagram is the same for every viewer.
  std::optional<Diagram> diagram(Player viewer) const override;
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;
  std::vector<Step> history() const override;
  bool starts_from_initial_state() const override { return has_history_; }

  Cell cell(int index) const;
  // 0, 1 or 2: how many sub-moves the mover has made in this turn.
  int sub_move() const { return turn_.sub_move; }
  bool previous_turn_passed() const { return turn_.passes > 0; }
  // Cells the mover may play now.
  Bits targets() const { return targets_; }
  // Cells player p could play at the start of its turn (entering rule included).
  Bits targets_for(Player p) const;
  // Cells 8-adjacent to p's live symbols or to dead enemy chains linked to them.
  Bits reachable(Player p) const;
  bool pass_is_legal() const;
  // Why `action` is illegal here, or an empty string when it is legal.
  std::string illegality(Action action) const;

  static std::string cell_name(int index);

 private:
  enum Outcome : std::int8_t { kOngoing = -1, kXWins = 0, kOWins = 1, kDraw = 2 };

  void start_turn();
  bool can_make_full_turn() const;
  std::string status() const;  // to_string()'s last line: whose sub-move, or the result
  void finish(Outcome outcome) { outcome_ = outcome; }
  std::uint64_t board_hash_from_scratch() const;
  bool entered(Player p) const { return (live_[p] | dead_[p]) != 0; }

  bool strict_;
  Player mover_ = 0;
  SubMoveTurn turn_;
  bool has_history_ = true;
  Outcome outcome_ = kOngoing;
  std::uint16_t length_ = 0;
  Bits live_[2] = {0, 0};
  Bits dead_[2] = {0, 0};  // dead_[p]: p's own symbols, killed by the opponent
  Bits targets_ = 0;
  std::uint64_t board_hash_ = 0;
  // Each step as its action (bits 0-6) and its player (bit 7).
  std::array<std::uint8_t, VirusWarGame::kMaxGameLength> history_{};
};

GameSpec virus_war_spec();

}  // namespace boardlab
