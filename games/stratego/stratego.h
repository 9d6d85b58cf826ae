// Stratego (classic 40 pieces, or the 8-piece barrage), exactly as shared/rules/stratego.md, with hidden setups and a move cap.
//
// Board: cells a1 = 0 .. k10 = 99 (games/stratego/board.h); files a–k without j. Red (player 0)
// sets up on ranks 1–4 and moves first, Blue on ranks 7–10.
// Actions: 0..11 put a piece of that kind (board.h's Kind: 0 Spy .. 9 Marshal, 10 Bomb, 11 Flag)
// on the next setup square, 12 leaves it empty (barrage); 13 + 36·cell + 9·direction +
// (distance − 1) moves the piece on `cell` (direction 0 north, 1 east, 2 south, 3 west).
// Text: a setup step is the kind's character `1`..`9` `X` `B` `F`, or `.` for empty; a move or an
// attack is `a4-a5`. A side's setup is one turn, its 40 characters written together
// (`FB1B…`); each move is a turn. Games of the Gravon archive (XML) read and write through
// games/stratego/gravon.h.
//
// Choices where the rule file is silent:
// - setup order: Red fills a1..k1, a2..k2, .. a4..k4; Blue fills the same squares turned by 180°
//   (k10..a10, k9..a9, ..), so both fill "from the own back rank, left to right as seen from
//   the own side" and a setup reads the same for either colour;
// - setup parameter: `setup=play` (default) has each side place its pieces as actions (Red
//   first); `setup=random` draws both setups by chance, square by square with probabilities
//   proportional to what is left in hand (uniform over setups); `red_setup` / `blue_setup` give
//   a side's 40 setup characters in the fill order: such a side has no setup steps, and since
//   the game string is public, its setup is known to both (sample_hidden keeps it);
// - observed_moves (1 by default): how many of the last moves the observation shows, an
//   observation parameter (Game::rules_string leaves it out): the rules and the ladder are
//   the same whatever it is, the network's input is not;
// - two-square rule: a player's consecutive moves of one piece between the same two exact
//   squares are counted (a scout's long moves too); the move that would make the count exceed
//   two_square_limit is illegal; any other move of that player resets the count;
// - chasing rule: a move of A from X is a chase of Q when the opponent's immediately previous
//   move took Q from a square next to X to a square T not next to X (a move away), Q still
//   stands on T, and A moves (not attacks) to a square next to T. Chases continue a count when
//   the player's previous move was a chase of Q (then standing where it fled from) by A (then
//   arriving on X); the 3rd chase in a row is illegal; any other move resets the count;
//   `chasing_rule=false` turns it off (games played elsewhere under other repetition rules);
// - a player who cannot move on its turn loses, unless the opponent could not move either
//   (judged by the same rules as if it were to move), which is a draw;
// - the unreachable-flag draw: side S "has a path" when one of its movable pieces reaches the
//   enemy Flag through squares other than lakes, S's own Bombs and Flag and, while S has no
//   Miner, enemy Bombs (moving pieces never block: they move or are taken). The answer changes
//   only when a piece is removed, so it is judged after each strike and once the setups are done;
// - judging order after a move: the Flag taken, then the next player unable to move, then the
//   unreachable-flag draw, then the move cap (which, not being a rule, never hides a result);
// - the move cap counts moves (plies), not setup steps; max_game_length() is 80 + the cap;
// - evaluations (the arena) open with no random turns where a side sets up by its own actions:
//   its setup is its first turn, and the players' own setups, not random ones, are what an
//   evaluation measures first.
// What each player sees of a step (action_seen_by, record_for): its own setup squares' kinds;
// for the opponent's squares `?` (a piece) or `.` (empty, visible in barrage); every move, and
// for a strike both kinds, as `a4-a5=32` (a Miner strikes a Scout).
//
// Observation: num_planes() planes of 10×10 from the viewer's side (Blue's view is turned by 180°,
// actions too: action_to_view), each in [0, 1]; "constant" planes hold one value everywhere:
//   0-11 own pieces by kind        12 own pieces whose kind the opponent knows   13 own moved
//  14-25 enemy pieces of known kind (revealed in a strike, or a Scout by a long move) by kind
//  26 enemy pieces  27 enemy pieces that have moved  28 enemy pieces that moved more than a square
//  29 lakes   30-41 enemy pieces of each kind still unseen / initial count (constant)
//  42-53 own captured by kind / initial   54-65 enemy captured by kind / initial (constant)
//  66 setup phase (constant)   67 the square the viewer fills next   68-80 own hand by setup
//  action / initial (constant)   81, 82 the last move's from- and to-square, 83, 84 the move's
//  before, .. for observed_moves moves (newest first; none yet: empty)   81 + 2·observed_moves
//  the viewer is to move (constant)   82 + 2·observed_moves plies / move cap (constant)
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"
#include "core/step_log.h"
#include "games/stratego/board.h"

namespace boardlab {

class StrategoGame final : public Game {
 public:
  static constexpr Action kEmptyAction = stratego::kNoPiece;  // 12
  static constexpr Action kMoveBase = 13;
  static constexpr int kMaxDistance = 9;
  static constexpr int kNumActions = kMoveBase + stratego::kCells * stratego::kDirs * kMaxDistance;
  static constexpr int kSetupSquares = 40;
  // Planes before the observed moves' (0-80) and the most moves an observation shows.
  static constexpr int kMovePlanes = 81;
  static constexpr int kMaxObservedMoves = 32;
  static constexpr int kMaxMoveCap = 100000;

  enum class SetupMode : std::uint8_t { kPlay, kRandom };

  explicit StrategoGame(const GameParameters& params);

  bool barrage() const { return barrage_; }
  const std::array<std::int8_t, stratego::kKinds>& counts() const { return counts_; }
  int pieces_per_side() const { return pieces_; }
  int two_square_limit() const { return two_square_limit_; }
  bool chasing_rule() const { return chasing_rule_; }
  int move_cap() const { return move_cap_; }
  int observed_moves() const { return observed_moves_; }
  int num_planes() const { return kMovePlanes + 2 * observed_moves_ + 2; }
  SetupMode setup_mode() const { return mode_; }
  // A side's setup fixed by a parameter (setup actions 0..12 per fill square), or empty.
  const std::vector<std::int8_t>& fixed_setup(Player p) const { return fixed_[p]; }

  GameType type() const override;
  int num_players() const override { return 2; }
  std::string player_name(Player p) const override { return p == 0 ? "Red" : "Blue"; }
  int num_distinct_actions() const override { return kNumActions; }
  ObservationShape observation_shape() const override { return {num_planes(), stratego::kSide, stratego::kSide}; }
  int max_game_length() const override { return 2 * kSetupSquares + move_cap_; }
  Action action_to_view(Player viewer, Action action) const override;
  Action action_from_view(Player viewer, Action action) const override { return action_to_view(viewer, action); }
  std::unique_ptr<State> new_initial_state() const override;
  std::string format_turn(std::span<const std::string> steps, bool simultaneous) const override;
  std::vector<std::string> split_turn(std::string_view turn, bool simultaneous) const override;
  std::unique_ptr<State> sample_record(std::string_view record, Player viewer, Rng& rng,
                                       int max_nodes) const override;

  // The cell that setup square i (0..39) of player p is.
  static constexpr int setup_cell(Player p, int i) { return p == 0 ? i : stratego::kCells - 1 - i; }
  static constexpr Action move_action(int cell, int dir, int distance) {
    return kMoveBase + (cell * stratego::kDirs + dir) * kMaxDistance + distance - 1;
  }
  // A move action's parts, as move_action takes them.
  struct Move {
    int from, direction, distance;
    // The square it ends on, for a move that stays on the board (a legal one).
    constexpr int to() const { return from + stratego::kStep[direction] * distance; }
  };
  static constexpr Move move_of(Action action) {
    const int m = action - kMoveBase;
    return {m / kMaxDistance / stratego::kDirs, m / kMaxDistance % stratego::kDirs, m % kMaxDistance + 1};
  }
  static std::string cell_name(int cell);
  // The cell named by text like "a4" or "k10" (any case), or -1.
  static int parse_cell(std::string_view text);

 private:
  static ActionLayout move_layout();  // traits().action_layout
  bool barrage_;
  std::array<std::int8_t, stratego::kKinds> counts_;
  int pieces_;
  int two_square_limit_;
  bool chasing_rule_;
  int move_cap_;
  int observed_moves_;
  SetupMode mode_;
  std::vector<std::int8_t> fixed_[2];
};

class StrategoState final : public State {
 public:
  enum class EndReason : std::uint8_t { kNone, kFlagCaptured, kNoMoves, kNeitherCanMove, kFlagUnreachable, kMoveCap };
  static constexpr std::uint8_t kMoved = 1, kLongMoved = 2, kRevealed = 4;
  static constexpr int kNoSquare = -1;

  explicit StrategoState(const StrategoGame& game);

  Player current_player() const override;
  bool is_truncated() const override { return end_ == EndReason::kMoveCap; }
  int move_number() const override;
  void list_legal_actions(Player player, std::vector<Action>& out) const override;
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override;
  Action draw_random_action(Rng& rng) const override;
  void apply(Action action) override;
  void write_returns(std::span<double> out) const override;
  void observation(Player p, std::span<float> out) const override;
  std::uint64_t information_key(Player p) const override;
  std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const override;
  std::unique_ptr<State> clone() const override { return std::make_unique<StrategoState>(*this); }
  std::uint64_t hash() const override;
  std::string to_string() const override;
  // The board as `viewer` sees it: its own ranks, and the enemy's only where a strike or a
  // Scout's long move revealed them (kInvalidPlayer: every rank, for analysis).
  std::optional<Diagram> diagram(Player viewer) const override;
  std::string action_text(Player actor, Action action) const override;
  Action read_action(Player actor, std::string_view text) const override;
  std::string action_seen_by(Player viewer, Player actor, Action action) const override;
  std::vector<Step> history() const override;

  const StrategoGame& stratego() const { return *game_; }
  bool setting_up() const { return fill_ < 2 * StrategoGame::kSetupSquares; }
  // The player whose setup square is filled next (during the setup).
  Player setup_side() const { return fill_ < StrategoGame::kSetupSquares ? 0 : 1; }
  // The piece on `cell`: its owner (-1 for none) and kind.
  int owner(int cell) const { return board_[cell] < 0 ? -1 : board_[cell] / StrategoGame::kSetupSquares; }
  int kind_at(int cell) const { return board_[cell] < 0 ? -1 : kind_[board_[cell]]; }
  std::uint8_t flags_at(int cell) const { return board_[cell] < 0 ? 0 : flags_[board_[cell]]; }
  int alive(Player p, int kind) const { return alive_[p][kind]; }
  int plies() const { return plies_; }
  EndReason end_reason() const { return end_; }
  Player winner() const { return winner_; }
  // Why `action` is illegal here, or an empty string when it is legal.
  std::string illegality(Action action) const;
  // Whether p could move now, were it its turn (the repetition rules applied as they stand).
  bool can_move(Player p) const;
  // Whether neither side can ever take the other's Flag (the rule file's unreachable-flag draw).
  bool flags_unreachable() const;
  // The piece identity (setup slot: Red 0..39, Blue 40..79) on `cell`, or -1.
  int piece_at(int cell) const { return board_[cell]; }

 private:
  friend class StrategoGame;
  // The moves that the repetition rules forbid p now: one exact move (two-square rule) and the
  // chase destinations of one piece.
  struct Forbidden {
    int ts_from = kNoSquare, ts_to = kNoSquare;
    int chase_from = kNoSquare;
    stratego::Bits chase_to = 0;
    bool forbids(int from, int to) const {
      return (from == ts_from && to == ts_to) || (from == chase_from && (chase_to & stratego::bit(to)));
    }
  };
  Forbidden forbidden(Player p) const;
  // A player's legal moves in a form that counts them without listing them: one-square moves
  // as a mask per direction, the Scouts' reach per direction, the forbidden moves taken out.
  // Random play draws the r-th legal move from it, listing only the chosen piece's moves
  // (moves_of), where listing them all walked every piece square by square.
  static constexpr int kMaxScouts = 8;
  struct Moves {
    stratego::Bits step[stratego::kDirs];  // pieces with a legal one-square move in direction d
    stratego::Bits scouts;                 // the player's Scouts, whose longer moves are counted apart
    std::int8_t reach[kMaxScouts][stratego::kDirs];  // by Scout, ascending: squares it may go in direction d
    int longer_before[kMaxScouts + 1];     // legal moves longer than a square of the Scouts before the i-th
    int total;
    Forbidden forbidden;
  };
  void generate(Player p, Moves& m) const;
  // Writes the legal moves of the piece on `from`, ascending (at most 2·kMaxDistance); returns the end.
  static Action* moves_of(const Moves& m, int from, Action* out);
  // The player's legal moves, ascending; returns how many (out holds up to kMaxMoves).
  static constexpr int kMaxMoves = 512;
  int list_moves(Player p, Action* out) const;
  // Whether the side setting up may put `kind` (or kNoPiece) on its next square.
  bool setup_allows(Action kind) const;
  void place(Player p, int slot, int kind);
  void play_move(int from, int to);
  void judge_after_move(bool struck);
  void finish(Player winner, EndReason reason) {
    winner_ = winner;
    end_ = reason;
  }
  void mix_info(Player p, std::uint64_t value);
  void rebuild_masks();
  // Re-deals the hidden kinds of `side`'s pieces consistently with what the other player knows.
  bool redeal(Player side, Rng& rng);
  bool end_judgement_agrees(const StrategoState& truth) const;
  std::string status() const;  // to_string()'s last line: public facts only

  const StrategoGame* game_;
  std::int8_t board_[stratego::kCells];
  std::int8_t kind_[2 * StrategoGame::kSetupSquares];  // by piece slot; -1: none (barrage empty)
  std::uint8_t flags_[2 * StrategoGame::kSetupSquares] = {};
  std::int8_t hand_[2][stratego::kKinds + 1];          // setup actions left to each side
  std::int8_t alive_[2][stratego::kKinds] = {};
  std::int8_t captured_[2][stratego::kKinds] = {};
  stratego::Bits occ_[2] = {0, 0}, mobile_[2] = {0, 0}, scouts_[2] = {0, 0};
  int fill_ = 0;  // setup squares filled, Red's 0..39 then Blue's 40..79
  Player mover_ = 0;
  int plies_ = 0;
  int setup_turns_ = 0;  // setup turns played as steps (a fixed setup has none)
  Player winner_ = -1;   // 0, 1, or 2 for a draw, once ended
  EndReason end_ = EndReason::kNone;
  std::int8_t last_from_[2] = {-1, -1}, last_to_[2] = {-1, -1};
  std::int8_t ts_from_[2] = {-1, -1}, ts_to_[2] = {-1, -1};
  std::int8_t ts_count_[2] = {0, 0};
  std::int8_t chase_count_[2] = {0, 0}, chase_piece_[2] = {-1, -1}, chase_target_[2] = {-1, -1};
  std::uint64_t info_[2] = {0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL};
  StepLog<2> history_;  // seat 0, 1, or 2 for chance
};

// Inline: random play calls it on every move.
inline Action* StrategoState::moves_of(const Moves& m, int from, Action* out) {
  if (!(m.scouts & stratego::bit(from))) {
    for (int d = 0; d < stratego::kDirs; ++d)
      if (m.step[d] & stratego::bit(from)) *out++ = StrategoGame::move_action(from, d, 1);
    return out;
  }
  const int at = stratego::count(m.scouts & (stratego::bit(from) - 1));
  for (int d = 0; d < stratego::kDirs; ++d)
    for (int k = 1, to = from + stratego::kStep[d]; k <= m.reach[at][d]; ++k, to += stratego::kStep[d])
      if (!m.forbidden.forbids(from, to)) *out++ = StrategoGame::move_action(from, d, k);
  return out;
}

GameSpec stratego_spec();

}  // namespace boardlab
