// Klopodavka's game: its own parameters (sub-moves, revolutions) on the shared slot board, observation shape, length and registry entry.
#include "games/klopodavka/klopodavka.h"

#include <algorithm>
#include <utility>

#include "core/errors.h"
#include "games/klopodavka/klopodavka_heuristic.h"

namespace boardlab {

KlopodavkaGame::KlopodavkaGame(const GameParameters& params)
    : SlotGame("klopodavka", params, 2, 0x6b6c6f706f646176ULL, 3 * kMaxPlayers, kMaxSubMoves),
      submoves_(int_param(params, "submoves")),
      revolution_(std::get<bool>(params.at("revolution"))),
      grids_(width_, height_) {}

ObservationShape KlopodavkaGame::observation_shape() const {
  return {5 * players_ + submoves_ + 4, height_, width_};
}

int KlopodavkaGame::max_game_length() const {
  // A turn is at most `submoves` steps; every sub-move moves a cell along empty -> live ->
  // killed, and a pass is a turn of one step.
  return std::min(max_turns_ * submoves_, 2 * cells() + max_turns_);
}

std::unique_ptr<State> KlopodavkaGame::new_initial_state() const { return KlopodavkaState::initial(*this); }

GameSpec klopodavka_spec() {
  std::vector<ParamSpec> specs = slot_board_params(1000);
  specs.push_back({"submoves", std::int64_t{5}, "sub-moves per turn, 1..20"});
  specs.push_back({"revolution", true, "a ring of 8 own bugs around an empty cell may crown a new main bug there"});
  GameSpec spec{"klopodavka",
                "Klopodavka: Virus War for 2 to 6 players, each defending its main bug; the last one left wins",
                std::move(specs),
                [](const GameParameters& given) -> std::shared_ptr<const Game> {
                  GameParameters params = given;
                  resolve_slot_board("klopodavka", params);
                  const auto submoves = std::get<std::int64_t>(params.at("submoves"));
                  if (submoves < 1 || submoves > KlopodavkaGame::kMaxSubMoves)
                    throw GameParameterError("klopodavka: submoves must be 1..20, got " + std::to_string(submoves));
                  return std::make_shared<KlopodavkaGame>(params);
                },
                {"players=2,width=10,height=10", "players=3,width=11,height=11", "players=4,width=10,height=10",
                 "players=5,width=13,height=9,revolution=false,submoves=3", "players=6,width=11,height=9"},
                // 4 players on 20×20 make the conformance suite's thousand random games take minutes:
                // the presets cover every player count on small boards, klopodavka_test the defaults.
                false};
  spec.heuristic = make_klopodavka_heuristic;
  return spec;
}

}  // namespace boardlab
