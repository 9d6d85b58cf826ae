// Tests for Kuhn poker's heuristic player: it is an equilibrium (exploitability 0), legal every step, and it wins chips from random.
#include "games/kuhn_poker/kuhn_poker_heuristic.h"

#include <gtest/gtest.h>

#include <vector>

#include "arena/exploitability.h"
#include "core/errors.h"
#include "games/kuhn_poker/kuhn_poker.h"
#include "games/registry.h"
#include "tests/games/heuristic_test_util.h"

namespace boardlab {
namespace {

const Game& kuhn() {
  static const auto game = load_game("kuhn_poker");
  return *game;
}

std::vector<double> heuristic_policy(const State& state, Player player) {
  std::vector<float> observation(11);
  state.observation(player, observation);
  const auto p = kuhn_heuristic_policy(observation);
  return {p[0], p[1]};  // pass (0) and bet (1), the legal actions in order
}

TEST(KuhnPokerHeuristic, IsAnEquilibrium) {
  const ExploitabilityResult r = exploitability(kuhn(), heuristic_policy);
  EXPECT_NEAR(r.values[0], kKuhnPokerValue, 1e-12);
  EXPECT_NEAR(r.exploitability, 0.0, 1e-12);
}

TEST(KuhnPokerHeuristic, BetsAndCallsAsKuhnsAlphaOneThird) {
  const auto at = [](const char* record, Player seat) {
    std::vector<float> observation(11);
    kuhn().load_record(record)->observation(seat, observation);
    return kuhn_heuristic_policy(observation)[1];
  };
  EXPECT_NEAR(at("J Q", 0), 1.0 / 3, 1e-12);  // bluffs J a third of the time
  EXPECT_EQ(at("Q J", 0), 0.0);
  EXPECT_EQ(at("K J", 0), 1.0);
  EXPECT_NEAR(at("Q J p b", 0), 2.0 / 3, 1e-12);  // calls with Q alpha + 1/3
  EXPECT_NEAR(at("J Q b", 1), 1.0 / 3, 1e-12);    // calls with Q 1/3
  EXPECT_EQ(at("K J b", 1), 0.0);                  // folds J
  EXPECT_NEAR(at("K J p", 1), 1.0 / 3, 1e-12);    // bluffs J after a pass
  EXPECT_THROW(kuhn_heuristic_policy(std::vector<float>(11)), InputError);  // no card: no decision
}

TEST(KuhnPokerHeuristic, PlaysLegallyAndWinsFromRandom) {
  for (std::uint64_t seed = 0; seed < 50; ++seed) play_checked_both_ways(kuhn(), "random", seed);
  // Random folds K and calls with J: the equilibrium wins chips from it (+0.15 a hand), though
  // not more hands, since its own folds of J lose the hand.
  const ArenaReport report = heuristic_arena(kuhn(), {"random"}, 1000);
  EXPECT_GE(report.standings[0].mean_return, 0.05) << report.table();
  // Its score and its rating count those chips (arena/ratings.h, pair_score), not the hands won.
  const Pairing& pairing = report.pairings[0];
  EXPECT_LE(pairing.wins, pairing.losses) << report.table();
  EXPECT_NEAR(pairing.score(), 0.5 + report.standings[0].mean_return / 4, 1e-9) << report.table();
  EXPECT_LT(report.elo.high[1], 0) << report.table();  // random, rated against the heuristic's 0
}

TEST(KuhnPokerHeuristic, IsMadeOnlyForKuhnPoker) {
  EXPECT_THROW(make_kuhn_poker_heuristic(*load_game("leduc_poker"), 1), InputError);
}

}  // namespace
}  // namespace boardlab
