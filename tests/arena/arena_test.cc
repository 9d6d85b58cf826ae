// Tests for the arena: player groups, fair seating, thread-independent results, reports and early errors, on Virus War.
#include "arena/arena.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "arena/elo.h"
#include "core/errors.h"
#include "games/registry.h"
#include "mcts/bots.h"

namespace boardlab {
namespace {

const Game& game() {
  static const auto loaded = load_game("virus_war");
  return *loaded;
}

ArenaOptions options(int games, int threads, std::uint64_t seed = 1) {
  ArenaOptions o;
  o.games = games;
  o.threads = threads;
  o.seed = seed;
  return o;
}

// The first turn of a record ("a1-b2-c3 ..."), where the random opening lies.
std::string first_turn(const std::string& record) { return record.substr(0, record.find(' ')); }

// Splits one line of RFC 4180 CSV into fields.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += line[++i];
      else if (c == '"') quoted = false;
      else out.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    out.push_back(text.substr(start, end - start));
  return out;
}

TEST(ArenaGroups, RoundRobinAndFocus) {
  using Groups = std::vector<std::vector<int>>;
  EXPECT_EQ(round_robin_groups(4, 2), (Groups{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}));
  EXPECT_EQ(round_robin_groups(4, 3), (Groups{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}));
  EXPECT_EQ(round_robin_groups(2, 2), (Groups{{0, 1}}));
  EXPECT_EQ(round_robin_groups(6, 3).size(), 20u);
  EXPECT_EQ(focus_groups(2, 4, 2), (Groups{{0, 2}, {1, 2}, {2, 3}}));
  EXPECT_EQ(focus_groups(0, 4, 3), (Groups{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}}));
  EXPECT_EQ(focus_groups(1, 2, 2), (Groups{{0, 1}}));
  try {
    round_robin_groups(1, 2);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "arena: 2-player game needs at least 2 players, got 1; each entry of the list is one player, so "
                 "list a baseline more than once to fill seats with copies of it (random,random,random)");
  }
}

TEST(Arena, RandomAgainstRandomIsFairAndSeatsAlternate) {
  // Both players are the same random player, so the score must be 50% up to noise: any
  // seat bias in scheduling or scoring would show. 4000 games take about 0.25 s (Release).
  constexpr int kGames = 4000;
  const auto start = std::chrono::steady_clock::now();
  const ArenaReport report = run_arena(game(), {"random", "random"}, {{0, 1}}, make_search_bot, options(kGames, 2, 77));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d random games in %.2f s\n", kGames, seconds);
  ASSERT_EQ(report.games.size(), static_cast<std::size_t>(kGames));
  ASSERT_EQ(report.pairings.size(), 1u);
  const Pairing& p = report.pairings[0];
  EXPECT_EQ(p.games(), kGames);
  // Standard error of a score is at most 0.5 / sqrt(games).
  EXPECT_LT(std::abs(p.score() - 0.5), 4 * 0.5 / std::sqrt(kGames)) << p.wins << "/" << p.draws << "/" << p.losses;
  EXPECT_EQ(p.points, p.wins + 0.5 * p.draws);  // a game won, drawn or lost scores 1, 1/2 or 0
  // Half the games in each seat; the two seats' scores average to the whole.
  EXPECT_EQ(p.games_first, kGames / 2);
  EXPECT_NEAR((p.score_first() + p.score_second()) / 2, p.score(), 1e-12);
  EXPECT_NE(report.table().find("as 1st"), std::string::npos);
  EXPECT_NE(report.json().find("\"score_first\": "), std::string::npos);
  EXPECT_EQ(report.table().find("share of the stakes"), std::string::npos);
  int player0_first = 0, decided = 0;
  for (int k = 0; k < kGames; ++k) {
    const ArenaGame& g = report.games[k];
    ASSERT_EQ(g.seats.size(), 2u);
    // Game k: seats alternate, and games 2j and 2j+1 replay the same opening.
    EXPECT_EQ(g.seats, k % 2 == 0 ? (std::vector<int>{0, 1}) : (std::vector<int>{1, 0}));
    if (k % 2 == 1) {
      EXPECT_EQ(first_turn(g.record), first_turn(report.games[k - 1].record)) << k;
    }
    player0_first += g.seats[0] == 0;
    ASSERT_EQ(g.returns.size(), 2u);
    EXPECT_EQ(g.returns[0] + g.returns[1], 0.0);
    decided += g.returns[0] != 0;
    EXPECT_GT(g.length, 3);
    EXPECT_EQ(g.group, 0);
  }
  EXPECT_EQ(player0_first, kGames / 2);
  // Different openings for different game pairs.
  std::set<std::string> openings;
  for (const ArenaGame& g : report.games) openings.insert(first_turn(g.record));
  EXPECT_GT(openings.size(), 5u);
  // The pairing is what the game returns say, counted from player 0's side.
  int wins = 0, losses = 0;
  for (const ArenaGame& g : report.games) {
    const double mine = g.seats[0] == 0 ? g.returns[0] : g.returns[1];
    wins += mine > 0;
    losses += mine < 0;
  }
  EXPECT_EQ(p.wins, wins);
  EXPECT_EQ(p.losses, losses);
  EXPECT_EQ(p.draws, kGames - wins - losses);
  EXPECT_GT(decided, 0);
  // The Elo of identical players is 0 within its interval.
  EXPECT_EQ(report.elo.elo[0], 0.0);
  EXPECT_LT(report.elo.low[1], 0.0);
  EXPECT_GT(report.elo.high[1], 0.0);
  // Standings: with returns of ±1 or 0, place 1 for a win, 2 for a loss, 1.5 for a draw.
  ASSERT_EQ(report.standings.size(), 2u);
  for (int player = 0; player < 2; ++player) {
    const Standing& st = report.standings[player];
    EXPECT_EQ(st.games, kGames);
    EXPECT_EQ(st.truncated, 0);
    EXPECT_NEAR(st.mean_rank, 1.5 - st.mean_return / 2, 1e-12);
  }
  EXPECT_NEAR(report.standings[0].mean_return, static_cast<double>(wins - losses) / kGames, 1e-12);
  EXPECT_EQ(report.truncated, 0);
}

TEST(ArenaGroups, SeatOrdersCycleEveryPermutationInRotations) {
  EXPECT_EQ(seat_orders({0, 1}), (std::vector<std::vector<int>>{{0, 1}, {1, 0}}));
  EXPECT_EQ(seat_orders({4, 1, 2}), (std::vector<std::vector<int>>{{4, 1, 2}, {2, 4, 1}, {1, 2, 4}, {4, 2, 1}, {1, 4, 2}, {2, 1, 4}}));
  int factorial = 1;
  for (int n = 1; n <= 6; ++n) {
    factorial *= n;
    std::vector<int> group;
    for (int i = 0; i < n; ++i) group.push_back(10 * i + 3);
    const auto orders = seat_orders(group);
    ASSERT_EQ(static_cast<int>(orders.size()), factorial);
    EXPECT_EQ(std::set<std::vector<int>>(orders.begin(), orders.end()).size(), orders.size()) << n;
    // Every n consecutive orders from a rotation's start seat every player once in every seat.
    for (std::size_t start = 0; start < orders.size(); start += n)
      for (int seat = 0; seat < n; ++seat) {
        std::set<int> seated;
        for (int k = 0; k < n; ++k) seated.insert(orders[start + k][seat]);
        EXPECT_EQ(seated, std::set<int>(group.begin(), group.end())) << n << " " << start << " " << seat;
      }
  }
}

TEST(Arena, TwoPlayerRatingsAreTheEloOfThePairings) {
  // Ratings come from each game's ranking; with two players that is exactly fit_elo.
  const std::vector<std::string> players = {"uct:4", "random", "uct:12"};
  const ArenaReport report = run_arena(game(), players, round_robin_groups(3, 2), make_search_bot, options(10, 2, 4));
  std::vector<PairResult> pairs;
  for (const Pairing& p : report.pairings)
    pairs.push_back({p.a, p.b, static_cast<double>(p.wins), static_cast<double>(p.draws), static_cast<double>(p.losses)});
  const EloFit elo = fit_elo(3, pairs, 0, 1.0);
  for (int p = 0; p < 3; ++p) {
    EXPECT_NEAR(report.elo.elo[p], elo.elo[p], 1e-8) << p;
    EXPECT_NEAR(report.elo.standard_error[p], elo.standard_error[p], 1e-8) << p;
    EXPECT_EQ(report.standings[p].games, 20);
  }
}

TEST(Arena, ResultsDoNotDependOnTheThreadCount) {
  const std::vector<std::string> players = {"random", "uct:8", "mcts(algorithm=gumbel,simulations=4)"};
  const auto groups = round_robin_groups(3, 2);
  const ArenaReport one = run_arena(game(), players, groups, make_search_bot, options(4, 1, 5));
  for (int threads : {2, 3}) {
    const ArenaReport many = run_arena(game(), players, groups, make_search_bot, options(4, threads, 5));
    ASSERT_EQ(many.games.size(), one.games.size());
    for (std::size_t i = 0; i < one.games.size(); ++i) {
      EXPECT_EQ(many.games[i].group, one.games[i].group) << i;
      EXPECT_EQ(many.games[i].seats, one.games[i].seats) << i;
      EXPECT_EQ(many.games[i].returns, one.games[i].returns) << i;
      EXPECT_EQ(many.games[i].length, one.games[i].length) << i;
      EXPECT_EQ(many.games[i].record, one.games[i].record) << i;
    }
    EXPECT_EQ(many.records(), one.records());
    EXPECT_EQ(many.elo.elo, one.elo.elo);
  }
  // A different seed plays different games.
  const ArenaReport other = run_arena(game(), players, groups, make_search_bot, options(4, 2, 6));
  EXPECT_NE(other.records(), one.records());
  // Every pairing played its 4 games.
  ASSERT_EQ(one.pairings.size(), 3u);
  for (const Pairing& p : one.pairings) EXPECT_EQ(p.games(), 4);
}

// Unless told otherwise a game opens with its own number of random turns: Virus War 2,
// Squares none (a random round there decides games rather than varies them).
TEST(Arena, GamesOpenWithTheirOwnRandomTurnsUnlessTold) {
  for (const char* name : {"virus_war", "squares"}) {
    const auto g = load_game(name);
    const int own = g->traits().arena_opening_turns;
    EXPECT_EQ(own, std::string(name) == "squares" ? 0 : 2) << name;
    ArenaOptions told = options(4, 1, 3), other = options(4, 1, 3);
    told.opening_turns = own;
    other.opening_turns = own == 0 ? 2 : 0;
    const std::string by_default = run_arena(*g, {"random", "random"}, {{0, 1}}, make_search_bot, options(4, 1, 3)).records();
    EXPECT_EQ(by_default, run_arena(*g, {"random", "random"}, {{0, 1}}, make_search_bot, told).records()) << name;
    EXPECT_NE(by_default, run_arena(*g, {"random", "random"}, {{0, 1}}, make_search_bot, other).records()) << name;
  }
}

TEST(Arena, UctBeatsRandomClearly) {
  const ArenaReport report = run_arena(game(), {"random", "uct:50"}, {{0, 1}}, make_search_bot, options(20, 0, 3));
  ASSERT_EQ(report.pairings.size(), 1u);
  const Pairing& p = report.pairings[0];  // random's results against uct:50
  EXPECT_EQ(p.games(), 20);
  EXPECT_LE(p.wins + 0.5 * p.draws, 4) << report.table();
  EXPECT_GT(report.elo.elo[1], 100.0);
}

TEST(Arena, EachPlayersMovesAndTheirTimeAreCounted) {
  ArenaOptions o = options(4, 2, 5);
  o.opening_turns = 0;  // every step of a record is then a player's choice (Virus War has no chance)
  const ArenaReport report = run_arena(game(), {"random", "uct:8", "random"}, {{0, 1}}, make_search_bot, o);
  std::int64_t steps = 0;
  for (const ArenaGame& g : report.games) {
    ASSERT_EQ(g.moves.size(), 2u);
    EXPECT_EQ(g.moves[0] + g.moves[1], g.length);
    EXPECT_GT(g.moves[1], 0);
    steps += g.length;
  }
  EXPECT_EQ(report.standings[0].moves + report.standings[1].moves, steps);
  EXPECT_GT(report.standings[1].think_seconds, 0.0);  // uct's playouts take time
  EXPECT_GT(report.standings[1].ms_per_move(), 0.0);
  EXPECT_TRUE(std::isnan(report.standings[2].ms_per_move()));  // it played no game
  EXPECT_NE(report.table().find("ms/move"), std::string::npos);
  EXPECT_NE(report.json().find("\"ms_per_move\": null"), std::string::npos);
}

TEST(Arena, ReportsNameEveryPlayer) {
  // A spec with commas must survive the CSV files.
  const std::vector<std::string> players = {"random", "uct:6", "mcts(simulations=4,c_puct=2)"};
  const ArenaReport report = run_arena(game(), players, round_robin_groups(3, 2), make_search_bot, options(2, 2, 9));
  EXPECT_EQ(report.game, "virus_war(strict=false)");
  EXPECT_EQ(report.players, players);
  const std::string table = report.table();
  for (const auto& name : players) {
    EXPECT_NE(table.find(name), std::string::npos) << name;
    EXPECT_NE(report.json().find("\"name\": \"" + name + "\""), std::string::npos) << name;
  }
  EXPECT_NE(table.find("(anchor)"), std::string::npos);
  EXPECT_EQ(report.json().front(), '{');
  EXPECT_EQ(report.json().back(), '}');
  EXPECT_NE(report.json().find("\"games\": 6"), std::string::npos);

  const auto elo = lines(report.elo_csv());
  ASSERT_EQ(elo.size(), 4u);
  EXPECT_EQ(elo[0], "player,elo,stderr,low,high");
  for (std::size_t i = 0; i < players.size(); ++i) {
    const auto fields = csv_fields(elo[i + 1]);
    ASSERT_EQ(fields.size(), 5u) << elo[i + 1];
    EXPECT_EQ(fields[0], players[i]);
    EXPECT_NEAR(std::stod(fields[1]), report.elo.elo[i], 0.01);
  }
  const auto pairs = lines(report.pairings_csv());
  ASSERT_EQ(pairs.size(), 4u);
  EXPECT_EQ(pairs[0], "a,b,wins,draws,losses,score");
  for (std::size_t i = 0; i < report.pairings.size(); ++i) {
    const Pairing& p = report.pairings[i];
    const auto fields = csv_fields(pairs[i + 1]);
    ASSERT_EQ(fields.size(), 6u) << pairs[i + 1];
    EXPECT_EQ(fields[0], players[p.a]);
    EXPECT_EQ(fields[1], players[p.b]);
    EXPECT_EQ(std::stoi(fields[2]) + std::stoi(fields[3]) + std::stoi(fields[4]), 2);
  }
  const auto standings = lines(report.standings_csv());
  ASSERT_EQ(standings.size(), 4u);
  EXPECT_EQ(standings[0], "player,games,mean_return,mean_rank,truncated,ms_per_move");
  for (std::size_t i = 0; i < players.size(); ++i) {
    const auto fields = csv_fields(standings[i + 1]);
    ASSERT_EQ(fields.size(), 6u) << standings[i + 1];
    EXPECT_EQ(fields[0], players[i]);
    EXPECT_EQ(fields[1], "4");
    EXPECT_NEAR(std::stod(fields[2]), report.standings[i].mean_return, 1e-4);
    EXPECT_NEAR(std::stod(fields[3]), report.standings[i].mean_rank, 1e-4);
    EXPECT_EQ(fields[4], "0");
    EXPECT_NEAR(std::stod(fields[5]), report.standings[i].ms_per_move(), 1e-3);
  }
  EXPECT_NE(report.json().find("\"seats\": 2, \"games\": 6, \"planned\": 6, \"stopped\": false, \"truncated\": 0"), std::string::npos) << report.json();
  EXPECT_NE(table.find("mean rank"), std::string::npos);
  const auto records = lines(report.records());
  ASSERT_EQ(records.size(), 6u);
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_NE(records[i].find(report.games[i].record), std::string::npos);
    EXPECT_NE(records[i].find(players[report.games[i].seats[0]]), std::string::npos);
  }
  // The records read back as games of the same length.
  for (const ArenaGame& g : report.games)
    EXPECT_EQ(static_cast<int>(game().load_record(g.record)->history().size()), g.length);
}

TEST(Arena, BadSpecsAndOptionsFailBeforeAnyGame) {
  auto arena_error = [](const std::vector<std::string>& players, const std::vector<std::vector<int>>& groups,
                        ArenaOptions o) {
    int played = 0;
    o.progress = [&](const ArenaProgress&) { ++played; };
    std::string message = "no error";
    try {
      run_arena(game(), players, groups, make_search_bot, o);
    } catch (const InputError& e) {
      message = e.what();
    }
    EXPECT_EQ(played, 0) << message;
    return message;
  };
  EXPECT_NE(arena_error({"random", "uct:abc"}, {{0, 1}}, options(50, 2)).find("player 'uct:abc'"), std::string::npos);
  EXPECT_NE(arena_error({"random", "nope"}, {{0, 1}}, options(50, 2)).find("unknown kind 'nope'"), std::string::npos);
  EXPECT_NE(arena_error({"random", "mcts(simulations=0)"}, {{0, 1}}, options(50, 2))
                .find("player 'mcts(simulations=0)': search option 'simulations': expected an integer >= 1, got 0"),
            std::string::npos);
  EXPECT_EQ(arena_error({"random", "random"}, {{0, 1}}, options(0, 2)), "arena: games must be at least 1, got 0");
  EXPECT_EQ(arena_error({"random", "random"}, {}, options(5, 2)), "arena: no group of players to play");
  // The schedule is built before the first game: a few zeros too many allocated gigabytes.
  EXPECT_EQ(arena_error({"random", "random"}, {{0, 1}}, options(kMaxArenaGames + 1, 2)),
            "arena: 1000001 games for each of 1 group(s) of players is more than the 1000000 games one arena plays");
  EXPECT_EQ(arena_error({"random", "random", "random"}, {{0, 1}, {0, 2}, {1, 2}}, options(400000, 2)),
            "arena: 400000 games for each of 3 group(s) of players is more than the 1000000 games one arena plays");
  EXPECT_EQ(arena_error({"random", "random"}, {{0, 1}}, options(5, kMaxArenaThreads + 1)),
            "arena: threads must be 0 (every core) to 1024, got 1025");
  EXPECT_EQ(arena_error({"random", "random"}, {{0, 1, 1}}, options(5, 2)),
            "arena: a group of 3 players for a 2-player game");
  EXPECT_EQ(arena_error({"random", "random"}, {{0, 2}}, options(5, 2)), "arena: no player 2");
  EXPECT_EQ(arena_error({"random", "random"}, {{1, 1}}, options(5, 2)), "arena: player 1 twice in one group");
  ArenaOptions bad_anchor = options(5, 2);
  bad_anchor.anchor = 2;
  EXPECT_NE(arena_error({"random", "random"}, {{0, 1}}, bad_anchor).find("anchor 2"), std::string::npos);
  ArenaOptions bad_prior = options(5, 2);
  bad_prior.prior_draws = -1;
  EXPECT_NE(arena_error({"random", "random"}, {{0, 1}}, bad_prior).find("prior_draws"), std::string::npos);
  ArenaOptions bad_opening = options(5, 2);
  bad_opening.opening_turns = -1;
  EXPECT_EQ(arena_error({"random", "random"}, {{0, 1}}, bad_opening), "arena: opening_turns must be 0 or more");
}

TEST(Arena, AnErrorDuringTheGamesIsReported) {
  // A player that passes the up-front check (seed 0) but fails in the games: the first
  // error comes out of run_arena once every thread has stopped.
  const BotFactory flaky = [](std::string_view spec, const Game& g, std::uint64_t seed) -> std::unique_ptr<Bot> {
    if (spec == "flaky" && seed != 0) throw InputError("flaky player failed");
    return make_search_bot("random", g, seed);
  };
  for (int threads : {1, 2}) {
    try {
      run_arena(game(), {"random", "flaky"}, {{0, 1}}, flaky, options(20, threads));
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_STREQ(e.what(), "flaky player failed");
    }
  }
}

TEST(Arena, ProgressIsReportedOncePerGameInOrder) {
  for (int threads : {1, 3}) {
    std::vector<int> done;
    int total = -1;
    double last_seconds = 0;
    ArenaOptions o = options(7, threads, 2);
    o.progress = [&](const ArenaProgress& p) {
      done.push_back(p.done);
      if (total < 0) total = p.total;
      EXPECT_EQ(p.total, total);
      EXPECT_GE(p.seconds, last_seconds);
      EXPECT_GE(p.eta_seconds(), 0.0);
      last_seconds = p.seconds;
    };
    const ArenaReport report =
        run_arena(game(), {"random", "random", "random"}, round_robin_groups(3, 2), make_search_bot, o);
    EXPECT_EQ(total, 21);
    ASSERT_EQ(done.size(), 21u);
    for (int i = 0; i < 21; ++i) EXPECT_EQ(done[i], i + 1);
    EXPECT_EQ(report.games.size(), 21u);
  }
}

}  // namespace
}  // namespace boardlab
