// Tests for counting a step list's turns and whole-turn passes (the pass rate of training's metrics).
#include <gtest/gtest.h>

#include <vector>

#include "core/steps.h"
#include "games/registry.h"

namespace boardlab {
namespace {

constexpr Action kPass = 99;

TEST(CountTurns, ATurnIsARunOfOneSeatsStepsAndAPassOnlyItsFirstAction) {
  // Seat 0 plays two sub-moves and closes its turn with the pass action (not a pass), seat 1
  // passes, chance acts, seat 0 passes, seat 1 plays.
  const std::vector<Step> steps = {{0, 5}, {0, 6}, {0, kPass}, {1, kPass}, {kChancePlayer, 3}, {0, kPass}, {1, 2}};
  const TurnCount all = count_turns(steps, kPass);
  EXPECT_EQ(all.turns, 4);
  EXPECT_EQ(all.passes, 2);
  const TurnCount seat0 = count_turns(steps, kPass, 0);
  EXPECT_EQ(seat0.turns, 2);
  EXPECT_EQ(seat0.passes, 1);
  EXPECT_EQ(count_turns(steps, kInvalidAction).passes, 0);  // a game without a pass
}

TEST(CountTurns, WarsEndClosesATurnAndPassesOnlyAsItsFirstAction) {
  const auto game = load_game("war(players=2,width=10,height=10)");
  // A's turn of one sub-move closed by `end` (implied in the record), then B passes, then A
  // passes, which ends the game: a full round of passes.
  const auto state = game->load_record("Pc3 pass pass");
  const std::vector<Step> steps = state->history();
  ASSERT_EQ(steps.size(), 4u);  // Pc3, end, end, end
  const TurnCount count = count_turns(steps, game->traits().pass_action);
  EXPECT_EQ(count.turns, 3);
  EXPECT_EQ(count.passes, 2);
}

}  // namespace
}  // namespace boardlab
