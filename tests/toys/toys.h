// Tiny games registered in tests only, for the kinds of game no registered game is small enough to answer exactly.
//
// - toy_race: 3 players (2..4), turns of one or two sub-moves, rank returns.
// The other kinds have registered benchmark games with exact answers: biased_rps
// (simultaneous moves, games/biased_rps/) and kuhn_poker (hidden cards dealt by chance,
// games/kuhn_poker/).
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"

namespace boardlab {

const std::vector<GameSpec>& toy_games();
// "toy_race(tokens=5)" and the like; unknown names throw GameParameterError.
std::shared_ptr<const Game> load_toy(std::string_view game_string);

GameSpec toy_race_spec();

}  // namespace boardlab
