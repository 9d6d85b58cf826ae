// A game's rating ladder: reference players rated once from a large round robin, stored with the game, so every evaluation is in the same units.
//
// A rating fitted from one evaluation's games is anchored at its weakest opponent: once the
// network beats `random` every game, only the prior moves it and the line goes flat. Rated
// against a ladder instead, the network's rating is fitted with the rungs' stored ratings held
// (fit_rankings_held), so it keeps rising as long as the ladder's top is stronger than it.
//
// The ladders of game NAME live in games/NAME/ladder.yaml, one entry per rules string (the
// variants and player counts of one game have ladders of their own, what its players observe
// does not change its ladder); `boardlab ladder`
// rebuilds an entry and reports its intervals.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "arena/arena.h"
#include "arena/ratings.h"
#include "core/game.h"

namespace boardlab {

// The most rungs a ladder holds: a round robin of more would take days on a workstation.
inline constexpr int kMaxLadderRungs = 32;

struct LadderRung {
  std::string player;  // a player spec (arena/player_spec.h), in canonical form
  double elo = 0;      // random (or the ladder's anchor) = 0
  double low = 0, high = 0;  // its 95% interval in the round robin that built the ladder
  int games = 0;             // games it played there
};

struct Ladder {
  std::string game;                // the game's rules string (Game::rules_string: its observation parameters left out)
  std::vector<LadderRung> rungs;   // weakest first
  int games_per_group = 0;         // how the round robin was played
  int opening_turns = 0;           // random opening turns of every game (evaluations use the same)
  std::uint64_t seed = 0;
  double seconds = 0;              // what the round robin cost on the machine that built it
  std::string built;               // when and how: "2026-12-04, 2 threads"

  // The rung playing as `player` (any spelling of the same spec), or -1.
  int find(std::string_view player) const;
  // `count` rungs around a rating `elo`, weakest first, skipping those in `skip` (player specs):
  // the nearest at or above it, the nearest below, the next above, ... so that an evaluation
  // brackets the rating and, since a rating climbs, leans upwards.
  std::vector<std::string> around(double elo, int count, std::span<const std::string> skip = {}) const;
};

// Where game `game_name`'s ladders are kept: $BOARDLAB_GAMES_DIR/NAME/ladder.yaml when that
// variable is set (tests, a checkout elsewhere), else the source tree's games/NAME/ladder.yaml.
std::string ladder_file(std::string_view game_name);

// Every ladder in a file (none if the file does not exist). A malformed file throws
// InputError naming the file, the entry and what is wrong.
std::vector<Ladder> read_ladders(const std::string& path);

// The stored ladder of `game` (matched by its rules string), if it has one.
std::optional<Ladder> find_ladder(const Game& game);

// Writes `ladder` into `path` atomically (making its folder if need be), replacing the entry
// of the same game string and keeping the others; the file's text is stable (rungs weakest first, fixed precision), so
// that a rebuilt ladder shows as a readable diff.
void store_ladder(const std::string& path, const Ladder& ladder);

// The ladder's YAML text for a list of ladders (what store_ladder writes).
std::string ladders_yaml(std::string_view game_name, const std::vector<Ladder>& ladders);

// Ratings of `players` from `rankings` (indices into `players`), every player that is a rung
// of `ladder` held at its stored rating, the others fitted: the units of the ladder.
EloFit rate_on_ladder(const Ladder& ladder, const std::vector<std::string>& players,
                      const std::vector<Ranking>& rankings, double prior_draws = 1.0);
// The same for an arena's players and games: each game's ranking by its returns.
EloFit rate_on_ladder(const Ladder& ladder, const ArenaReport& report, double prior_draws = 1.0);

}  // namespace boardlab
