// Tests for the arena with n players and every kind of node, on the toy race and the benchmark games: seating, shared openings and chance, views, truncation, ratings from whole rankings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/elo.h"
#include "games/registry.h"
#include "mcts/bots.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

// What the test bots saw: every view they were asked to act on.
struct Seen {
  std::mutex mutex;
  int acts = 0;
  int not_acting = 0;       // views where the viewer was not to act
  int hidden_cards = 0;     // kuhn_poker views whose record hides the other card as '?'
  int visible_cards = 0;    // kuhn_poker views whose record shows both cards
  std::set<Player> viewers;
  void record(const PlayerView& view) {
    std::lock_guard lock(mutex);
    ++acts;
    not_acting += !view.acts();
    viewers.insert(view.viewer());
    if (view.game().name() == "kuhn_poker") {
      const std::string record = view.record();
      (record.find('?') != std::string::npos ? hidden_cards : visible_cards) += 1;
    }
  }
};

// Plays rock (0) at every simultaneous round of biased_rps: +1/6 a round against uniform play.
class RockBot final : public Bot {
 public:
  explicit RockBot(std::shared_ptr<Seen> seen) : seen_(std::move(seen)) {}
  Action act(const PlayerView& view) override {
    seen_->record(view);
    return 0;
  }

 private:
  std::shared_ptr<Seen> seen_;
};

// Kuhn poker by its own card only, read from its observation: bets or calls with a king,
// calls a bet with a queen, otherwise passes (or folds).
class CardBot final : public Bot {
 public:
  explicit CardBot(std::shared_ptr<Seen> seen) : seen_(std::move(seen)) {}
  Action act(const PlayerView& view) override {
    seen_->record(view);
    std::vector<float> obs(static_cast<std::size_t>(view.game().observation_shape().size()));
    view.observation(obs);
    const bool king = obs[4] > 0, queen = obs[3] > 0;
    bool facing_bet = false;  // the last bet in the betting so far was a bet
    for (int i = 0; i < 3; ++i) {
      if (obs[5 + 2 * i + 1] > 0) facing_bet = true;
      if (obs[5 + 2 * i] > 0) facing_bet = false;
    }
    return king || (facing_bet && queen) ? 1 : 0;
  }

 private:
  std::shared_ptr<Seen> seen_;
};

// Records the views of any bot it wraps.
class Watched final : public Bot {
 public:
  Watched(std::unique_ptr<Bot> bot, std::shared_ptr<Seen> seen) : bot_(std::move(bot)), seen_(std::move(seen)) {}
  Action act(const PlayerView& view) override {
    seen_->record(view);
    return bot_->act(view);
  }

 private:
  std::unique_ptr<Bot> bot_;
  std::shared_ptr<Seen> seen_;
};

BotFactory toy_factory(std::shared_ptr<Seen> seen) {
  return [seen](std::string_view spec, const Game& g, std::uint64_t seed) -> std::unique_ptr<Bot> {
    if (spec == "rock") return std::make_unique<RockBot>(seen);
    if (spec == "card") return std::make_unique<CardBot>(seen);
    return std::make_unique<Watched>(make_search_bot(spec, g, seed), seen);
  };
}

ArenaOptions options(int games, int threads, std::uint64_t seed, int opening_turns = 2) {
  ArenaOptions o;
  o.games = games;
  o.threads = threads;
  o.seed = seed;
  o.opening_turns = opening_turns;
  return o;
}

// The first `turns` turns of a record.
std::string turns_of(const std::string& record, int turns) {
  std::size_t end = 0;
  for (int t = 0; t < turns && end != std::string::npos; ++t) end = record.find(' ', end + (t > 0));
  return record.substr(0, end);
}

void expect_same_games(const ArenaReport& a, const ArenaReport& b) {
  ASSERT_EQ(a.games.size(), b.games.size());
  for (std::size_t i = 0; i < a.games.size(); ++i) {
    EXPECT_EQ(a.games[i].seats, b.games[i].seats) << i;
    EXPECT_EQ(a.games[i].returns, b.games[i].returns) << i;
    EXPECT_EQ(a.games[i].record, b.games[i].record) << i;
  }
  EXPECT_EQ(a.elo.elo, b.elo.elo);
  // Everything but the clock: the moves' wall-clock time differs from run to run.
  ArenaReport untimed_a = a, untimed_b = b;
  for (ArenaReport* r : {&untimed_a, &untimed_b})
    for (Standing& s : r->standings) s.think_seconds = 0;
  EXPECT_EQ(untimed_a.table(), untimed_b.table());
}

// The ratings are the whole-ranking fit of the games, and wider than pairs counted as games.
void expect_whole_ranking_ratings(const ArenaReport& report, double prior_draws) {
  std::vector<Ranking> rankings;
  for (const ArenaGame& g : report.games) rankings.push_back(ranking_from_returns(g.seats, g.returns));
  const int n = static_cast<int>(report.players.size());
  const EloFit fit = fit_rankings(n, rankings, 0, prior_draws);
  std::vector<PairResult> pairs;
  for (const Pairing& p : report.pairings)
    pairs.push_back({p.a, p.b, static_cast<double>(p.wins), static_cast<double>(p.draws), static_cast<double>(p.losses)});
  const EloFit pairwise = fit_elo(n, pairs, 0, prior_draws);
  for (int p = 0; p < n; ++p) {
    EXPECT_NEAR(report.elo.elo[p], fit.elo[p], 1e-9) << p;
    EXPECT_NEAR(report.elo.standard_error[p], fit.standard_error[p], 1e-9) << p;
    if (p > 0) { EXPECT_GT(report.elo.standard_error[p], pairwise.standard_error[p]) << p; }
  }
}

TEST(ArenaToys, ThreePlayerRaceRatesMoreSearchHigher) {
  const auto game = load_toy("toy_race(players=3,tokens=20)");
  const std::vector<std::string> players = {"random", "uct:200", "uct:20"};
  auto seen = std::make_shared<Seen>();
  constexpr int kGames = 600;
  const ArenaReport report = run_arena(*game, players, round_robin_groups(3, 3), toy_factory(seen), options(kGames, 2, 8));
  std::printf("%s", report.table().c_str());
  ASSERT_EQ(report.games.size(), static_cast<std::size_t>(kGames));
  EXPECT_EQ(report.seats, 3);
  for (int k = 0; k < kGames; ++k) {
    const ArenaGame& g = report.games[k];
    // Game k sits in order k mod 6 of seat_orders, and the 3 games of a rotation open alike.
    EXPECT_EQ(g.seats, seat_orders({0, 1, 2})[k % 6]) << k;
    if (k % 3 != 0) {
      EXPECT_EQ(turns_of(g.record, 2), turns_of(report.games[k - k % 3].record, 2)) << k;
    }
    EXPECT_EQ(game->load_record(g.record)->returns(), g.returns) << k;
  }
  std::set<std::string> openings;
  for (const ArenaGame& g : report.games) openings.insert(turns_of(g.record, 2));
  EXPECT_GT(openings.size(), 3u);
  // Every game is one result for each of its three pairs.
  ASSERT_EQ(report.pairings.size(), 3u);
  for (const Pairing& p : report.pairings) EXPECT_EQ(p.games(), kGames);
  double rank_sum = 0;
  for (const Standing& s : report.standings) {
    EXPECT_EQ(s.games, kGames);
    rank_sum += s.mean_rank;
  }
  EXPECT_NEAR(rank_sum, 1 + 2 + 3, 1e-9);  // places 1, 2 and 3 (ties share) every game
  // The fit orders them. uct:200 is ahead of uct:20 by some 20 Elo (12 to 31 over seeds 1,
  // 2, 3 and 8 at 600 games): the point estimates order them, the intervals overlap.
  EXPECT_GT(report.elo.elo[1], report.elo.elo[2]) << report.table();
  EXPECT_GT(report.elo.low[2], 100) << report.table();
  EXPECT_LT(report.standings[1].mean_rank, report.standings[2].mean_rank);
  EXPECT_LT(report.standings[2].mean_rank, report.standings[0].mean_rank);
  expect_whole_ranking_ratings(report, 1.0);
  EXPECT_NE(report.table().find("3-player games"), std::string::npos);
  EXPECT_EQ(seen->not_acting, 0);
}

TEST(ArenaToys, FourPlayerRaceAmongFivePlayers) {
  const auto game = load_toy("toy_race(players=4,tokens=20)");
  const std::vector<std::string> players = {"random", "uct:200", "uct:20", "uct:5", "random"};
  auto seen = std::make_shared<Seen>();
  const auto groups = round_robin_groups(5, 4);
  ASSERT_EQ(groups.size(), 5u);
  const ArenaReport report = run_arena(*game, players, groups, toy_factory(seen), options(96, 2, 3));
  std::printf("%s", report.table().c_str());
  ASSERT_EQ(report.games.size(), 480u);
  for (std::size_t k = 0; k < report.games.size(); ++k)
    EXPECT_EQ(report.games[k].seats, seat_orders(groups[k / 96])[(k % 96) % 24]) << k;
  // Each player sits out one group of five: 4 · 96 games each.
  for (const Standing& s : report.standings) EXPECT_EQ(s.games, 384);
  // The two copies of random are rated alike, uct:5 above them, and uct:20 and uct:200
  // (equally strong at four players: more simulations stop helping) above uct:5.
  const EloFit& e = report.elo;
  EXPECT_LT(e.low[4], 0);
  EXPECT_GT(e.high[4], 0);
  EXPECT_GT(e.low[3], std::max(0.0, e.high[4])) << report.table();
  EXPECT_GT(std::min(e.elo[1], e.elo[2]), e.elo[3] + 30) << report.table();
  expect_whole_ranking_ratings(report, 1.0);
  // Seats are not "first" and "second" at four: no score by seat.
  EXPECT_TRUE(std::isnan(report.pairings[0].score_first()) && std::isnan(report.pairings[0].score_second()));
  EXPECT_EQ(report.table().find("as 1st"), std::string::npos);
}

TEST(ArenaToys, SimultaneousRoundsAskEverySeatWithItsView) {
  const auto game = load_game("biased_rps(rounds=5)");
  auto seen = std::make_shared<Seen>();
  const ArenaReport report =
      run_arena(*game, {"random", "rock"}, round_robin_groups(2, 2), toy_factory(seen), options(400, 2, 12, 0));
  // Every round asks both seats, each with its own view of a simultaneous node.
  EXPECT_EQ(seen->acts, 400 * 5 * 2);
  EXPECT_EQ(seen->not_acting, 0);
  EXPECT_EQ(seen->viewers, (std::set<Player>{0, 1}));
  for (const ArenaGame& g : report.games) {
    EXPECT_EQ(g.length, 10);
    EXPECT_EQ(g.returns[0], -g.returns[1]);
    // Rock's every round reads R in its seat's half: "R/x" or "x/R".
    const int rock = g.seats[0] == 1 ? 0 : 1;
    const auto state = game->load_record(g.record);
    for (std::size_t i = static_cast<std::size_t>(rock); i < state->history().size(); i += 2)
      EXPECT_EQ(state->history()[i].action, 0) << g.record;
  }
  // Rock gains 1/6 a round against uniform play.
  ASSERT_EQ(report.pairings.size(), 1u);
  EXPECT_NEAR(report.standings[1].mean_return, 1.0 / 6, 0.05);
  EXPECT_GT(report.elo.low[1], 0) << report.table();
  const ArenaReport again =
      run_arena(*game, {"random", "rock"}, round_robin_groups(2, 2), toy_factory(seen), options(400, 3, 12, 0));
  expect_same_games(report, again);
}

TEST(ArenaToys, HiddenCardsStayHiddenAndEveryRotationGetsTheSameDeal) {
  const auto game = load_game("kuhn_poker");
  auto seen = std::make_shared<Seen>();
  const ArenaReport report =
      run_arena(*game, {"random", "card"}, round_robin_groups(2, 2), toy_factory(seen), options(600, 2, 21, 0));
  // No bot ever saw the other player's card.
  EXPECT_GT(seen->hidden_cards, 1000);
  EXPECT_EQ(seen->visible_cards, 0);
  EXPECT_EQ(seen->not_acting, 0);
  std::set<std::string> deals;
  for (std::size_t k = 0; k < report.games.size(); ++k) {
    const std::string deal = turns_of(report.games[k].record, 2);  // the two chance turns: "J K"
    deals.insert(deal);
    // Both seatings of a rotation are dealt the same cards by seat, so each player holds
    // each hand once: the luck of the deal cancels.
    if (k % 2 == 1) { EXPECT_EQ(deal, turns_of(report.games[k - 1].record, 2)) << k; }
  }
  EXPECT_EQ(deals.size(), 6u);
  // The card player wins 5/24 of a chip a game against uniform play (exact, by enumerating
  // the deals), yet wins only half its games: its score and rating count the chips
  // (pair_score, a quarter of the range [-2, 2] for each chip), not the hands won.
  EXPECT_NEAR(report.standings[1].mean_return, 5.0 / 24, 0.05) << report.table();
  EXPECT_EQ(report.pairings[0].wins, report.pairings[0].losses) << report.table();
  EXPECT_NEAR(report.pairings[0].score(), 0.5 - report.standings[1].mean_return / 4, 1e-9) << report.table();
  EXPECT_GT(report.elo.low[1], 0) << report.table();
  EXPECT_NE(report.table().find("score and elo: the share of the stakes won"), std::string::npos) << report.table();
  const ArenaReport again =
      run_arena(*game, {"random", "card"}, round_robin_groups(2, 2), toy_factory(seen), options(600, 1, 21, 0));
  expect_same_games(report, again);
}

TEST(ArenaToys, ResultsDoNotDependOnTheThreadCount) {
  const auto game = load_toy("toy_race(players=3,tokens=12)");
  const std::vector<std::string> players = {"random", "uct:16", "mcts(simulations=8)", "random"};
  auto seen = std::make_shared<Seen>();
  const auto groups = round_robin_groups(4, 3);
  const ArenaReport one = run_arena(*game, players, groups, toy_factory(seen), options(9, 1, 5));
  for (int threads : {2, 4}) expect_same_games(one, run_arena(*game, players, groups, toy_factory(seen), options(9, threads, 5)));
  EXPECT_NE(one.records(), run_arena(*game, players, groups, toy_factory(seen), options(9, 2, 6)).records());
}

TEST(ArenaToys, TruncatedGamesAreCountedAndReported) {
  const auto game = load_game("morabaraba(move_cap=40)");
  auto seen = std::make_shared<Seen>();
  const ArenaReport report =
      run_arena(*game, {"random", "random"}, round_robin_groups(2, 2), toy_factory(seen), options(40, 2, 2));
  int truncated = 0;
  for (const ArenaGame& g : report.games) {
    // The flag is what the record says when read back.
    EXPECT_EQ(g.truncated, game->load_record(g.record)->is_truncated()) << g.record;
    if (g.truncated) { EXPECT_EQ(g.returns, (std::vector<double>{0.0, 0.0})); }
    truncated += g.truncated;
  }
  std::printf("%d of 40 games truncated\n", truncated);
  EXPECT_GT(truncated, 0);
  EXPECT_LT(truncated, 40);
  EXPECT_EQ(report.truncated, truncated);
  EXPECT_EQ(report.standings[0].truncated, truncated);
  EXPECT_EQ(report.standings[1].truncated, truncated);
  EXPECT_NE(report.table().find(std::to_string(truncated) + " of 40 games ended by a cap"), std::string::npos)
      << report.table();
  EXPECT_NE(report.json().find("\"truncated\": " + std::to_string(truncated)), std::string::npos);
  EXPECT_NE(report.standings_csv().find(",40,"), std::string::npos);
}

}  // namespace
}  // namespace boardlab
