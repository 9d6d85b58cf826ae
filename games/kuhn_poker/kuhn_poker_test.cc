// Tests for Kuhn poker against its rules (games/kuhn_poker/RULES.md) and its known answers, found by walking the game whole.
#include "games/kuhn_poker/kuhn_poker.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "arena/exploitability.h"
#include "core/errors.h"
#include "core/rng.h"
#include "games/registry.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

const Game& kuhn() {
  static const auto game = load_game("kuhn_poker");
  return *game;
}

std::vector<double> play(const std::string& record) { return kuhn().load_record(record)->returns(); }

TEST(KuhnPoker, EveryLineOfBettingPaysWhatTheRulesSay) {
  // Showdowns: the higher card takes the pot, 1 chip each after two passes, 2 after a call.
  EXPECT_EQ(play("K Q p p"), (std::vector<double>{1, -1}));
  EXPECT_EQ(play("J Q p p"), (std::vector<double>{-1, 1}));
  EXPECT_EQ(play("Q J b b"), (std::vector<double>{2, -2}));
  EXPECT_EQ(play("J K p b b"), (std::vector<double>{-2, 2}));
  // Folds: the folder loses its ante whatever the cards.
  EXPECT_EQ(play("J K b p"), (std::vector<double>{1, -1}));
  EXPECT_EQ(play("K J p b p"), (std::vector<double>{-1, 1}));
  // Only "p" and "p b" go on; every other line has ended.
  EXPECT_FALSE(kuhn().load_record("K J p")->is_terminal());
  EXPECT_FALSE(kuhn().load_record("K J p b")->is_terminal());
  EXPECT_EQ(kuhn().load_record("K J p b")->current_player(), 0);
  EXPECT_EQ(error_of<NotationError>([] { kuhn().load_record("K J b b p"); }),
            "record turn 5 'p': the game is already over");
}

TEST(KuhnPoker, RefusesWhatTheRulesDoNotAllow) {
  auto s = kuhn().new_initial_state();
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(3); }),
            "illegal action 3: that card is not in the deck (the deck holds J 0, Q 1 and K 2)");
  s->apply(2);
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(2); }),
            "illegal action 2: that card is not in the deck (the deck holds J 0, Q 1 and K 2 but player 0's card)");
  s->apply(0);
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(2); }), "illegal action 2: a player passes (0) or bets (1)");
  EXPECT_THROW(kuhn().load_record("K K"), NotationError);  // one deck
  EXPECT_EQ(error_of<NotationError>([] { kuhn().load_record("K Q x"); }),
            "record turn 3 'x', part 1 'x': 'x' is not a Kuhn poker action (p or b)");
  EXPECT_THROW(load_game("kuhn_poker(players=3)"), GameParameterError);
}

TEST(KuhnPoker, TheKnownEquilibriumIsWorthMinusOneEighteenthToThePlayerWhoOpens) {
  // The equilibrium family's member alpha = 0 (Kuhn 1950), written from the rules alone:
  // player 0 always passes first and calls a bet with K, with Q one time in three, never with
  // J; player 1 bets after a pass with K and one time in three with J, passes with Q, and
  // calls a bet with K and one time in three with Q.
  const auto bet = [](const State& s) -> double {
    const std::vector<Step> h = s.history();
    const Action mine = h[s.current_player()].action;  // the card dealt to the mover
    std::string line;
    for (std::size_t i = 2; i < h.size(); ++i) line += h[i].action == 1 ? 'b' : 'p';
    if (line.empty()) return 0;                                        // P0 opens: always pass
    if (line == "p") return mine == 2 ? 1 : mine == 0 ? 1.0 / 3 : 0;  // P1 after a pass
    return mine == 2 ? 1 : mine == 1 ? 1.0 / 3 : 0;                    // facing a bet: call with K, Q 1/3
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
  EXPECT_NEAR(value(*kuhn().new_initial_state()), kKuhnPokerValue, 1e-12);
}

// Uniform play is worth 1/8 to player 0 (OpenSpiel's figure); a best response raises player
// 0's return to 1/2 and player 1's to 5/12, NashConv 11/12 and exploitability 11/24 = 0.4583
// (tests/arena/exploitability_test.cc checks the tool's other figures on this game).
TEST(KuhnPoker, UniformPlayIsElevenTwentyFourthsExploitable) {
  const ExploitabilityResult r = exploitability(kuhn(), uniform_policy());
  EXPECT_NEAR(r.values[0], 1.0 / 8, 1e-12);
  EXPECT_NEAR(r.best_response_values[0], 1.0 / 2, 1e-12);
  EXPECT_NEAR(r.best_response_values[1], 5.0 / 12, 1e-12);
  EXPECT_NEAR(r.nash_conv, 11.0 / 12, 1e-12);
  EXPECT_NEAR(r.exploitability, 11.0 / 24, 1e-12);
}

TEST(KuhnPoker, CardsAreHiddenFromTheOtherPlayerAndTheirDrawIsUniform) {
  auto s = kuhn().load_record("K J p");
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
  // The observation is the seat, the card and the betting, and nothing of the other card.
  std::vector<float> seen(11);
  s->observation(1, seen);
  EXPECT_EQ(seen, (std::vector<float>{0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0}));
}

}  // namespace
}  // namespace boardlab
