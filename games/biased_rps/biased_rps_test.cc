// Tests for biased rock-paper-scissors against its rules (games/biased_rps/RULES.md) and its known equilibrium.
#include "games/biased_rps/biased_rps.h"

#include <gtest/gtest.h>

#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "arena/exploitability.h"
#include "core/errors.h"
#include "games/registry.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

std::vector<double> play(const Game& game, const std::string& record) { return game.load_record(record)->returns(); }

TEST(BiasedRps, PaysTheTableAndTheEquilibriumMakesEveryReplyWorthZero) {
  const auto game = load_game("biased_rps");
  const char* names = "RPS";
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const auto r = play(*game, std::string(1, names[a]) + "/" + names[b]);
      EXPECT_EQ(r[0], kBiasedRpsPayoff[a][b]);
      EXPECT_EQ(r[1], -kBiasedRpsPayoff[a][b]);
    }
  // Against the equilibrium every pure reply earns the game's value, 0, for either player.
  for (int reply = 0; reply < 3; ++reply) {
    double row = 0, column = 0;
    for (int k = 0; k < 3; ++k) {
      row += kBiasedRpsEquilibrium[k] * kBiasedRpsPayoff[reply][k];
      column += kBiasedRpsEquilibrium[k] * kBiasedRpsPayoff[k][reply];
    }
    EXPECT_NEAR(row, 0, 1e-12);
    EXPECT_NEAR(column, 0, 1e-12);
  }
}

TEST(BiasedRps, RoundsAverageAndRefuseWhatTheRulesDoNotAllow) {
  const auto game = load_game("biased_rps(rounds=2)");
  EXPECT_EQ(play(*game, "S/R P/R"), (std::vector<double>{(-1 + 0.5) / 2, (1 - 0.5) / 2}));
  auto s = game->new_initial_state();
  const Action three[] = {0, 1, 2};
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply_joint(std::span<const Action>(three, 3)); }),
            "illegal joint action: one action per player (2), got 3");
  EXPECT_THROW(s->apply(0), IllegalActionError);
  const Action bad[] = {0, 3};
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply_joint(bad); }),
            "illegal action 3 of P1: actions are 0 (R), 1 (P) and 2 (S)");
  EXPECT_EQ(error_of<NotationError>([&] { game->load_record("R/X"); }),
            "record turn 1 'R/X': 'X' is not a biased_rps action (R, P or S)");
  EXPECT_EQ(error_of<GameParameterError>([] { load_game("biased_rps(rounds=11)"); }),
            "biased_rps: rounds must be 1..10, got 11");
  EXPECT_EQ(load_game("biased_rps")->to_string(), "biased_rps(rounds=1)");
}

// Uniform play: rock scores (0 - 1/2 + 1)/3 = 1/6 against it, for either seat (the game is
// symmetric), and uniform play itself 0, so each best response gains 1/6, at any number of
// rounds as the returns are the mean over rounds (tests/arena/exploitability_test.cc checks 1
// and 3 rounds). Always rock: paper answers it for 1/2, for either seat.
TEST(BiasedRps, KnownExploitabilities) {
  const auto game = load_game("biased_rps(rounds=2)");
  const ExploitabilityResult uniform = exploitability(*game, uniform_policy());
  EXPECT_NEAR(uniform.nash_conv, 1.0 / 3, 1e-12);
  EXPECT_NEAR(uniform.exploitability, 1.0 / 6, 1e-12);
  const PolicyFunction nash = [](const State&, Player) {
    return std::vector<double>(std::begin(kBiasedRpsEquilibrium), std::end(kBiasedRpsEquilibrium));
  };
  EXPECT_NEAR(exploitability(*game, nash).nash_conv, 0, 1e-12);
  const PolicyFunction rock = [](const State&, Player) { return std::vector<double>{1, 0, 0}; };
  const ExploitabilityResult r = exploitability(*game, rock);
  EXPECT_NEAR(r.values[0], 0, 1e-12);
  EXPECT_NEAR(r.best_response_values[0], 0.5, 1e-12);
  EXPECT_NEAR(r.best_response_values[1], 0.5, 1e-12);
  EXPECT_NEAR(r.exploitability, 0.5, 1e-12);
}

}  // namespace
}  // namespace boardlab
