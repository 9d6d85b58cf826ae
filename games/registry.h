// Makes any registered game from its name and parameters: the one list of all games.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"

namespace boardlab {

// Every game, in the order `boardlab games` lists them.
const std::vector<GameSpec>& registered_games();
const GameSpec& find_game(std::string_view name);

// "virus_war" or "virus_war(strict=true)". Unknown games and parameters, and values of
// the wrong type, throw GameParameterError naming them.
std::shared_ptr<const Game> load_game(std::string_view game_string);
std::shared_ptr<const Game> load_game(std::string_view name, const GameParameters& params);

}  // namespace boardlab
