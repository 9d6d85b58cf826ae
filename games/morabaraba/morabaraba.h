// Morabaraba, exactly as shared/rules/morabaraba.md, with the `full_board_draw` option and a move cap.
//
// Points are numbered in the rule file's listing order (see games/morabaraba/board.h):
// a7 d7 g7 g4 g1 d1 a1 a4 (0..7), b6 d6 f6 f4 f2 d2 b2 b4 (8..15), c5 d5 e5 e4 e3 d3 c3 c4 (16..23).
// Actions: 0..23 place a cow on that point, or, while a shot is pending, shoot the enemy cow
// there; 24 + 24·from + to move (slide or fly) a cow; 600 declines a pending shot. The shot is a
// separate decision of the same player: current_player() stays until it is made. In text an
// action 0..23 is `d5` or, while a shot is pending, `xd5`; string_to_action reads both.
// symmetries() holds the board's 15 non-identity symmetries (the API leaves out the identity): the
// rule file's 8 of the square, each also composed with swapping the outer and inner rings. The
// swap is a symmetry of adjacency and mills, so of every rule, which the rule file does not list;
// training on it doubles what augmentation sees.
//
// Choices where the rule file is silent:
// - "plies" (the move cap, the 3-vs-3 count) are placements and moves; a shot decision belongs to
//   the ply that earned it and counts nothing, so max_game_length() is twice the cap;
// - the 3-vs-3 draw: the plies made while both players have exactly 3 cows (hand included) are
//   counted from the shot that made it so; the game is drawn when the 20th such ply is complete,
//   i.e. after its shot decision (a shot there wins instead: the victim drops to 2 cows);
// - full_board_draw: a player to move who cannot move on a full board draws; a full board occurs
//   only right after placing with no cow shot (White is then the one who cannot move);
// - the no-return rule applies to flying as the rule file says, though from the start of a game it
//   never meets a flying cow: setting it takes 5 cows, and one shot cannot bring them to 3;
// - when a turn passes, a blockade (or, with full_board_draw, the full board) is judged first,
//   then the 3-vs-3 draw, then the move cap: the cap, not being a rule, never hides a result;
// - the GAR restriction lives from the move that made it to that player's next move, and is
//   dropped as soon as it can no longer bite (the cow or a cow of the mill it would remake was
//   shot, or the opponent moved onto the point): equal positions then hash equally;
// - a turn is a ply with its shot decision (move_number() counts plies); a record
//   (State::record) is the turns in order, separated by spaces, each ply with its shot
//   decision attached: `d2`, `d2xe4`, `a1-a4x-`, `c5-d5xg7`. load_record also reads a shot
//   written as its own word (`d1-d2 xd5`); a record that stops before a shot is decided ends
//   with kTurnGoesOn (`g7 +`), as every game's record stopped in the middle of a turn;
// - the move cap is not a rule: a game it ends is truncated (is_truncated()), with 0 and 0.
//
// Observation: 17 planes on a 3×8 grid whose columns wrap, the rings as rows (outer first) and
// each ring's points as columns: the cell of point i is i (board.h), so every line of the
// board joins neighbouring cells. On the 7×7 board's own grid a ring's neighbours lie up to
// 3 cells apart, and a 2-block network saw an outer mill only in its third convolution; here
// one 3×3 convolution sees every mill, on half the cells. From the viewer's side; "constant"
// planes hold one value on all 24 cells:
//   0 viewer's cows              1 opponent's cows            2 the 12 corners (a fixed mask)
//   3 viewer's hand / 12         4 opponent's hand / 12       (constant)
//   5 viewer has exactly 3 cows (flies when moving)   6 the same for the opponent (constant)
//   7 the viewer is to move      8 a shot is pending (for the player to move)   (constant)
//   9 opponent's cows the viewer may shoot (the mill-protection rule applied)
//  10 viewer's cows the opponent may shoot
//  11 viewer's cow under the GAR no-return restriction   12 the point it may not return to
//  13 the same for the opponent's cow                     14 and its point
//  15 3-vs-3 plies / 20          16 plies played / move cap   (constant)
// Text: White `W`, Black `B`, empty `.`, rank 7 on top; then the position line that from_text
// reads, then a status line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"
#include "core/step_log.h"
#include "games/morabaraba/board.h"

namespace boardlab {

class MorabarabaGame final : public Game {
 public:
  static constexpr int kNumPoints = morabaraba::kNumPoints;
  static constexpr Action kMoveBase = kNumPoints;
  static constexpr Action kDecline = kMoveBase + kNumPoints * kNumPoints;  // 600
  static constexpr int kNumActions = kDecline + 1;
  static constexpr int kCowsPerPlayer = 12;
  static constexpr int kThreeCowsPlies = 20;
  static constexpr int kNumPlanes = 17;
  static constexpr int kDefaultMoveCap = 400;
  // Keeps max_game_length() (twice the cap) well inside an int.
  static constexpr int kMaxMoveCap = 1'000'000;

  explicit MorabarabaGame(const GameParameters& params);

  bool full_board_draw() const { return full_board_draw_; }
  int move_cap() const { return move_cap_; }

  GameType type() const override { return {}; }  // sequential, deterministic, perfect information, zero-sum ±1
  int num_players() const override { return 2; }
  std::string player_name(Player p) const override { return p == 0 ? "White" : "Black"; }
  int num_distinct_actions() const override { return kNumActions; }
  ObservationShape observation_shape() const override {
    return {kNumPlanes, morabaraba::kRings, morabaraba::kRingPoints, /*wrap_columns=*/true};
  }
  int max_game_length() const override { return 2 * move_cap_; }
  const std::vector<Symmetry>& symmetries() const override { return symmetries_; }
  std::unique_ptr<State> new_initial_state() const override;
  std::string format_turn(std::span<const std::string> steps, bool simultaneous) const override;
  std::vector<std::string> split_turn(std::string_view turn, bool simultaneous) const override;
  std::unique_ptr<State> load_record(std::string_view record) const override;

  static constexpr Action move_action(int from, int to) { return kMoveBase + kNumPoints * from + to; }

 private:
  bool full_board_draw_;
  int move_cap_;
  std::vector<Symmetry> symmetries_;
};

class MorabarabaState final : public State {
 public:
  using Points = morabaraba::Points;

  enum class EndReason : std::uint8_t {
    kNone,
    kTwoCows,        // a shot left the loser with 2 cows
    kBlockade,       // the player to move could not move
    kFullBoardDraw,  // full_board_draw: the board was full after placing
    kThreeCowsDraw,  // 20 plies at 3 cows each without a shot
    kMoveCap,        // the engine's move cap, not a rule of the game
  };

  // The GAR restriction of one player: the cow on `cow` may not go back to `point`.
  struct NoReturn {
    std::int8_t cow = -1;
    std::int8_t point = -1;
    bool active() const { return cow >= 0; }
    bool operator==(const NoReturn&) const = default;
  };

  explicit MorabarabaState(const MorabarabaGame& game);

  // A constructed position for tests and analysis, in the form of position_text(): clauses
  // separated by ';', e.g. "white: a7 d7 g7; black: d1 d2; hands: 0 0; to_move: black".
  //   white: / black: <points>   the cows on the board (either may be empty)
  //   hands: <white> <black>     cows in hand (default 0 0; placing while any is non-zero)
  //   to_move: white | black     required
  //   shot: pending              the player to move has a shot to decide
  //   no_return: <colour> <cow> <point>   a GAR restriction that bites
  //   plies: <n>  three_cows: <n>         the cap and 3-vs-3 counts (default 0)
  // Such a state has no history, so record() refuses it.
  static std::unique_ptr<MorabarabaState> from_text(const MorabarabaGame& game, std::string_view text);

  Player current_player() const override { return outcome_ == kOngoing ? mover_ : kTerminalPlayer; }
  // The engine's move cap, not a rule of the game, ended it: a draw that is no result of the rules.
  bool is_truncated() const override { return end_ == EndReason::kMoveCap; }
  int move_number() const override { return std::max(0, plies_ - (shot_pending() ? 1 : 0)); }
  void list_legal_actions(Player player, std::vector<Action>& out) const override;
  Action draw_random_action(Rng& rng) const override;
  void apply(Action action) override;
  void write_returns(std::span<double> out) const override;
  void observation(Player p, std::span<float> out) const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<MorabarabaState>(*this); }
  std::uint64_t hash() const override;
  std::string to_string() const override;
  // The 24 points on the board's lines, and the cows: the same for every viewer.
  std::optional<Diagram> diagram(Player viewer) const override;
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;
  std::vector<Step> history() const override;
  bool starts_from_initial_state() const override { return has_history_; }

  Points cows(Player p) const { return cows_[p]; }
  int hand(Player p) const { return hand_[p]; }
  // On the board and in hand.
  int cow_count(Player p) const { return morabaraba::count(cows_[p]) + hand_[p]; }
  bool placing() const { return hand_[0] + hand_[1] > 0; }
  bool shot_pending() const { return outcome_ == kOngoing && pending_; }
  // Player p moves any cow to any empty point once the board is in the moving phase.
  bool flies(Player p) const { return cow_count(p) == 3; }
  // Cows of `victim` that a shot may take: those outside mills, or all if all stand in mills.
  Points shootable(Player victim) const;
  NoReturn no_return(Player p) const { return no_return_[p]; }
  // Placements and moves made (shot decisions excluded): what the move cap counts.
  int plies() const { return plies_; }
  // Plies made while both players have exactly 3 cows.
  int three_cows_plies() const { return three_plies_; }
  EndReason end_reason() const { return end_; }
  // Why `action` is illegal here, or an empty string when it is legal.
  std::string illegality(Action action) const;
  // The position in from_text's form.
  std::string position_text() const;
  // to_string()'s last line: who is to place, move, fly or shoot, or the result and why.
  std::string status() const;

  static std::string_view point_name(int point) { return morabaraba::kPointNames[point]; }
  // The point named by text like "d2" (any case), or -1.
  static int parse_point(std::string_view text);

 private:
  enum Outcome : std::int8_t { kOngoing = -1, kWhiteWins = 0, kBlackWins = 1, kDraw = 2 };
  // What from_text gathers beside the fields it sets directly.
  struct TextClauses {
    bool to_move_given = false;
    NoReturn no_return[2];
  };

  // from_text's steps: one `key: values` clause read into this state, then the checks
  // across clauses and what follows from them (the hash, the end, the turn's start).
  void read_text_clause(const std::string& clause, TextClauses& read);
  void finish_text(const TextClauses& read);

  bool legal(Action action) const;
  // The mover's moves in ascending action order (the moving phase only); returns how many.
  int list_moves(Action* out) const;
  bool has_move(Player p) const;
  Action forbidden_return() const;
  void shoot(int point);
  void end_turn();
  void judge_turn_start();
  void finish(Outcome outcome, EndReason reason) {
    outcome_ = outcome;
    end_ = reason;
  }
  bool both_have_three() const { return cow_count(0) == 3 && cow_count(1) == 3; }
  void drop_dead_no_return(Player p);

  bool full_board_draw_;
  int move_cap_;
  Player mover_ = 0;
  bool pending_ = false;
  bool has_history_ = true;
  Outcome outcome_ = kOngoing;
  EndReason end_ = EndReason::kNone;
  std::int8_t hand_[2] = {MorabarabaGame::kCowsPerPlayer, MorabarabaGame::kCowsPerPlayer};
  std::int8_t three_plies_ = 0;
  int plies_ = 0;
  Points cows_[2] = {0, 0};
  NoReturn no_return_[2];
  std::uint64_t board_hash_ = 0;  // cows and hands
  StepLog<1> history_;  // actions below 1024 and the seat
};

GameSpec morabaraba_spec();

}  // namespace boardlab
