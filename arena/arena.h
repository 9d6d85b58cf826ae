// The arena: many games between players on all cores, with fair seating, results and ratings from whole rankings.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "arena/ratings.h"
#include "core/bot.h"
#include "core/game.h"

namespace boardlab {

struct ArenaProgress {
  int done = 0;
  int total = 0;
  double seconds = 0;
  double games_per_second() const { return seconds > 0 ? done / seconds : 0; }
  double eta_seconds() const { return done > 0 ? seconds * (total - done) / done : 0; }
};

// The most games one arena schedules (games per group × groups) and the most threads it
// starts: the schedule is built up front, and a typo of a few zeros should not allocate
// gigabytes or start a million threads before the first game.
inline constexpr int kMaxArenaGames = 1'000'000;
inline constexpr int kMaxArenaThreads = 1024;

struct ArenaOptions {
  // Games per group of players (a pairing, for two-player games); a multiple of the number of
  // seats gives every player every seat equally often.
  int games = 100;
  // Uniformly random turns (State::move_number) that open each game; empty: the game's own
  // (GameTraits::arena_opening_turns). The n games of one rotation of seats (see seat_orders)
  // replay the same opening and the same chance draws.
  std::optional<int> opening_turns;
  int threads = 0;  // 0: every core
  std::uint64_t seed = 0;
  double prior_draws = 1.0;  // see fit_rankings
  int anchor = 0;            // the player rated 0
  // Seconds after which no game goes on (0: no limit): the report then holds the games
  // finished by then, as after a stop request.
  double max_seconds = 0;
  std::function<void(const ArenaProgress&)> progress;  // called after each game, from one thread at a time
};

struct ArenaGame {
  int group = 0;
  std::vector<int> seats;       // seats[s]: the player (index into the player list) in seat s
  std::vector<double> returns;  // per seat
  // Ended by a cap that is not a rule (State::is_truncated): ranked by the returns the game
  // gives an undecided game (a draw, as a rule), and counted in the report.
  bool truncated = false;
  int length = 0;
  std::string record;
  // Per seat: the moves its bot chose (act() calls; a sub-move is one, each seat's choice in a
  // simultaneous round is one) and the wall-clock seconds they took.
  std::vector<int> moves;
  std::vector<double> think_seconds;
};

// Player a's results against player b over every game where both took part: in a game of
// n players every pair of them is one result, the higher return winning. `points` is a's score
// summed over them: 1, 1/2 and 0 for a win, a draw and a loss, or in a two-player game the
// pair_score of its returns (arena/ratings.h), so a poker player's score counts chips.
// In a two-player game, `games_first` and `points_first` are a's games and points in the first
// seat (the rest in the second): a first player's advantage shows as a gap between the two.
struct Pairing {
  int a = 0, b = 0;
  int wins = 0, draws = 0, losses = 0;
  double points = 0;
  int games_first = 0;
  double points_first = 0;
  int games() const { return wins + draws + losses; }
  double score() const { return games() > 0 ? points / games() : 0; }
  // a's score in the first seat and in the second; NaN without such games (every game of more than two players).
  double score_first() const;
  double score_second() const;
};

// One player's games: how many, how many truncated, its mean return and its mean place
// (1 first, n last; tied players share the mean of the places they span); the means are NaN
// for a player with no games (an arena stopped before it played).
// Its moves and their wall-clock seconds put players at equal time: a network at 32
// simulations beside uct:1000's random playouts (games on other threads share the cores).
struct Standing {
  int games = 0;
  int truncated = 0;
  double mean_return = 0;
  double mean_rank = 0;
  std::int64_t moves = 0;
  double think_seconds = 0;
  // Milliseconds a move, NaN without moves.
  double ms_per_move() const;
};

struct ArenaReport {
  std::string game;
  int seats = 0;  // players per game
  std::vector<std::string> players;
  std::vector<ArenaGame> games;  // the games played to their end, in schedule order
  int planned = 0;               // the games scheduled
  // A stop request (core/stop.h) or max_seconds ended the arena early: `games` holds only
  // the games that finished, and their seats may be unevenly shared.
  bool stopped = false;
  std::vector<Pairing> pairings;    // pairs that met, a < b
  std::vector<Standing> standings;  // per player
  int truncated = 0;                // games ended by a cap
  // What a two-player game's score is a fraction of: the game's max_return − min_return.
  double return_span = 2;
  // Ratings of every game's outcomes (outcomes()) on the Elo scale (fit_rankings); for
  // two-player games exactly Elo of the pairings' scores. In a game of more players they rate
  // who finished ahead of whom, not by how much: margins show in the standings' mean return.
  EloFit elo;
  double seconds = 0;

  // The forms of the report. A number that does not exist (the rating of a player no game
  // links to the anchor, the means of a player with no games: NaN here) is "no games" (or
  // "unrated") in the table, null in the JSON and an empty field in the CSV files.
  std::string table() const;          // for people: pairings, then per player games, mean return, mean rank, ms a move, Elo
  std::string json() const;           // everything but the records
  std::string elo_csv() const;        // player,elo,stderr,low,high
  std::string pairings_csv() const;   // a,b,wins,draws,losses,score
  std::string standings_csv() const;  // player,games,mean_return,mean_rank,truncated,ms_per_move
  std::string records() const;        // one game per line: [seats] [returns] record
  // What the games add to a rating fit (append_outcomes, arena/ratings.h): the one reading of
  // a result that the report's own ratings and a ladder's rating share.
  std::vector<Ranking> outcomes() const;
};

// The player to rate 0: "random" when it plays (a fixed, familiar yardstick), else the first.
int default_anchor(const std::vector<std::string>& players);

// Groups of players that meet: every combination of `seats` players (round robin), or
// `focus` with every combination of the others (one player against several).
std::vector<std::vector<int>> round_robin_groups(int num_players, int seats);
std::vector<std::vector<int>> focus_groups(int focus, int num_players, int seats);

// The seat orders a group plays in, in the order the arena cycles through them: every one
// of the n! permutations once, as (n−1)! rotations of n orders each — every player in every
// seat once per rotation — so any n consecutive games seat everyone fairly even when n! is
// more than the games played (720 orders for 6 players).
std::vector<std::vector<int>> seat_orders(const std::vector<int>& group);

// Plays options.games games per group, game k of a group in seat order k mod n! of
// seat_orders, the n games of one rotation sharing an opening, in parallel. Bots see
// PlayerViews, never the state. Bots are made per game from `factory` with seeds derived
// from the game's index, so results do not depend on the thread count. A stop request
// (core/stop.h) or options.max_seconds ends it within a move of each game in play; the
// report then holds the games that finished.
ArenaReport run_arena(const Game& game, const std::vector<std::string>& players,
                      const std::vector<std::vector<int>>& groups, const BotFactory& factory,
                      const ArenaOptions& options);

}  // namespace boardlab
