// The catalog of games for the conformance suite and the golden playthroughs.
#include "tests/conformance/game_catalog.h"

#include "games/registry.h"
#include "tests/toys/toys.h"

namespace boardlab {

std::string identifier(const std::string& game_string) {
  std::string out;
  for (char c : game_string) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (word) out += c;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

const std::vector<CatalogGame>& catalog_games() {
  static const std::vector<CatalogGame> kGames = [] {
    std::vector<CatalogGame> out;
    const std::string source = BOARDLAB_SOURCE_DIR;
    const auto add = [&](const GameSpec& spec, bool toy) {
      std::vector<std::string> strings;
      if (spec.suites_play_defaults) strings.push_back(spec.name);
      for (const std::string& preset : spec.presets) strings.push_back(spec.name + "(" + preset + ")");
      for (const std::string& text : strings) {
        auto game = toy ? load_toy(text) : load_game(text);
        const std::string folder = toy ? source + "/tests/toys/playthroughs/" : source + "/games/" + spec.name + "/playthroughs/";
        out.push_back({game->to_string(), std::move(game), folder + identifier(text) + ".txt"});
      }
    };
    for (const GameSpec& spec : registered_games()) add(spec, false);
    for (const GameSpec& spec : toy_games()) add(spec, true);
    return out;
  }();
  return kGames;
}

}  // namespace boardlab
