// Tests for rating against a stored ladder: the held fit recovers a newcomer's strength, ladder files round-trip and refuse malformed entries.
#include "arena/ladder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/rng.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

constexpr double kFree = std::numeric_limits<double>::quiet_NaN();

// Two-player games between `a` and `b` won by a with the Elo probability of `elo_a − elo_b`.
void play(int a, int b, double elo_a, double elo_b, int games, Rng& rng, std::vector<Ranking>& out) {
  const double p = 1 / (1 + std::pow(10.0, (elo_b - elo_a) / 400));
  for (int g = 0; g < games; ++g)
    out.push_back(rng.uniform() < p ? Ranking{{{a}, {b}}} : Ranking{{{b}, {a}}});
}

Ladder three_rungs() {
  Ladder ladder;
  ladder.game = "virus_war";
  ladder.games_per_group = 100;
  ladder.opening_turns = 2;
  ladder.rungs = {{"random", 0, 0, 0, 200}, {"uct:200", 400, 350, 450, 200}, {"uct:1000", 800, 740, 860, 200}};
  return ladder;
}

TEST(FitHeld, RecoversANewcomerBetweenHeldRungs) {
  // Rungs held at 0, 400 and 800; the newcomer is 600 strong and plays each rung 2000 games.
  Rng rng(7);
  std::vector<Ranking> rankings;
  const double rung_elo[] = {0, 400, 800};
  for (int r = 0; r < 3; ++r) play(3, r, 600, rung_elo[r], 2000, rng, rankings);
  const std::vector<double> held = {0, 400, 800, kFree};
  const EloFit fit = fit_rankings_held(4, rankings, held, 0.0);
  EXPECT_TRUE(fit.converged);
  EXPECT_NEAR(fit.elo[3], 600, 3 * fit.standard_error[3]);
  EXPECT_LT(fit.standard_error[3], 20);
  EXPECT_GT(fit.standard_error[3], 0);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(fit.elo[r], rung_elo[r]);  // held exactly, whatever the games say
    EXPECT_EQ(fit.standard_error[r], 0);
  }
}

TEST(FitHeld, KeepsRisingWhereAnAnchoredFitSaturates) {
  // Beating random every game and uct:1000 (800) three games in four: anchored at random
  // alone the prior decides the rating; held at the ladder's ratings the wins over the top count.
  std::vector<Ranking> rankings;
  for (int g = 0; g < 40; ++g) rankings.push_back({{{2}, {0}}});
  for (int g = 0; g < 40; ++g) rankings.push_back(g % 4 == 0 ? Ranking{{{1}, {2}}} : Ranking{{{2}, {1}}});
  const std::vector<double> held = {0, 800, kFree};
  const EloFit fit = fit_rankings_held(3, rankings, held, 1.0);
  EXPECT_GT(fit.elo[2], 800 + 100);  // above the top rung it beats 75%
  EXPECT_LT(fit.low[2], fit.elo[2]);
}

TEST(FitHeld, EqualsFitRankingsWithOneHeldPlayer) {
  Rng rng(3);
  std::vector<Ranking> rankings;
  play(0, 1, 0, 200, 300, rng, rankings);
  play(1, 2, 200, 500, 300, rng, rankings);
  const EloFit anchored = fit_rankings(3, rankings, 0, 1.0);
  const std::vector<double> held = {0, kFree, kFree};
  const EloFit fit = fit_rankings_held(3, rankings, held, 1.0);
  for (int p = 0; p < 3; ++p) {
    EXPECT_NEAR(fit.elo[p], anchored.elo[p], 1e-9);
    EXPECT_NEAR(fit.standard_error[p], anchored.standard_error[p], 1e-9);
  }
}

TEST(FitHeld, LeavesUnlinkedPlayersUnratedAndRefusesBadInput) {
  std::vector<Ranking> rankings = {{{{0}, {1}}}, {{{2}, {3}}}};
  const std::vector<double> held = {0, kFree, kFree, kFree};
  const EloFit fit = fit_rankings_held(4, rankings, held, 1.0);
  EXPECT_TRUE(fit.rated[1]);
  EXPECT_FALSE(fit.rated[2]);
  EXPECT_TRUE(std::isnan(fit.elo[3]));
  const std::vector<double> none(4, kFree);
  EXPECT_EQ(error_of([&] { fit_rankings_held(4, rankings, none); }),
            "fit_rankings_held: no player's rating is held, so nothing fixes the scale");
  const std::vector<double> short_list = {0, kFree};
  EXPECT_EQ(error_of([&] { fit_rankings_held(4, rankings, short_list); }),
            "fit_rankings_held: 2 held ratings for 4 players");
  const std::vector<double> infinite = {0, std::numeric_limits<double>::infinity(), kFree, kFree};
  EXPECT_EQ(error_of([&] { fit_rankings_held(4, rankings, infinite); }),
            "fit_rankings_held: player 1's held rating is infinite");
}

TEST(Ladder, FindsRungsByAnySpellingAndTheNearestRungs) {
  const Ladder ladder = three_rungs();
  EXPECT_EQ(ladder.find("uct(simulations=200)"), -1);  // another spelling of another spec
  EXPECT_EQ(ladder.find(" uct:200"), 1);
  EXPECT_EQ(ladder.find("agent:x.pt"), -1);
  EXPECT_EQ(ladder.find("(("), -1);
  using Specs = std::vector<std::string>;
  EXPECT_EQ(ladder.around(500, 2), (Specs{"uct:200", "uct:1000"}));
  EXPECT_EQ(ladder.around(500, 1), (Specs{"uct:1000"}));  // leans upwards
  EXPECT_EQ(ladder.around(500, 3), (Specs{"random", "uct:200", "uct:1000"}));
  EXPECT_EQ(ladder.around(-50, 2), (Specs{"random", "uct:200"}));
  EXPECT_EQ(ladder.around(2000, 2), (Specs{"uct:200", "uct:1000"}));
  EXPECT_EQ(ladder.around(400, 1), (Specs{"uct:200"}));  // at a rung's rating: that rung
  const Specs skip = {"uct:1000"};
  EXPECT_EQ(ladder.around(500, 2, skip), (Specs{"random", "uct:200"}));
  EXPECT_EQ(ladder.around(350, 0), Specs{});
}

TEST(Ladder, RatesPlayersAgainstTheStoredRungs) {
  const Ladder ladder = three_rungs();
  Rng rng(11);
  std::vector<Ranking> rankings;
  // Players: net (free), uct:200, net@previous (free), uct:1000.
  play(0, 1, 1000, 400, 400, rng, rankings);
  play(0, 3, 1000, 800, 400, rng, rankings);
  play(0, 2, 1000, 900, 400, rng, rankings);
  const std::vector<std::string> players = {"net@5", "uct:200", "net@0", "uct:1000"};
  const EloFit fit = rate_on_ladder(ladder, players, rankings, 0.0);
  EXPECT_NEAR(fit.elo[0], 1000, 3 * fit.standard_error[0]);
  EXPECT_EQ(fit.elo[1], 400);
  EXPECT_EQ(fit.elo[3], 800);
  EXPECT_TRUE(fit.rated[2]);
  const std::vector<std::string> strangers = {"net@5", "net@0"};
  EXPECT_EQ(error_of([&] { rate_on_ladder(ladder, strangers, {}); }),
            "rate_on_ladder: no player is a rung of virus_war's ladder");
}

class LadderFile : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ladder_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "virus_war");
    path_ = (dir_ / "virus_war" / "ladder.yaml").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& text) { std::ofstream(path_) << text; }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(LadderFile, RoundTripsAndReplacesOnlyItsOwnGame) {
  Ladder ladder = three_rungs();
  ladder.rungs.push_back({"mcts(algorithm=puct,simulations=8)", 100, 50, 150, 20});
  store_ladder(path_, ladder);
  Ladder strict = three_rungs();
  strict.game = "virus_war(strict=true)";
  store_ladder(path_, strict);
  ladder.rungs[1].elo = 410;
  store_ladder(path_, ladder);
  const std::vector<Ladder> read = read_ladders(path_);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].game, "virus_war");
  ASSERT_EQ(read[0].rungs.size(), 4u);
  EXPECT_EQ(read[0].rungs[1].player, "mcts(algorithm=puct,simulations=8)");  // weakest first
  EXPECT_EQ(read[0].rungs[2].elo, 410);
  EXPECT_EQ(read[0].opening_turns, 2);
  EXPECT_EQ(read[1].game, "virus_war(strict=true)");
  EXPECT_EQ(ladders_yaml("virus_war", read), ladders_yaml("virus_war", read_ladders(path_)));
}

TEST_F(LadderFile, FindsTheGamesLadderThroughTheGamesFolder) {
  store_ladder(path_, three_rungs());
  ::setenv("BOARDLAB_GAMES_DIR", dir_.c_str(), 1);
  EXPECT_EQ(ladder_file("virus_war"), path_);
  EXPECT_EQ(read_ladders(ladder_file("squares")).size(), 0u);  // no file: no ladder
  ::unsetenv("BOARDLAB_GAMES_DIR");
}

TEST_F(LadderFile, RefusesMalformedFilesNamingTheFault) {
  const std::string at = "ladder file '" + path_ + "'";
  write("game: virus_war\n");
  EXPECT_EQ(error_of([&] { read_ladders(path_); }), at + ": must be a list of ladders");
  write("- [1, 2\n");
  EXPECT_TRUE(error_of([&] { read_ladders(path_); }).starts_with(at + ": not YAML ("));
  const std::string head = "- game: g\n  games_per_group: 10\n  opening_turns: 2\n  seed: 0\n  seconds: 1\n";
  write(head + "  rungs:\n    - {player: random, elo: 0, low: 0, high: 0, games: 2}\n");
  EXPECT_EQ(error_of([&] { read_ladders(path_); }), at + ", entry 1 (g): 'rungs' must list at least two players");
  write(head + "  rungs:\n    - {player: random, elo: 0, low: 0, high: 0, games: 2}\n"
               "    - {player: 'uct:', elo: 1, low: 0, high: 2, games: 2}\n");
  EXPECT_TRUE(error_of([&] { read_ladders(path_); }).starts_with(at + ", entry 1 (g), rung 2: player 'uct:'"));
  write(head + "  rungs:\n    - {player: random, elo: 0, low: 0, high: 0, games: 2}\n"
               "    - {player: 'uct:5', elo: .nan, low: 0, high: 2, games: 2}\n");
  EXPECT_EQ(error_of([&] { read_ladders(path_); }),
            at + ", entry 1 (g), rung 2: rung 'uct:5' has a rating that is not a finite number");
  write(head + "  rungs:\n    - {player: random, elo: 0, low: 0, high: 0, games: 2}\n"
               "    - {player: random, elo: 1, low: 0, high: 2, games: 2}\n");
  EXPECT_EQ(error_of([&] { read_ladders(path_); }), at + ", entry 1 (g): 'random' is two rungs");
  write("- game: g\n  games_per_group: ten\n");
  EXPECT_EQ(error_of([&] { read_ladders(path_); }), at + ", entry 1 (g): 'games_per_group' is not a valid value");
}

}  // namespace
}  // namespace boardlab
