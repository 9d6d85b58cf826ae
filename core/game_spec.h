// What the registry knows of a game: its name, what it is, its parameters and a factory.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/bot.h"
#include "core/game.h"
#include "core/game_parameters.h"

namespace boardlab {

struct GameSpec {
  std::string name;
  std::string description;
  std::vector<ParamSpec> params;
  // Receives every parameter (defaults filled in, types checked); may still throw
  // GameParameterError for a value out of range.
  std::function<std::shared_ptr<const Game>(const GameParameters&)> make;
  // Parameter settings worth checking besides the defaults ("strict=true"): the conformance
  // suite and the golden playthroughs cover each of them.
  std::vector<std::string> presets;
  // Whether the shared suites (conformance, golden playthroughs) also play the defaults. A
  // game whose default board makes their thousand random games take minutes says false,
  // covers its player counts and options with presets on small boards, and plays its
  // defaults in its own tests.
  bool suites_play_defaults = true;
  // The game's heuristic reference player (the `heuristic` player kind), written from its rule
  // file for the rating ladder where rollout UCT is weak; empty for a game without one. Made
  // for a game of this spec (any parameters), seeded: the same seed and views, the same actions.
  std::function<std::unique_ptr<Bot>(const Game&, std::uint64_t seed)> heuristic{};
};

}  // namespace boardlab
