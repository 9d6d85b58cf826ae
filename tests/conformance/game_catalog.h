// Every game the shared suites cover: each registered game and toy, with its defaults (unless it opts out) and each of its presets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/game.h"

namespace boardlab {

struct CatalogGame {
  std::string game_string;  // "virus_war(strict=true)"
  std::shared_ptr<const Game> game;
  // The golden playthrough file, in the game's folder (toys: tests/toys/playthroughs/).
  std::string playthrough_path;
};

// Registered games first, then the toys; a game registered tomorrow is covered by adding
// its registry line.
const std::vector<CatalogGame>& catalog_games();

// "virus_war(strict=true)" → "virus_war_strict_true", for test and file names.
std::string identifier(const std::string& game_string);

}  // namespace boardlab
