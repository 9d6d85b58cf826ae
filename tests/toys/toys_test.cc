// Exact answers for the toy games: the rules the framework's own tests rely on.
#include <gtest/gtest.h>

#include <functional>
#include <numeric>

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

TEST(ToyMatrix, PaysTheTableAndTheEquilibriumMakesEveryReplyWorthZero) {
  const auto game = load_toy("toy_matrix");
  const char* names = "RPS";
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const auto r = play(*game, std::string(1, names[a]) + "/" + names[b]);
      EXPECT_EQ(r[0], kToyMatrixPayoff[a][b]);
      EXPECT_EQ(r[1], -kToyMatrixPayoff[a][b]);
    }
  // Against the equilibrium every pure reply earns the game's value, 0, for either player.
  for (int reply = 0; reply < 3; ++reply) {
    double row = 0, column = 0;
    for (int k = 0; k < 3; ++k) {
      row += kToyMatrixEquilibrium[k] * kToyMatrixPayoff[reply][k];
      column += kToyMatrixEquilibrium[k] * kToyMatrixPayoff[k][reply];
    }
    EXPECT_NEAR(row, 0, 1e-12);
    EXPECT_NEAR(column, 0, 1e-12);
  }
  // Any other mixed strategy can be exploited: pure paper against (1/3, 1/3, 1/3) earns 0 but
  // rock earns (0 - 0.5 + 1) / 3 > 0.
  EXPECT_GT((kToyMatrixPayoff[0][0] + kToyMatrixPayoff[0][1] + kToyMatrixPayoff[0][2]) / 3, 0);
}

TEST(ToyMatrix, RoundsAverage) {
  const auto game = load_toy("toy_matrix(rounds=2)");
  EXPECT_EQ(play(*game, "S/R P/R"), (std::vector<double>{(-1 + 0.5) / 2, (1 - 0.5) / 2}));
  auto s = game->new_initial_state();
  const Action two[] = {0, 1, 2};
  EXPECT_THROW(s->apply_joint(std::span<const Action>(two, 3)), IllegalActionError);
  EXPECT_THROW(s->apply(0), IllegalActionError);
}

TEST(ToyKuhn, TheKnownEquilibriumIsWorthMinusOneEighteenthToThePlayerWhoOpens) {
  // The equilibrium family's member alpha = 0 (Kuhn 1950): player 0 always passes first,
  // calls a bet with K, with Q one time in three, never with J; player 1 bets after a pass
  // with K and one time in three with J, checks with Q, and calls a bet only with K... and
  // with Q one time in three.
  const auto game = load_toy("toy_kuhn");
  // Probability that the player to move bets (or calls) at `state`.
  const auto bet = [](const State& s) -> double {
    const std::vector<Step> h = s.history();
    const Action mine = h[s.current_player()].action;  // the card dealt to the mover
    std::string line;
    for (std::size_t i = 2; i < h.size(); ++i) line += h[i].action == 1 ? 'b' : 'p';
    if (line.empty()) return 0;                                    // P0 opens: always pass
    if (line == "p") return mine == 2 ? 1 : mine == 0 ? 1.0 / 3 : 0;  // P1 after a pass
    if (line == "b") return mine == 2 ? 1 : mine == 1 ? 1.0 / 3 : 0;  // P1 facing a bet
    return mine == 2 ? 1 : mine == 1 ? 1.0 / 3 : 0;                // P0 facing a bet after passing
  };
  std::function<double(const State&)> value = [&](const State& s) -> double {
    if (s.is_terminal()) return s.returns()[0];
    double total = 0;
    if (s.is_chance_node()) {
      for (const ChanceOutcome& o : s.chance_outcomes()) {
        auto next = s.clone();
        next->apply(o.action);
        total += o.probability * value(*next);
      }
      return total;
    }
    const double p = bet(s);
    for (Action a : {0, 1}) {
      auto next = s.clone();
      next->apply(a);
      total += (a == 1 ? p : 1 - p) * value(*next);
    }
    return total;
  };
  EXPECT_NEAR(value(*game->new_initial_state()), kKuhnValue, 1e-12);
}

TEST(ToyKuhn, CardsAreHiddenFromTheOtherPlayerAndTheirDrawIsUniform) {
  const auto game = load_toy("toy_kuhn");
  auto s = game->load_record("K J p");
  EXPECT_EQ(s->record_for(0), "K ? p");
  EXPECT_EQ(s->record_for(1), "? J p");
  EXPECT_EQ(s->public_record(), "? ? p");
  // Player 1 holds J: player 0's card is Q or K, each half of the time.
  Rng rng(3);
  int kings = 0;
  for (int i = 0; i < 4000; ++i) {
    auto other = s->sample_hidden(1, rng);
    const Action card = other->history()[0].action;
    ASSERT_NE(card, 0);
    kings += card == 2;
  }
  EXPECT_NEAR(kings / 4000.0, 0.5, 0.03);
  EXPECT_THROW(game->load_record("K K"), NotationError);  // one deck
}

}  // namespace
}  // namespace boardlab
