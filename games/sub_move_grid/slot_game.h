// What Klopodavka's and War's games share: the board and its seats from the shared parameters, the notation, the symmetries, seat names and the tables of Zobrist keys.
//
// Both games' actions are `planes` planes of cells (action = plane·cells + cell) and one
// board-wide action after them (the pass, War's `end`); the network sees each plane at its
// cells (plane_action_layout).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/rng.h"
#include "games/sub_move_grid/grid_notation.h"
#include "games/sub_move_grid/start_slots.h"

namespace boardlab {

class SlotGame : public Game {
 public:
  static constexpr int kMaxPlayers = SlotBoard::kMaxPlayers;

  int width() const { return width_; }
  int height() const { return height_; }
  int cells() const { return width_ * height_; }
  int max_turns() const { return max_turns_; }
  // The centre of seat p's start block.
  int home(Player p) const { return homes_[p]; }
  const GridNotation& notation() const { return notation_; }
  // The action that is not a cell's: the pass, or War's `end`.
  Action board_wide_action() const { return planes_ * cells(); }

  // Zobrist keys of what a state holds beside its cells: the mover, the passes in a row, seat
  // p's going out `order`-th (1 for the first out), how the game ended (SlotGameEnd), a
  // game's own keys for the rest of its turn, and the turn number (through a mixer:
  // max_turns is a parameter, so no table fits it).
  std::uint64_t mover_key(Player p) const { return state_keys_[static_cast<std::size_t>(p)]; }
  std::uint64_t passes_key(int passes) const { return state_keys_[static_cast<std::size_t>(kPassKeys + passes)]; }
  std::uint64_t out_key(Player p, int order) const {
    return state_keys_[static_cast<std::size_t>(kOutKeys + (kMaxPlayers + 1) * p + order)];
  }
  std::uint64_t end_key(int reason) const { return state_keys_[static_cast<std::size_t>(kEndKeys + reason)]; }
  std::uint64_t turn_state_key(int index) const { return state_keys_[static_cast<std::size_t>(kTurnStateKeys + index)]; }
  static std::uint64_t turn_key(int number) { return Rng(0x7475726e73ULL ^ static_cast<std::uint64_t>(number))(); }

  GameType type() const override { return {}; }  // sequential, deterministic, perfect information, zero-sum ±1
  int num_players() const override { return players_; }
  std::string player_name(Player p) const override { return std::string(1, static_cast<char>('A' + p)); }
  int num_distinct_actions() const override { return planes_ * cells() + 1; }
  const std::vector<Symmetry>& symmetries() const override { return symmetries_; }
  std::unique_ptr<State> apply_symmetry(const State& state, int index) const override {
    return apply_slot_symmetry(*this, state, index);
  }
  std::vector<std::string> split_turn(std::string_view turn, bool simultaneous) const override {
    return split_sub_move_turn(*this, turn, simultaneous);
  }

 protected:
  // `params` as resolve_slot_board() left them; `cell_keys` random keys per cell and
  // `turn_state_keys` for turn_state_key(), drawn from `key_seed`.
  SlotGame(std::string name, const GameParameters& params, int planes, std::uint64_t key_seed, int cell_keys,
           int turn_state_keys)
      : Game(std::move(name), params),
        players_(int_param(params, "players")),
        width_(int_param(params, "width")),
        height_(int_param(params, "height")),
        max_turns_(int_param(params, "max_turns")),
        planes_(planes),
        notation_(width_, height_),
        symmetries_(slot_symmetries(players_, width_, height_, planes)) {
    for (Slot slot : slots_for(players_)) homes_.push_back(slot_centre(slot, width_, height_));
    Rng rng(key_seed);
    cell_keys_.resize(static_cast<std::size_t>(cells() * cell_keys));
    for (auto& key : cell_keys_) key = rng();
    state_keys_.resize(static_cast<std::size_t>(kTurnStateKeys + turn_state_keys));
    for (auto& key : state_keys_) key = rng();
    traits_.action_layout = plane_action_layout(planes_, cells());
    traits_.pass_action = board_wide_action();
    traits_.has_ownership = true;
    traits_.has_standings = true;
  }

  static constexpr int kPassKeys = kMaxPlayers;
  static constexpr int kOutKeys = kPassKeys + kMaxPlayers + 1;
  static constexpr int kEndKeys = kOutKeys + kMaxPlayers * (kMaxPlayers + 1);
  static constexpr int kTurnStateKeys = kEndKeys + 4;

  static int int_param(const GameParameters& params, const char* name) {
    return static_cast<int>(std::get<std::int64_t>(params.at(name)));
  }

  int players_;
  int width_;
  int height_;
  int max_turns_;
  int planes_;
  std::vector<int> homes_;
  GridNotation notation_;
  std::vector<Symmetry> symmetries_;
  std::vector<std::uint64_t> cell_keys_;
  std::vector<std::uint64_t> state_keys_;
};

}  // namespace boardlab
