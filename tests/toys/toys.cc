// The list of toy games and their loader.
#include "tests/toys/toys.h"

#include "core/errors.h"

namespace boardlab {

const std::vector<GameSpec>& toy_games() {
  static const std::vector<GameSpec> kToys = {toy_race_spec()};
  return kToys;
}

std::shared_ptr<const Game> load_toy(std::string_view text) {
  const GameString parsed = parse_game_string(text);
  for (const GameSpec& spec : toy_games()) {
    if (spec.name != parsed.name) continue;
    GameParameters given;
    for (const auto& [key, value] : parsed.params) given[key] = value;
    return spec.make(resolve_parameters(spec.name, spec.params, given));
  }
  throw GameParameterError("unknown toy game '" + parsed.name + "'");
}

}  // namespace boardlab
