// Tests for War's heuristic player: legal sub-moves on every board size, one game per seed, the generals' race, and a clear win over random.
#include "games/war/war_heuristic.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "games/registry.h"
#include "games/war/war.h"
#include "mcts/bots.h"
#include "tests/games/heuristic_test_util.h"
#include "tests/test_scale.h"

namespace boardlab {
namespace {

std::shared_ptr<const WarGame> war(const std::string& text) {
  return std::dynamic_pointer_cast<const WarGame>(load_game(text));
}

std::string chosen(const WarState& state, std::uint64_t seed) {
  auto bot = make_search_bot("heuristic", state.game(), seed);
  return state.action_to_string(bot->act(PlayerView::of_mover(state)));
}

TEST(WarHeuristic, PlaysOnlyLegalSubMovesOnEveryBoard) {
  const std::pair<const char*, int> boards[] = {
      {"war(players=2,width=10,height=10)", 20}, {"war(players=3,width=11,height=11)", 10},
      {"war(players=6,width=11,height=9)", 10},  {"war(players=5,width=13,height=9,max_turns=60)", 10},
      {"war", 4},                                {"war(board=sheet,max_turns=60)", 1}};
  for (const auto& [text, games] : boards) {
    const auto g = war(text);
    for (int seed = 0; seed < test_share(games); ++seed) {
      std::vector<std::string> specs(static_cast<std::size_t>(g->num_players()), "random");
      specs[static_cast<std::size_t>(seed % g->num_players())] = "heuristic";
      play_checked_game(*g, specs, static_cast<std::uint64_t>(seed));
      if (seed == 0) play_checked_game(*g, std::vector<std::string>(specs.size(), "heuristic"), 1);
      ASSERT_FALSE(HasFailure()) << text;
    }
  }
}

TEST(WarHeuristic, TheSameSeedPlaysTheSameGame) {
  const auto g = war("war(players=3,width=11,height=11)");
  std::set<std::string> games;
  for (std::uint64_t seed : {1, 2, 3}) {
    const std::vector<std::string> specs = {"heuristic", "random", "heuristic"};
    const std::string record = play_checked_game(*g, specs, seed);
    EXPECT_EQ(play_checked_game(*g, specs, seed), record);
    games.insert(record);
  }
  EXPECT_GT(games.size(), 1u);
}

TEST(WarHeuristic, KillsAGeneralInReach) {
  // B's general on d4 is a tank's jump (2, 2) from A's general on b2, which holds every pattern.
  const auto g = war("war(players=2,width=10,height=10)");
  const auto s = WarState::from_diagram(*g,
                                        R"(.. .. .. .. .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..
                                           .. .. .. BG .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..
                                           .. AG .. .. .. .. .. .. .. ..
                                           .. .. .. .. .. .. .. .. .. ..)",
                                        0);
  for (std::uint64_t seed = 0; seed < 4; ++seed) EXPECT_EQ(chosen(*s, seed), "Td4");
}

TEST(WarHeuristic, BeatsRandomClearly) {
  // Four players on 12×12: the heuristic against three random players, where an even player
  // would finish first in a quarter of the games and average the middle rank, 2.5.
  const auto g = war("war(players=4,width=12,height=12)");
  const ArenaReport report = heuristic_arena(*g, {"random", "random", "random"}, 24);
  ASSERT_EQ(report.games.size(), 24u);
  EXPECT_LE(report.standings[0].mean_rank, 1.5) << report.table();
  for (const Pairing& pairing : report.pairings) {
    if (pairing.a != 0) continue;
    EXPECT_GE(pairing.score(), 0.8) << report.table();
  }
}

TEST(WarHeuristic, IsMadeOnlyForWar) {
  EXPECT_THROW(make_war_heuristic(*load_game("klopodavka"), 1), InputError);
}

}  // namespace
}  // namespace boardlab
