// Reading, writing and rating against a game's stored ladder.
#include "arena/ladder.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "arena/player_spec.h"
#include "core/errors.h"
#include "core/source_tree.h"
#include "core/text.h"
#include "files/atomic_file.h"
#include "files/read_file.h"

namespace boardlab {
namespace {

// A ladder file is a few rungs per variant: anything larger is not one.
constexpr std::size_t kMaxLadderFileBytes = std::size_t{1} << 20;

std::string canonical_spec(std::string_view text) { return player_spec_string(parse_player_spec(text)); }

std::string fixed(double value, int digits) {
  char text[48];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

// A YAML double-quoted scalar: specs hold commas, colons and parentheses.
std::string yaml_quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

template <class T>
T field(const YAML::Node& entry, const char* key, const std::string& where) {
  const YAML::Node node = entry[key];
  if (!node) throw InputError(where + ": no '" + key + "'");
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    throw InputError(where + ": '" + key + "' is not a valid value");
  }
}

LadderRung read_rung(const YAML::Node& node, const std::string& where) {
  if (!node.IsMap()) throw InputError(where + ": a rung is a mapping of player, elo, low, high, games");
  LadderRung rung;
  try {
    rung.player = canonical_spec(field<std::string>(node, "player", where));
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  rung.elo = field<double>(node, "elo", where);
  rung.low = field<double>(node, "low", where);
  rung.high = field<double>(node, "high", where);
  rung.games = field<int>(node, "games", where);
  if (!std::isfinite(rung.elo) || !std::isfinite(rung.low) || !std::isfinite(rung.high) || rung.games < 0)
    throw InputError(where + ": rung " + quote_input(rung.player) + " has a rating that is not a finite number");
  return rung;
}

Ladder read_entry(const YAML::Node& node, const std::string& where) {
  if (!node.IsMap()) throw InputError(where + ": a ladder is a mapping with game, rungs, ...");
  Ladder ladder;
  ladder.game = field<std::string>(node, "game", where);
  const std::string at = where + " (" + ladder.game + ")";
  ladder.games_per_group = field<int>(node, "games_per_group", at);
  ladder.opening_turns = field<int>(node, "opening_turns", at);
  ladder.seed = field<std::uint64_t>(node, "seed", at);
  ladder.seconds = field<double>(node, "seconds", at);
  ladder.built = node["built"] ? field<std::string>(node, "built", at) : "";
  const YAML::Node rungs = node["rungs"];
  if (!rungs || !rungs.IsSequence() || rungs.size() < 2)
    throw InputError(at + ": 'rungs' must list at least two players");
  if (rungs.size() > static_cast<std::size_t>(kMaxLadderRungs))
    throw InputError(at + ": " + std::to_string(rungs.size()) + " rungs; a ladder holds at most " +
                     std::to_string(kMaxLadderRungs));
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    LadderRung rung = read_rung(rungs[i], at + ", rung " + std::to_string(i + 1));
    if (ladder.find(rung.player) >= 0) throw InputError(at + ": " + quote_input(rung.player) + " is two rungs");
    ladder.rungs.push_back(std::move(rung));
  }
  std::stable_sort(ladder.rungs.begin(), ladder.rungs.end(),
                   [](const LadderRung& a, const LadderRung& b) { return a.elo < b.elo; });
  return ladder;
}

}  // namespace

int Ladder::find(std::string_view player) const {
  std::string canonical;
  try {
    canonical = canonical_spec(player);
  } catch (const InputError&) {
    return -1;  // not a spec at all, so no rung's
  }
  for (std::size_t i = 0; i < rungs.size(); ++i)
    if (rungs[i].player == canonical) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> Ladder::around(double elo, int count, std::span<const std::string> skip) const {
  std::vector<int> above, below;  // nearest first
  for (std::size_t i = 0; i < rungs.size(); ++i) {
    const bool skipped = std::any_of(skip.begin(), skip.end(), [&](const std::string& s) {
      return find(s) == static_cast<int>(i);
    });
    if (!skipped) (rungs[i].elo >= elo ? above : below).push_back(static_cast<int>(i));
  }
  std::reverse(below.begin(), below.end());
  std::vector<int> chosen;
  for (std::size_t k = 0; static_cast<int>(chosen.size()) < count && k < std::max(above.size(), below.size()); ++k) {
    if (k < above.size()) chosen.push_back(above[k]);
    if (k < below.size() && static_cast<int>(chosen.size()) < count) chosen.push_back(below[k]);
  }
  std::sort(chosen.begin(), chosen.end());
  std::vector<std::string> out;
  for (int i : chosen) out.push_back(rungs[i].player);
  return out;
}

std::string ladder_file(std::string_view game_name) {
  const char* dir = std::getenv("BOARDLAB_GAMES_DIR");
  const std::string root = dir && *dir ? dir : games_source_dir();
  return root + "/" + std::string(game_name) + "/ladder.yaml";
}

std::vector<Ladder> read_ladders(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return {};
  const std::string text = read_file(path, kMaxLadderFileBytes, "ladder file");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError("ladder file " + quote_input(path) + ": not YAML (" + e.msg + " at line " +
                     std::to_string(e.mark.line + 1) + ")");
  }
  if (root.IsNull()) return {};
  if (!root.IsSequence()) throw InputError("ladder file " + quote_input(path) + ": must be a list of ladders");
  std::vector<Ladder> out;
  for (std::size_t i = 0; i < root.size(); ++i) {
    Ladder ladder = read_entry(root[i], "ladder file " + quote_input(path) + ", entry " + std::to_string(i + 1));
    for (const Ladder& other : out)
      if (other.game == ladder.game)
        throw InputError("ladder file " + quote_input(path) + ": two ladders of " + ladder.game);
    out.push_back(std::move(ladder));
  }
  return out;
}

std::optional<Ladder> find_ladder(const Game& game) {
  const std::string game_string = game.rules_string();
  for (Ladder& ladder : read_ladders(ladder_file(game.name())))
    if (ladder.game == game_string) return std::move(ladder);
  return std::nullopt;
}

std::string ladders_yaml(std::string_view game_name, const std::vector<Ladder>& ladders) {
  std::string out = "# The rating ladders of " + std::string(game_name) +
                    ": reference players rated once from a round robin (arena/ladder.h).\n"
                    "# Rebuilt by `boardlab ladder GAME --write`. Elo, random = 0, with 95% intervals.\n";
  for (const Ladder& ladder : ladders) {
    out += "- game: " + yaml_quoted(ladder.game) + "\n";
    out += "  games_per_group: " + std::to_string(ladder.games_per_group) + "\n";
    out += "  opening_turns: " + std::to_string(ladder.opening_turns) + "\n";
    out += "  seed: " + std::to_string(ladder.seed) + "\n";
    out += "  seconds: " + fixed(ladder.seconds, 0) + "\n";
    out += "  built: " + yaml_quoted(ladder.built) + "\n";
    out += "  rungs:\n";
    for (const LadderRung& r : ladder.rungs)
      out += "    - {player: " + yaml_quoted(r.player) + ", elo: " + fixed(r.elo, 1) + ", low: " + fixed(r.low, 1) +
             ", high: " + fixed(r.high, 1) + ", games: " + std::to_string(r.games) + "}\n";
  }
  return out;
}

void store_ladder(const std::string& path, const Ladder& ladder) {
  if (ladder.rungs.size() < 2) throw InputError("store_ladder: a ladder needs at least two rungs");
  std::vector<Ladder> ladders = read_ladders(path);
  Ladder sorted = ladder;
  std::stable_sort(sorted.rungs.begin(), sorted.rungs.end(),
                   [](const LadderRung& a, const LadderRung& b) { return a.elo < b.elo; });
  auto same = std::find_if(ladders.begin(), ladders.end(), [&](const Ladder& l) { return l.game == ladder.game; });
  if (same != ladders.end()) *same = std::move(sorted);
  else ladders.push_back(std::move(sorted));
  // A games folder of one's own (BOARDLAB_GAMES_DIR) may not hold the game's folder yet.
  std::error_code ignored;  // a folder that cannot be made shows as the write's error below
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ignored);
  write_file_atomically(path, ladders_yaml(ladder.game.substr(0, ladder.game.find('(')), ladders));
}

EloFit rate_on_ladder(const Ladder& ladder, const std::vector<std::string>& players,
                      const std::vector<Ranking>& rankings, double prior_draws) {
  std::vector<double> held(players.size(), std::numeric_limits<double>::quiet_NaN());
  bool any = false;
  for (std::size_t p = 0; p < players.size(); ++p)
    if (const int rung = ladder.find(players[p]); rung >= 0) {
      held[p] = ladder.rungs[rung].elo;
      any = true;
    }
  if (!any) throw InputError("rate_on_ladder: no player is a rung of " + ladder.game + "'s ladder");
  return fit_rankings_held(static_cast<int>(players.size()), rankings, held, prior_draws);
}

EloFit rate_on_ladder(const Ladder& ladder, const ArenaReport& report, double prior_draws) {
  return rate_on_ladder(ladder, report.players, report.outcomes(), prior_draws);
}

}  // namespace boardlab
