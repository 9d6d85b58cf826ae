// The arena: many games between players on all cores, with fair seating, results and Elo.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/bot.h"
#include "core/elo.h"
#include "core/game.h"

namespace boardlab {

struct ArenaProgress {
  int done = 0;
  int total = 0;
  double seconds = 0;
  double games_per_second() const { return seconds > 0 ? done / seconds : 0; }
  double eta_seconds() const { return done > 0 ? seconds * (total - done) / done : 0; }
};

struct ArenaOptions {
  int games = 100;  // games per group of players (a pairing, for two-player games)
  // Uniformly random turns (State::move_number) that open each game, so that deterministic
  // players still play different games; every seat permutation of a group replays the same
  // opening.
  int opening_turns = 2;
  int threads = 0;  // 0: every core
  std::uint64_t seed = 0;
  double prior_draws = 1.0;  // see fit_elo
  int anchor = 0;            // the player rated 0
  std::function<void(const ArenaProgress&)> progress;  // called after each game, from one thread at a time
};

struct ArenaGame {
  int group = 0;
  std::vector<int> seats;  // seats[s]: the player (index into the player list) in seat s
  std::vector<double> returns;  // per seat
  int length = 0;
  std::string record;
};

// Player a's results against player b over every game where both took part.
struct Pairing {
  int a = 0, b = 0;
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  double score() const { return games() > 0 ? (wins + 0.5 * draws) / games() : 0; }
};

struct ArenaReport {
  std::string game;
  std::vector<std::string> players;
  std::vector<ArenaGame> games;
  std::vector<Pairing> pairings;
  EloFit elo;
  double seconds = 0;

  std::string table() const;          // for people
  std::string json() const;           // everything but the records
  std::string elo_csv() const;        // player,elo,stderr,low,high
  std::string pairings_csv() const;   // a,b,wins,draws,losses,score
  std::string records() const;        // one game per line: seats then the record
};

// The player to rate 0: "random" when it plays (a fixed, familiar yardstick), else the first.
int default_anchor(const std::vector<std::string>& players);

// Groups of players that meet: every combination of `seats` players (round robin), or
// `focus` with every combination of the others (one player against several).
std::vector<std::vector<int>> round_robin_groups(int num_players, int seats);
std::vector<std::vector<int>> focus_groups(int focus, int num_players, int seats);

// Plays options.games games per group, cycling through every seat permutation of the
// group, in parallel. Bots are made per game from `factory` with seeds derived from the
// game's index, so results do not depend on the thread count.
ArenaReport run_arena(const Game& game, const std::vector<std::string>& players,
                      const std::vector<std::vector<int>>& groups, const BotFactory& factory,
                      const ArenaOptions& options);

}  // namespace boardlab
