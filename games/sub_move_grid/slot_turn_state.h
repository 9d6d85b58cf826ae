// What Klopodavka's and War's states share: the turn order of the seats still in, whole-turn passes, the turn cap, eliminations and returns, and the packed history.
//
// The actions of both games are `planes` planes of cells (action = plane·cells + cell) and
// one board-wide action after them (the pass, War's `end`).
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/step_log.h"
#include "games/sub_move_grid/standings.h"
#include "games/sub_move_grid/sub_move_turn.h"

namespace boardlab {

// Interface: the game's abstract state class (KlopodavkaState, WarState), a SlotState;
// GameT: its game, a SlotGame.
template <typename Interface, typename GameT>
class SlotTurnState : public Interface {
 public:
  Player current_player() const override { return end_ == SlotGameEnd::kNone ? mover_ : kTerminalPlayer; }
  bool is_truncated() const override { return end_ == SlotGameEnd::kTurnCap; }
  int move_number() const override { return turn_.number; }
  int passes_in_a_row() const override { return turn_.passes; }
  bool is_out(Player p) const override { return standings_.is_out(p); }
  bool starts_from_initial_state() const override { return has_history_; }
  // A player out has its rank already: only those still in can go out after it, above it.
  void write_returns(std::span<double> out) const override {
    standings_.returns(out, game_name_);
    if (running())
      for (Player p = 0; p < standings_.players; ++p)
        if (!standings_.is_out(p)) out[p] = 0.0;
  }
  // Those still in share the top ranks, as a draw now would give them.
  void standing_returns(std::span<double> out) const override { standings_.returns(out, game_name_); }
  std::vector<Step> history() const override {
    std::vector<Step> out(history_.size());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = history_[i];
    return out;
  }

 protected:
  SlotTurnState(const Game& game, const char* game_name, int max_turns, int planes, int cells)
      : Interface(game),
        game_name_(game_name),
        max_turns_(max_turns),
        planes_of_cells_(planes * cells),
        cells_(cells),
        standings_(game.num_players()) {
    history_.reserve(static_cast<std::size_t>(std::min(game.max_game_length(), 4096)));
  }

  bool running() const { return end_ == SlotGameEnd::kNone; }
  Action board_wide_action() const { return planes_of_cells_; }
  std::string who(Player p) const { return this->game().player_name(p); }

  // The mover gives up its whole turn: whether that drew the game (every player still in passed in a row).
  bool pass_drew() {
    if (!turn_.pass(standings_.in)) return false;
    end_ = SlotGameEnd::kAllPassed;
    return true;
  }
  // The next seat still in moves, unless the turn cap is reached. Whether the game goes on.
  bool next_seat() {
    if (turn_.number >= max_turns_) {
      end_ = SlotGameEnd::kTurnCap;
      return false;
    }
    do mover_ = (mover_ + 1) % standings_.players;
    while (standings_.is_out(mover_));
    return true;
  }
  // p goes out, and the game (and the turn) ends now when one player is left. Returns p's
  // order out (1 for the first).
  int put_out(Player p) {
    const int order = standings_.put_out(p);
    if (standings_.in == 1) {
      turn_.end_with_the_game();
      end_ = SlotGameEnd::kLastStanding;
    }
    return order;
  }

  // A position set up from a diagram: the seats p with in(p) still have their vital piece
  // (`vital`: "general"), and `to_move` is at the start of its turn. Whether the game goes
  // on (more than one seat is in); throws InputError for a position that cannot be played.
  template <typename In>
  bool set_up_seats(In is_in, Player to_move, const char* vital) {
    const int n = standings_.players;
    std::array<bool, Standings::kMaxPlayers> in{};
    for (Player p = 0; p < n; ++p) in[p] = is_in(p);
    if (to_move < 0 || to_move >= n)
      throw InputError("from_diagram: the player to move must be 0.." + std::to_string(n - 1) + ", not " +
                       std::to_string(to_move));
    standings_.set_up(std::span<const bool>(in.data(), static_cast<std::size_t>(n)));
    if (standings_.in == 0) throw InputError(std::string("from_diagram: no player has a ") + vital);
    if (!in[to_move])
      throw InputError("from_diagram: " + who(to_move) + " is to move but has no " + vital + " (it is out)");
    mover_ = to_move;
    has_history_ = false;
    if (standings_.in == 1) end_ = SlotGameEnd::kLastStanding;
    return running();
  }

  // The hash of a state whose cells hash to `board` and the rest of whose turn (beyond its
  // mover, its number and the passes) to `turn`.
  std::uint64_t turn_hash(std::uint64_t board, std::uint64_t turn) const {
    const auto& g = static_cast<const GameT&>(this->game());
    const std::uint64_t h = board ^ GameT::turn_key(turn_.number) ^ g.passes_key(turn_.passes);
    return running() ? h ^ g.mover_key(mover_) ^ turn : h ^ g.end_key(static_cast<int>(end_));
  }

  // The status line after the board: whose turn (`turn_text`, while running) or the result,
  // passes and who went out. `last` says what the winner kept ("the last general").
  std::string status(const std::string& turn_text, const char* last) const {
    return (running() ? turn_text : std::string()) +
           standings_.status(end_, last, max_turns_, turn_.passes, [&](Player p) { return who(p); });
  }

  // The history under a board symmetry, for an image state.
  void map_history_from(const SlotTurnState& source, std::span<const int> cell_map, std::span<const Player> seat_map,
                        bool keeps_record) {
    history_ = StepLog<3>();
    history_.reserve(source.history_.size());
    for (std::size_t i = 0; i < source.history_.size(); ++i) {
      const Step step = source.history_[i];
      const Action a = step.action == planes_of_cells_
                           ? step.action
                           : step.action - step.action % cells_ + cell_map[step.action % cells_];
      history_.push_back(seat_map[step.player], a);
    }
    for (Player p = 0; p < standings_.players; ++p) standings_.out_order[seat_map[p]] = source.standings_.out_order[p];
    mover_ = seat_map[source.mover_];
    has_history_ = source.has_history_ && keeps_record;
  }

  const char* game_name_;
  int max_turns_;
  int planes_of_cells_;
  int cells_;
  Player mover_ = 0;
  SubMoveTurn turn_;
  SlotGameEnd end_ = SlotGameEnd::kNone;
  bool has_history_ = true;
  Standings standings_;
  StepLog<3> history_;  // actions below 4·1280 + 1 < 2^13, and the seat
};

}  // namespace boardlab
