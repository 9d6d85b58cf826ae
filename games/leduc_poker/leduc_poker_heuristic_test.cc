// Tests for Leduc hold'em's heuristic player: its rules on chosen hands, legal every step, chips won from random, its exact exploitability.
#include "games/leduc_poker/leduc_poker_heuristic.h"

#include <gtest/gtest.h>

#include <vector>

#include "arena/exploitability.h"
#include "core/errors.h"
#include "games/registry.h"
#include "tests/games/heuristic_test_util.h"

namespace boardlab {
namespace {

const Game& leduc() {
  static const auto game = load_game("leduc_poker");
  return *game;
}

Action act_at(const char* record) {
  const auto state = leduc().load_record(record);
  std::vector<float> observation(30);
  state->observation(state->current_player(), observation);
  return leduc_heuristic_action(observation, state->legal_actions());
}

TEST(LeducPokerHeuristic, BetsByTheStrengthOfItsHand) {
  EXPECT_EQ(act_at("Ks Jh"), 2);          // K raises first
  EXPECT_EQ(act_at("Qs Jh"), 1);          // Q checks
  EXPECT_EQ(act_at("Qs Jh r"), 0);        // J folds to a raise...
  EXPECT_EQ(act_at("Qs Jh c"), 1);        // ...and checks when it may
  EXPECT_EQ(act_at("Ks Kh r r"), 1);      // no raise left: K calls
  EXPECT_EQ(act_at("Js Qh c c Jh"), 2);   // a pair raises
  EXPECT_EQ(act_at("Qs Kh c c Jh"), 1);   // Q over a public J checks and calls
  EXPECT_EQ(act_at("Qs Jh c c Ks c r"), 0);  // Q under a public K folds to a bet
  EXPECT_THROW(leduc_heuristic_action(std::vector<float>(30), std::vector<Action>{1, 2}), InputError);
}

TEST(LeducPokerHeuristic, PlaysLegallyAndWinsFromRandom) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) play_checked_both_ways(leduc(), "random", seed);
  // It wins chips, not hands: folding a weak hand loses the hand (random never folds wisely),
  // so it wins fewer than half of the hands and +0.74 chips a hand.
  const ArenaReport report = heuristic_arena(leduc(), {"random"}, 1000);
  EXPECT_GE(report.standings[0].mean_return, 0.3) << report.table();
}

// A pure strategy that never bluffs is exploitable; the figure pins what the ladder's top is.
TEST(LeducPokerHeuristic, IsExploitableButLessThanUniformPlay) {
  const PolicyFunction policy = [](const State& state, Player player) {
    std::vector<float> observation(30);
    state.observation(player, observation);
    const std::vector<Action> legal = state.legal_actions(player);
    const Action chosen = leduc_heuristic_action(observation, legal);
    std::vector<double> out(legal.size(), 0.0);
    for (std::size_t i = 0; i < legal.size(); ++i) out[i] = legal[i] == chosen ? 1.0 : 0.0;
    return out;
  };
  const ExploitabilityResult r = exploitability(leduc(), policy);
  EXPECT_NEAR(r.exploitability, 0.966667, 1e-6);  // uniform play's is 2.373611
  EXPECT_LT(r.exploitability, exploitability(leduc(), uniform_policy()).exploitability);
}

TEST(LeducPokerHeuristic, IsMadeOnlyForLeducPoker) {
  EXPECT_THROW(make_leduc_poker_heuristic(*load_game("kuhn_poker"), 1), InputError);
}

}  // namespace
}  // namespace boardlab
