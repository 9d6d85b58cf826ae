// War's game: parameters, start slots, unit patterns for the board, symmetries, Zobrist keys and the turn notation without `end`.
#include "games/war/war.h"

#include <algorithm>
#include <utility>

#include "core/errors.h"
#include "core/rng.h"
#include "games/sub_move_grid/grid_notation.h"
#include "games/war/war_heuristic.h"

namespace boardlab {
namespace {

constexpr std::string_view kEndText = "end";

}  // namespace

WarGame::WarGame(const GameParameters& params)
    : SlotGame("war", params, kUnitTypes, 0x7761722d67616d65ULL, kCellKinds, kUnitTypes * kCounts),
      patterns_(width_, height_) {}

ObservationShape WarGame::observation_shape() const { return {7 * players_ + 12, height_, width_}; }

int WarGame::max_game_length() const {
  // A turn is at most its sub-moves and an `end`; every sub-move moves a cell along empty ->
  // live -> dead, and every turn has at most one `end` (a pass is a turn of one step).
  return std::min(max_turns_ * (TurnBudget::kMostPerTurn + 1), 2 * cells() + max_turns_);
}

std::unique_ptr<State> WarGame::new_initial_state() const { return WarState::initial(*this); }

std::string WarGame::format_turn(std::span<const std::string> steps, bool simultaneous) const {
  // The `end` that closes a turn of sub-moves is left out; a pass (an `end` alone) is written.
  if (!simultaneous && steps.size() > 1 && steps.back() == kEndText) steps = steps.first(steps.size() - 1);
  return Game::format_turn(steps, simultaneous);
}

GameSpec war_spec() {
  GameSpec spec{"war",
                "War: Virus War of infantry, knights, tanks and planes under command of a general, for 2 to 6 players; "
                "the last general standing wins",
                slot_board_params(1000),
                [](const GameParameters& given) -> std::shared_ptr<const Game> {
                  GameParameters params = given;
                  resolve_slot_board("war", params);
                  return std::make_shared<WarGame>(params);
                },
                {"players=2,width=10,height=10", "players=3,width=11,height=11", "players=4,width=12,height=12",
                 "players=5,width=13,height=9,max_turns=60", "players=6,width=11,height=9"},
                // As Klopodavka: the default 20×20 board makes the shared suites' thousand random
                // games slow; the presets cover every player count, war_test the defaults and the sheet.
                false};
  spec.heuristic = make_war_heuristic;
  return spec;
}

}  // namespace boardlab
