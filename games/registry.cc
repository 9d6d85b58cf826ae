// The registry: adding a game means one line in registered_games().
#include "games/registry.h"

#include "core/errors.h"
#include "core/text.h"
#include "games/biased_rps/biased_rps.h"
#include "games/klopodavka/klopodavka.h"
#include "games/kuhn_poker/kuhn_poker.h"
#include "games/leduc_poker/leduc_poker.h"
#include "games/morabaraba/morabaraba.h"
#include "games/squares/squares.h"
#include "games/stratego/stratego.h"
#include "games/virus_war/virus_war.h"
#include "games/war/war.h"

namespace boardlab {

const std::vector<GameSpec>& registered_games() {
  static const std::vector<GameSpec> kGames = {
      virus_war_spec(),
      morabaraba_spec(),
      squares_spec(),
      klopodavka_spec(),
      stratego_spec(),
      war_spec(),
      kuhn_poker_spec(),
      leduc_poker_spec(),
      biased_rps_spec(),
  };
  return kGames;
}

const GameSpec& find_game(std::string_view name) {
  for (const auto& spec : registered_games())
    if (spec.name == name) return spec;
  std::string known;
  for (const auto& spec : registered_games()) known += (known.empty() ? "" : ", ") + spec.name;
  throw GameParameterError("unknown game " + quote_input(name) + " (known games: " + known + ")");
}

std::shared_ptr<const Game> load_game(std::string_view name, const GameParameters& params) {
  const GameSpec& spec = find_game(name);
  return spec.make(resolve_parameters(spec.name, spec.params, params));
}

std::shared_ptr<const Game> load_game(std::string_view text) {
  const GameString parsed = parse_game_string(text);
  GameParameters params;
  for (const auto& [key, value] : parsed.params) params[key] = value;  // typed by resolve_parameters
  return load_game(parsed.name, params);
}

}  // namespace boardlab
