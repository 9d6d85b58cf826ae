// Tests for Squares' heuristic player: legal squares only, one game per seed, its choices on the rules' terms, and a clear win over random.
#include "games/squares/squares_heuristic.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "core/errors.h"
#include "games/registry.h"
#include "games/squares/squares.h"
#include "mcts/bots.h"
#include "tests/games/heuristic_test_util.h"
#include "tests/test_scale.h"

namespace boardlab {
namespace {

const Game& game() {
  static const auto loaded = load_game("squares");
  return *loaded;
}

Action act(const State& state, Player seat, std::uint64_t seed) {
  return make_search_bot("heuristic", game(), seed)->act(PlayerView(state, seat));
}

TEST(SquaresHeuristic, PlaysOnlyLegalSquaresAgainstRandomAndItself) {
  for (int seed = 0; seed < test_share(200); ++seed) {
    play_checked_both_ways(game(), "random", static_cast<std::uint64_t>(seed));
    play_checked_game(game(), {"heuristic", "heuristic"}, static_cast<std::uint64_t>(seed));
    if (HasFailure()) return;
  }
}

TEST(SquaresHeuristic, TheSameSeedPlaysTheSameGame) {
  std::set<std::string> games;
  for (std::uint64_t seed : {3, 4, 5}) {
    const std::string record = play_checked_game(game(), {"heuristic", "heuristic"}, seed);
    EXPECT_EQ(play_checked_game(game(), {"heuristic", "heuristic"}, seed), record);
    games.insert(record);
  }
  EXPECT_GT(games.size(), 1u) << "ties are broken by the seed, so seeds vary the games";
}

TEST(SquaresHeuristic, NeverPassesWhileItCanPlace) {
  for (int seed = 0; seed < 20; ++seed) {
    std::unique_ptr<State> state = game().new_initial_state();
    auto red = make_search_bot("heuristic", game(), static_cast<std::uint64_t>(seed));
    auto blue = make_search_bot("random", game(), static_cast<std::uint64_t>(seed) + 100);
    while (!state->is_terminal()) {
      const std::vector<Action> joint = {red->act(PlayerView(*state, 0)), blue->act(PlayerView(*state, 1))};
      if (joint[0] == SquaresGame::kPass) {
        ASSERT_EQ(state->legal_actions(0).size(), 1u) << state->to_string();
      }
      state->apply_joint(joint);
    }
  }
}

TEST(SquaresHeuristic, OpensWithTheLargestSquareInACorner) {
  // Blue may place anywhere, so a smaller square of Blue's may hit Red's and remove it: a
  // 10×10 in a corner still keeps the most area on average (of Blue's 1166 choices 400
  // overlap it with a smaller side, against 684 for a 10×10 in the middle, and a corner 8×8
  // keeps less than 8² / 10² of it), and the four corners tie, broken by the seed.
  const std::unique_ptr<State> start = game().new_initial_state();
  std::set<std::pair<int, int>> corners;
  for (std::uint64_t seed = 0; seed < 16; ++seed) {
    const Placement p = placement_of(act(*start, static_cast<Player>(seed % 2), seed));
    EXPECT_EQ(p.size, 10);
    EXPECT_TRUE((p.x0 == 0 || p.x0 == 10) && (p.y0 == 0 || p.y0 == 10)) << p.x0 << "," << p.y0;
    corners.insert({p.x0, p.y0});
  }
  EXPECT_GT(corners.size(), 1u);
}

TEST(SquaresHeuristic, BeatsRandomClearly) {
  // 95% in a thousand games; 80 wins of 100 would happen by chance to an even player with a
  // probability below 1e-9.
  const ArenaReport report = heuristic_arena(game(), {"random"}, 100);
  ASSERT_EQ(report.games.size(), 100u);
  EXPECT_GE(report.pairings[0].score(), 0.8) << report.table();
}

TEST(SquaresHeuristic, IsMadeOnlyForSquares) {
  EXPECT_THROW(make_squares_heuristic(*load_game("virus_war"), 1), InputError);
}

}  // namespace
}  // namespace boardlab
