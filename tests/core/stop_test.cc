// Tests for the stop request: the flag, the signal guard, and the core loops that end on it (perft, random play, the arena).
#include "core/stop.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "arena/arena.h"
#include "arena/perft.h"
#include "core/random_play.h"
#include "games/registry.h"
#include "mcts/bots.h"

namespace boardlab {
namespace {

const Game& virus_war() {
  static const auto loaded = load_game("virus_war");
  return *loaded;
}

// Every test starts and ends with no request pending.
class Stop : public ::testing::Test {
 protected:
  void SetUp() override { clear_stop(); }
  void TearDown() override { clear_stop(); }
};

std::atomic<int> g_handled{0};
extern "C" void count_signal(int signal) { g_handled = signal; }

// Installs `handler` for `signal`, restoring what was there on destruction.
class Handler {
 public:
  Handler(int signal, void (*handler)(int)) : signal_(signal) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(signal_, &action, &previous_);
  }
  ~Handler() { sigaction(signal_, &previous_, nullptr); }

 private:
  int signal_;
  struct sigaction previous_ {};
};

TEST_F(Stop, ARequestIsSeenUntilCleared) {
  EXPECT_FALSE(stop_requested());
  request_stop();
  EXPECT_TRUE(stop_requested());
  EXPECT_EQ(stop_signal(), 0);
  clear_stop();
  EXPECT_FALSE(stop_requested());
}

TEST_F(Stop, UnderAGuardSigintAndSigtermRequestAStopInsteadOfTheirHandlers) {
  for (const int signal : {SIGINT, SIGTERM}) {
    g_handled = 0;
    Handler previous(signal, count_signal);
    {
      StopOnSignals guard;
      EXPECT_FALSE(stop_requested());
      ::raise(signal);
      EXPECT_TRUE(stop_requested());
      EXPECT_EQ(guard.signal(), signal);
      EXPECT_EQ(g_handled, 0);  // the previous handler did not run
    }
    // The guard is gone: no request pending, and the previous handler is back.
    EXPECT_FALSE(stop_requested());
    ::raise(signal);
    EXPECT_EQ(g_handled, signal);
    g_handled = 0;
    StopOnSignals::forward(signal);
    EXPECT_EQ(g_handled, signal);
  }
}

TEST_F(Stop, GuardsNestAndTheLastOneRestoresTheHandlers) {
  g_handled = 0;
  Handler previous(SIGINT, count_signal);
  {
    StopOnSignals outer;
    {
      StopOnSignals inner;
      ::raise(SIGINT);
    }
    // The inner guard kept the request and the handler: the outer work is stopped too.
    EXPECT_TRUE(stop_requested());
    ::raise(SIGINT);
    EXPECT_EQ(g_handled, 0);
  }
  EXPECT_FALSE(stop_requested());
  ::raise(SIGINT);
  EXPECT_EQ(g_handled, SIGINT);
}

TEST_F(Stop, AnIgnoredSignalStaysIgnored) {
  Handler ignored(SIGTERM, SIG_IGN);
  StopOnSignals guard;
  ::raise(SIGTERM);
  EXPECT_FALSE(stop_requested());
}

TEST_F(Stop, PerftEndsEarly) {
  request_stop();
  const std::unique_ptr<State> state = virus_war().new_initial_state();
  EXPECT_EQ(perft(*state, 12), 0u);  // twelve plies would take hours
  EXPECT_EQ(perft(*state, 0), 1u);
}

TEST_F(Stop, RandomPlayEndsEarly) {
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    request_stop();
  });
  const RandomPlayStats stats = random_play(virus_war(), 1e9, 1, 1);  // thirty years without the request
  stopper.join();
  EXPECT_GE(stats.games, 1u);
  EXPECT_LT(stats.seconds, 1e9);
}

ArenaOptions arena_options(int games) {
  ArenaOptions o;
  o.games = games;
  o.threads = 1;  // one game at a time: the games played before the stop are exactly known
  o.seed = 3;
  return o;
}

TEST_F(Stop, AnArenaStoppedMidwayReportsOnlyTheGamesPlayed) {
  ArenaOptions o = arena_options(40);
  o.progress = [](const ArenaProgress& p) {
    if (p.done == 5) request_stop();
  };
  const std::vector<std::string> players = {"random", "uct:8"};
  const ArenaReport report = run_arena(virus_war(), players, round_robin_groups(2, 2), make_search_bot, o);
  EXPECT_TRUE(report.stopped);
  EXPECT_EQ(report.planned, 40);
  ASSERT_EQ(report.games.size(), 5u);
  int results = 0;
  for (const Pairing& p : report.pairings) results += p.games();
  EXPECT_EQ(results, 5);
  EXPECT_EQ(report.standings[0].games, 5);
  EXPECT_EQ(report.standings[1].games, 5);
  for (const ArenaGame& g : report.games) {
    EXPECT_EQ(g.returns.size(), 2u);
    EXPECT_TRUE(virus_war().load_record(g.record)->is_terminal());  // whole games only
  }
  EXPECT_NE(report.table().find("stopped early: 5 of 40 games played"), std::string::npos) << report.table();
  EXPECT_NE(report.json().find("\"games\": 5, \"planned\": 40, \"stopped\": true"), std::string::npos)
      << report.json();
}

// A bot that asks to stop in the middle of its third move: the game in play is not counted.
class StoppingBot final : public Bot {
 public:
  Action act(const PlayerView& view) override {
    if (++moves_ == 3) request_stop();
    return view.random_legal_action(rng_);
  }

 private:
  int moves_ = 0;
  Rng rng_{7};
};

TEST_F(Stop, AGameInPlayWhenTheStopComesIsNotCounted) {
  const BotFactory factory = [](std::string_view spec, const Game& g, std::uint64_t seed) -> std::unique_ptr<Bot> {
    if (spec == "stopper") return std::make_unique<StoppingBot>();
    return make_search_bot(spec, g, seed);
  };
  const ArenaReport report =
      run_arena(virus_war(), {"stopper", "random"}, round_robin_groups(2, 2), factory, arena_options(10));
  EXPECT_TRUE(report.stopped);
  EXPECT_TRUE(report.games.empty());
  EXPECT_EQ(report.standings[0].games, 0);
  EXPECT_NE(report.table().find("stopped early: 0 of 10 games played"), std::string::npos) << report.table();
  // No games, no ratings: "no games", not +0 [-10767140, +10767140] (issue 36).
  EXPECT_EQ(report.elo.rated, (std::vector<bool>{false, false}));
  EXPECT_EQ(report.table().find("10767140"), std::string::npos) << report.table();
  EXPECT_NE(report.table().find("\nrandom         0            -          -        -      -   no games\n"), std::string::npos)
      << report.table();
}

// Issue 36: an evaluation stopped before a player played rated it +0 [-10767140, +10767140].
// Its row now says "no games", and its numbers are null in the JSON and empty in the CSV files.
TEST_F(Stop, APlayerStoppedBeforeItsFirstGameHasNoRating) {
  ArenaOptions o = arena_options(40);  // the groups in turn: random-uct:8 first, uct:4 after them
  o.progress = [](const ArenaProgress& p) {
    if (p.done == 3) request_stop();
  };
  const std::vector<std::string> players = {"random", "uct:8", "uct:4"};
  const ArenaReport report = run_arena(virus_war(), players, round_robin_groups(3, 2), make_search_bot, o);
  ASSERT_EQ(report.games.size(), 3u);
  ASSERT_EQ(report.standings[2].games, 0);
  EXPECT_EQ(report.elo.rated, (std::vector<bool>{true, true, false}));
  const std::string table = report.table();
  EXPECT_EQ(table.find("10767140"), std::string::npos) << table;
  EXPECT_NE(table.find("\nuct:4         0            -          -        -      -   no games\n"), std::string::npos) << table;
  EXPECT_NE(table.find("\nrandom        3 "), std::string::npos) << table;
  EXPECT_NE(table.find("     +0   (anchor)\n"), std::string::npos) << table;
  EXPECT_NE(report.json().find("{\"name\": \"uct:4\", \"rated\": false, \"elo\": null, \"stderr\": null, "
                               "\"low\": null, \"high\": null, \"games\": 0, \"mean_return\": null, "
                               "\"mean_rank\": null, \"ms_per_move\": null, \"truncated\": 0}"),
            std::string::npos)
      << report.json();
  EXPECT_NE(report.elo_csv().find("\nuct:4,,,,\n"), std::string::npos) << report.elo_csv();
  EXPECT_NE(report.standings_csv().find("\nuct:4,0,,,0,\n"), std::string::npos) << report.standings_csv();
}

TEST_F(Stop, AnArenaOutOfTimeStopsLikeARequest) {
  ArenaOptions o = arena_options(10);
  o.max_seconds = 1e-9;  // spent before the first game can start
  const ArenaReport report = run_arena(virus_war(), {"random", "uct:8"}, round_robin_groups(2, 2), make_search_bot, o);
  EXPECT_TRUE(report.stopped);
  EXPECT_TRUE(report.games.empty());
  EXPECT_FALSE(stop_requested());
}

TEST_F(Stop, AnArenaWithoutARequestPlaysEveryGame) {
  const ArenaReport report =
      run_arena(virus_war(), {"random", "uct:4"}, round_robin_groups(2, 2), make_search_bot, arena_options(4));
  EXPECT_FALSE(report.stopped);
  EXPECT_EQ(report.games.size(), 4u);
  EXPECT_EQ(report.table().find("stopped early"), std::string::npos);
}

}  // namespace
}  // namespace boardlab
