// Tests for Leduc hold'em against its rules (games/leduc_poker/RULES.md) and its known answers, found by walking the game whole.
#include "games/leduc_poker/leduc_poker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "arena/exploitability.h"
#include "core/errors.h"
#include "core/random_play.h"
#include "core/rng.h"
#include "games/registry.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

constexpr Action kFold = 0, kCall = 1, kRaise = 2;

const Game& leduc() {
  static const auto game = load_game("leduc_poker");
  return *game;
}

std::unique_ptr<State> at(const std::string& record) { return leduc().load_record(record); }
std::vector<double> play(const std::string& record) { return at(record)->returns(); }

TEST(LeducPoker, ShowdownsAndFoldsPayTheStakes) {
  // Both check twice: 1 chip each. Q beats J; the pair of jacks beats the king.
  EXPECT_EQ(play("Qs Jh c c Ks c c"), (std::vector<double>{1, -1}));
  EXPECT_EQ(play("Js Kh c c Jh c c"), (std::vector<double>{1, -1}));
  EXPECT_EQ(play("Ks Qh c c Qs c c"), (std::vector<double>{-1, 1}));
  // Equal ranks split the pot.
  EXPECT_EQ(play("Qs Qh r c Ks r c"), (std::vector<double>{0, 0}));
  // A raise adds 2 chips in the first round and 4 in the second: 1 + 2 + 2 then + 4 + 4.
  EXPECT_EQ(play("Ks Jh r r c Qs r r c"), (std::vector<double>{13, -13}));
  EXPECT_EQ(play("Ks Jh c r c Qs c r c"), (std::vector<double>{7, -7}));
  // A fold gives the pot to the other player: the folder loses what it put in.
  EXPECT_EQ(play("Ks Jh r f"), (std::vector<double>{1, -1}));
  EXPECT_EQ(play("Js Kh c r f"), (std::vector<double>{-1, 1}));
  EXPECT_EQ(play("Js Kh r r f"), (std::vector<double>{-3, 3}));
  EXPECT_EQ(play("Js Kh c c Qs r r f"), (std::vector<double>{-5, 5}));
}

TEST(LeducPoker, WhoActsAndWhatIsLegal) {
  auto s = at("Ks Jh");
  EXPECT_EQ(s->current_player(), 0);
  // Fold only facing a bet; call always; raise while the round holds fewer than two.
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{kCall, kRaise}));
  s = at("Ks Jh c");
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{kCall, kRaise}));
  s = at("Ks Jh c r");
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{kFold, kCall, kRaise}));
  s = at("Ks Jh c r r");
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{kFold, kCall}));
  // A call of a raise, or two checks, end the round: chance deals the public card from the four left.
  s = at("Ks Jh c r r c");
  ASSERT_TRUE(s->is_chance_node());
  EXPECT_EQ(s->legal_actions(), (std::vector<Action>{0, 2, 3, 5}));
  for (const ChanceOutcome& o : s->chance_outcomes()) EXPECT_EQ(o.probability, 0.25);
  EXPECT_TRUE(at("Ks Jh c c")->is_chance_node());
  // Player 0 opens the second round too.
  EXPECT_EQ(at("Ks Jh r c Qs")->current_player(), 0);
  EXPECT_TRUE(at("Ks Jh r c Qs c c")->is_terminal());
  EXPECT_EQ(leduc().max_game_length(), 11);
  EXPECT_EQ(at("Ks Jh c r r c Qs c r r c")->history().size(), 11u);
}

TEST(LeducPoker, RefusesWhatTheRulesDoNotAllow) {
  auto s = at("Ks");
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(4); }),
            "illegal action 4: that card is not in the deck (Ks was dealt)");
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(6); }),
            "illegal action 6: the cards are 0..5 (Js Jh Qs Qh Ks Kh)");
  s = at("Ks Jh");
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(kFold); }),
            "illegal action 0: no bet to fold to: check (1) instead");
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(3); }),
            "illegal action 3: a player folds (0), calls (1) or raises (2)");
  s = at("Ks Jh r r");
  EXPECT_EQ(error_of<IllegalActionError>([&] { s->apply(kRaise); }),
            "illegal action 2: this round already holds two raises: fold (0) or call (1)");
  EXPECT_EQ(s->record(), "Ks Jh r r");  // unchanged by the refusals
  EXPECT_EQ(error_of<NotationError>([] { leduc().load_record("Ks Jh x"); }),
            "record turn 3 'x', part 1 'x': 'x' is not a Leduc poker action (f, c or r)");
  EXPECT_EQ(error_of<NotationError>([] { leduc().load_record("Ks K"); }),
            "record turn 2 'K', part 1 'K': 'K' is not a card (Js Jh Qs Qh Ks Kh)");
  EXPECT_EQ(error_of<IllegalActionError>([] { at("Ks Jh r f")->apply(kCall); }), "illegal action 1: the game is over");
}

TEST(LeducPoker, EachPlayerSeesItsOwnCardThePublicCardAndTheBets) {
  auto s = at("Ks Jh r c Qs c");
  EXPECT_EQ(s->record_for(0), "Ks ? r c Qs c");
  EXPECT_EQ(s->record_for(1), "? Jh r c Qs c");
  EXPECT_EQ(s->public_record(), "? ? r c Qs c");
  // Player 1 holds Jh and sees Qs: player 0 holds any of the other four cards, each a quarter
  // of the time (the draw is consistent with the view, not weighted by player 0's bets).
  Rng rng(5);
  std::map<Action, int> drawn;
  for (int i = 0; i < 8000; ++i) ++drawn[s->sample_hidden(1, rng)->history()[0].action];
  EXPECT_EQ(drawn.size(), 4u);
  for (const auto& [card, times] : drawn) {
    EXPECT_TRUE(card == 0 || card == 3 || card == 4 || card == 5) << card;
    EXPECT_NEAR(times / 8000.0, 0.25, 0.03) << card;
  }
  // The observation: seat, own card, public card, then call (1 0) or raise (0 1) per step.
  std::vector<float> seen(30);
  s->observation(1, seen);
  std::vector<float> expected(30, 0.0f);
  expected[1] = 1;                   // seat 1
  expected[2 + 1] = 1;               // Jh
  expected[8 + 2] = 1;               // Qs
  expected[14 + 1] = 1;              // round 1, step 1: raise
  expected[14 + 2] = 1;              // round 1, step 2: call
  expected[14 + 8] = 1;              // round 2, step 1: call
  EXPECT_EQ(seen, expected);
  // The information key follows what the player knows, and only that.
  EXPECT_EQ(at("Ks Jh r c Qs c")->information_key(1), at("Kh Jh r c Qs c")->information_key(1));
  EXPECT_NE(at("Ks Jh r c Qs c")->information_key(0), at("Kh Jh r c Qs c")->information_key(0));
  EXPECT_NE(at("Ks Jh r c Qs c")->information_key(1), at("Ks Jh r c Qh c")->information_key(1));
}

// OpenSpiel's figures for its leduc_poker: the tree and its information sets, and the uniform
// random policy's NashConv (open_spiel/python/algorithms/exploitability_test.py).
TEST(LeducPoker, UniformPlayHasOpenSpielsNashConv) {
  const ExploitabilityResult r = exploitability(leduc(), uniform_policy(), 100000);
  EXPECT_EQ(r.nodes, 9457u);  // 1 + 6 + 30 deals × 315 states each
  EXPECT_EQ(r.information_sets, 936u);
  EXPECT_NEAR(r.nash_conv, 4.747222222222222, 1e-9);
  EXPECT_NEAR(r.exploitability, 2.373611111111111, 1e-9);
  // How it splits (the walk's own figures): uniform play is worth -5/64 to player 0, a best
  // response 167/80 to player 0 and 383/144 to player 1.
  EXPECT_NEAR(r.values[0], -5.0 / 64, 1e-12);
  EXPECT_NEAR(r.values[1], 5.0 / 64, 1e-12);
  EXPECT_NEAR(r.best_response_values[0], 167.0 / 80, 1e-9);
  EXPECT_NEAR(r.best_response_values[1], 383.0 / 144, 1e-9);
}

// Always checking or calling, never raising or folding, by both players. Each one's best
// response then never folds either, and since the other never raises it raises once per
// round or checks: it bets 2 (then 4) more exactly when its expected showdown result is
// positive, knowing its card (then the public card too). Summed by hand over the deals (card
// c, then the other's card and the public one), each seat's best response is worth 22/15
// and always calling 0: NashConv 44/15.
TEST(LeducPoker, AlwaysCallingHasAHandComputedNashConv) {
  const PolicyFunction always_call = [](const State& state, Player player) {
    const std::vector<Action> legal = state.legal_actions(player);
    std::vector<double> probs(legal.size(), 0.0);
    probs[std::find(legal.begin(), legal.end(), kCall) - legal.begin()] = 1;
    return probs;
  };
  const ExploitabilityResult r = exploitability(leduc(), always_call, 100000);
  EXPECT_NEAR(r.values[0], 0, 1e-12);
  EXPECT_NEAR(r.best_response_values[0], 22.0 / 15, 1e-9);
  EXPECT_NEAR(r.best_response_values[1], 22.0 / 15, 1e-9);
  EXPECT_NEAR(r.nash_conv, 44.0 / 15, 1e-9);
}

TEST(LeducPoker, RandomGamesEndWithinTheStakesAndSumToZero) {
  Rng rng(11);
  std::vector<Action> joint;
  int folds = 0, splits = 0;
  for (int game = 0; game < 20000; ++game) {
    auto s = leduc().new_initial_state();
    while (!s->is_terminal()) apply_random_step(*s, rng, joint);
    const std::vector<double> r = s->returns();
    ASSERT_EQ(r[0], -r[1]) << s->record();
    ASSERT_LE(std::abs(r[0]), 13) << s->record();
    if (r[0] != 0) { ASSERT_GE(std::abs(r[0]), 1) << s->record(); }
    ASSERT_LE(s->history().size(), 11u);
    const std::string record = s->record();
    folds += record.back() == 'f';
    splits += r[0] == 0;
  }
  EXPECT_GT(folds, 1000);
  EXPECT_GT(splits, 100);
}

}  // namespace
}  // namespace boardlab
