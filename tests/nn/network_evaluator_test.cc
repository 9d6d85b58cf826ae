// Tests for decoding network outputs: values from player-relative seats back to seats for n players, back to the game's return range, and requests that are not for a seat.
#include "nn/network_evaluator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/errors.h"
#include "games/registry.h"
#include "nn_test_util.h"
#include "tests/toys/toys.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {


std::vector<Evaluation> decode(const State& state, Player player, const std::vector<float>& logits,
                               const std::vector<float>& values, bool standings = false) {
  const Game& game = state.game();
  const std::vector<Action> legal = state.legal_actions(player);
  const EvalRequest request{&state, player, legal};
  std::vector<Evaluation> out(1);
  decode_outputs({&request, 1}, logits.data(), values.data(), nullptr, game.num_distinct_actions(),
                 static_cast<int>(values.size()), standings, out);
  return out;
}

TEST(NetworkEvaluator, ValuesTurnFromThePlayersFrameToSeatsForThreePlayers) {
  const std::shared_ptr<const Game> game = load_toy("toy_race");
  std::unique_ptr<State> state = game->new_initial_state();
  state->apply(0);  // seat 0 takes one token
  state->apply(2);  // and ends its turn: seat 1 to move, with "take one" and "take two"
  ASSERT_EQ(state->current_player(), 1);
  // Output j is the value of seat 1 + j: seat 1, seat 2, seat 0.
  const std::vector<Evaluation> out = decode(*state, 1, {0.0f, std::log(3.0f), 5.0f}, {0.1f, 0.2f, 0.3f});
  EXPECT_EQ(out[0].value, (std::vector<float>{0.3f, 0.1f, 0.2f}));
  // The prior: softmax over the legal actions only (the third output is not legal here).
  ASSERT_EQ(out[0].prior.size(), 2u);
  EXPECT_NEAR(out[0].prior[0], 0.25f, 1e-6f);
  EXPECT_NEAR(out[0].prior[1], 0.75f, 1e-6f);
}

TEST(NetworkEvaluator, ValuesMapBackToTheGamesReturnRange) {
  const std::shared_ptr<const Game> game = load_game("kuhn_poker");
  std::unique_ptr<State> state = game->new_initial_state();
  state->apply(0);
  state->apply(2);
  ASSERT_EQ(state->current_player(), 0);
  // Kuhn poker's returns lie in [-2, 2]; the network's values in [-1, 1].
  const std::vector<Evaluation> out = decode(*state, 0, {0.0f, 0.0f, 0.0f}, {0.5f, -0.25f});
  EXPECT_FLOAT_EQ(out[0].value[0], 1.0f);
  EXPECT_FLOAT_EQ(out[0].value[1], -0.5f);
}

TEST(NetworkEvaluator, AStandingsNetworksValuesAreAddedToTheDrawsReturnsNow) {
  // War on 10x10: A's knights reach B's general on A's first turn (b2 -> c4 -> d6 -> e8 -> c7 -> b9).
  const std::shared_ptr<const Game> game = load_game("war(players=4,width=10,height=10)");
  std::unique_ptr<State> state = game->new_initial_state();
  for (const char* sub : {"Kc4", "Kd6", "Ke8", "Kc7", "Kb9"}) state->apply(state->string_to_action(sub));
  ASSERT_TRUE(state->is_out(1));
  ASSERT_EQ(state->current_player(), 2);
  // Output j is seat 2 + j: C, D, A, B. A draw now gives A, C and D a third each, B -1.
  const std::vector<float> values = {0.5f, -0.25f, 0.0f, 0.0f};
  const std::vector<Evaluation> shifted = decode(*state, 2, std::vector<float>(game->num_distinct_actions()), values, true);
  const std::vector<float> expected = {1.0f / 3, -1.0f, 5.0f / 6, 1.0f / 12};
  for (int seat = 0; seat < 4; ++seat) EXPECT_NEAR(shifted[0].value[seat], expected[seat], 1e-6f) << seat;
  // A value beyond what the game can return is held at its end; without the flag, no shift.
  const std::vector<Evaluation> held = decode(*state, 2, std::vector<float>(game->num_distinct_actions()), {0.9f, 0, 0, 0}, true);
  EXPECT_FLOAT_EQ(held[0].value[2], 1.0f);
  const std::vector<Evaluation> plain = decode(*state, 2, std::vector<float>(game->num_distinct_actions()), values);
  EXPECT_EQ(plain[0].value, (std::vector<float>{0.0f, 0.0f, 0.5f, -0.25f}));
  // A game without standings ignores the flag.
  const std::shared_ptr<const Game> kuhn = load_game("kuhn_poker");
  std::unique_ptr<State> deal = kuhn->new_initial_state();
  deal->apply(0);
  deal->apply(2);
  EXPECT_FLOAT_EQ(decode(*deal, 0, {0.0f, 0.0f, 0.0f}, {0.5f, -0.25f}, true)[0].value[0], 1.0f);
}

TEST(NetworkEvaluator, RequestsThatAreNotForASeatAreRefused) {
  const std::shared_ptr<const Game> game = load_game("biased_rps");
  const std::unique_ptr<State> state = game->new_initial_state();
  const std::string message = error_of<InputError>([&] { decode(*state, kSimultaneousPlayer, {0, 0, 0}, {0, 0}); });
  EXPECT_EQ(message.rfind("network evaluator: a request for player -2; ", 0), 0u) << message;
  const std::string players = error_of<InputError>([&] { decode(*state, 0, {0, 0, 0}, {0, 0, 0}); });
  EXPECT_EQ(players, "network evaluator: the network has 3 value outputs, biased_rps has 2 players");
}

}  // namespace
}  // namespace boardlab
