// Tests for Klopodavka's heuristic player: legal sub-moves on every board size, one game per seed, the main bugs' race, and a clear win over random.
#include "games/klopodavka/klopodavka_heuristic.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "core/errors.h"
#include "games/klopodavka/klopodavka.h"
#include "games/registry.h"
#include "mcts/bots.h"
#include "tests/games/heuristic_test_util.h"
#include "tests/test_scale.h"

namespace boardlab {
namespace {

std::shared_ptr<const KlopodavkaGame> klopodavka(const std::string& text) {
  return std::dynamic_pointer_cast<const KlopodavkaGame>(load_game(text));
}

std::string chosen(const KlopodavkaState& state, std::uint64_t seed) {
  auto bot = make_search_bot("heuristic", state.game(), seed);
  return state.action_to_string(bot->act(PlayerView::of_mover(state)));
}

TEST(KlopodavkaHeuristic, PlaysOnlyLegalSubMovesOnEveryBoard) {
  // Every bitboard size (SmallBits, WideBits<4>, <8>, <20>) and player count.
  const std::pair<const char*, int> boards[] = {
      {"klopodavka(players=2,width=10,height=10)", 20}, {"klopodavka(players=3,width=11,height=11)", 10},
      {"klopodavka(players=6,width=11,height=9)", 10},  {"klopodavka", 10},
      {"klopodavka(players=5,width=13,height=9,revolution=false,submoves=3)", 10},
      {"klopodavka(board=sheet)", 1}};
  for (const auto& [text, games] : boards) {
    const auto g = klopodavka(text);
    for (int seed = 0; seed < test_share(games); ++seed) {
      std::vector<std::string> specs(static_cast<std::size_t>(g->num_players()), "random");
      specs[static_cast<std::size_t>(seed % g->num_players())] = "heuristic";
      play_checked_game(*g, specs, static_cast<std::uint64_t>(seed));
      if (seed == 0) play_checked_game(*g, std::vector<std::string>(specs.size(), "heuristic"), 1);
      ASSERT_FALSE(HasFailure()) << text;
    }
  }
}

TEST(KlopodavkaHeuristic, TheSameSeedPlaysTheSameGame) {
  const auto g = klopodavka("klopodavka(players=3,width=11,height=11)");
  std::set<std::string> games;
  for (std::uint64_t seed : {1, 2, 3}) {
    const std::vector<std::string> specs = {"heuristic", "heuristic", "random"};
    const std::string record = play_checked_game(*g, specs, seed);
    EXPECT_EQ(play_checked_game(*g, specs, seed), record);
    games.insert(record);
  }
  EXPECT_GT(games.size(), 1u);
}

TEST(KlopodavkaHeuristic, KillsAMainBugInReach) {
  const auto g = klopodavka("klopodavka(players=2,width=10,height=10)");
  const auto s = KlopodavkaState::from_diagram(*g,
                                               R"(..........
                                                  ..........
                                                  ..........
                                                  ..........
                                                  .....B....
                                                  ....a.....
                                                  ..........
                                                  ..........
                                                  .a........
                                                  A.........)",
                                               0);
  for (std::uint64_t seed = 0; seed < 4; ++seed) EXPECT_EQ(chosen(*s, seed), "f6");
}

TEST(KlopodavkaHeuristic, KillsTheBugThatWouldReachItsMainBugNextTurn) {
  // One sub-move a turn: B's bug on c3 touches A's main bug on b2, so B kills it next turn
  // unless A kills c3 first (a cell A killed is a wall for B); a bug placed anywhere would not help.
  const auto g = klopodavka("klopodavka(players=2,width=10,height=10,submoves=1)");
  const auto s = KlopodavkaState::from_diagram(*g,
                                               R"(.........B
                                                  ..........
                                                  ..........
                                                  ..........
                                                  ..........
                                                  ..........
                                                  ..........
                                                  ..b.......
                                                  .A........
                                                  ..........)",
                                               0);
  for (std::uint64_t seed = 0; seed < 4; ++seed) EXPECT_EQ(chosen(*s, seed), "c3");
}

TEST(KlopodavkaHeuristic, BeatsRandomClearly) {
  // Four players on 20×20, the default: the heuristic against three random players. Alone,
  // an even player finishes first in a quarter of the games.
  const auto g = klopodavka("klopodavka");
  const ArenaReport report = heuristic_arena(*g, {"random", "random", "random"}, 12);
  ASSERT_EQ(report.games.size(), 12u);
  EXPECT_LE(report.standings[0].mean_rank, 1.5) << report.table();
  for (const Pairing& pairing : report.pairings) {
    if (pairing.a != 0) continue;
    EXPECT_GE(pairing.score(), 0.8) << report.table();
  }
}

TEST(KlopodavkaHeuristic, IsMadeOnlyForKlopodavka) {
  EXPECT_THROW(make_klopodavka_heuristic(*load_game("war"), 1), InputError);
}

}  // namespace
}  // namespace boardlab
