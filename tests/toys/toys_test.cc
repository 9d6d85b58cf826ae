// Exact answers for the toy game: the rules the framework's own tests rely on (the benchmark games test their own).
#include <gtest/gtest.h>

#include "core/errors.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

std::vector<double> play(const Game& game, const std::string& record) { return game.load_record(record)->returns(); }

TEST(ToyRace, RanksByTokensHeldWithTiesAveraged) {
  const auto game = load_toy("toy_race(players=3,tokens=7)");
  // P0 takes 2+1, P1 takes 1, P2 takes 2, P0 takes 1: held 4 1 2.
  EXPECT_EQ(play(*game, "2-1 1-end 2-end 1"), (std::vector<double>{1, -1, 0}));
  // Held 2 2 3: P2 first, P0 and P1 share the second and third places.
  EXPECT_EQ(play(*game, "2-end 2-end 2-1"), (std::vector<double>{-0.5, -0.5, 1}));
  const auto two = load_toy("toy_race(players=2,tokens=4)");
  EXPECT_EQ(play(*two, "2-end 1-1"), (std::vector<double>{0, 0}));
  EXPECT_EQ(play(*two, "2-1 1"), (std::vector<double>{1, -1}));
}

TEST(ToyRace, TakingOneTwiceAndTwoThenEndingReachTheSamePosition) {
  const auto game = load_toy("toy_race");
  EXPECT_EQ(game->load_record("1-1")->hash(), game->load_record("2-end")->hash());
  EXPECT_NE(game->load_record("1-1")->hash(), game->load_record("1-end")->hash());
}

TEST(ToyRace, RulesAreEnforced) {
  const auto game = load_toy("toy_race(tokens=3)");
  auto s = game->new_initial_state();
  EXPECT_THROW(s->apply(2), IllegalActionError);  // a turn takes at least one token
  s->apply(1);
  EXPECT_THROW(s->apply(1), IllegalActionError);  // a second sub-move takes one
  EXPECT_THROW(game->load_record("2-2"), NotationError);
  EXPECT_THROW(load_toy("toy_race(players=5)"), GameParameterError);
}

}  // namespace
}  // namespace boardlab
