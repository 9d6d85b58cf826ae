// Tests for the score utility: what a terminal state and an evaluated leaf back up, per seat and at simultaneous rounds.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "games/registry.h"
#include "core/score_margin.h"
#include "mcts/search.h"
#include "tests/error_of.h"
#include "tests/mcts/search_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

// Uniform priors, `value` for every seat, and the requesting player's margin from `margin`
// (NaN: the evaluator predicts none).
class MarginEvaluator final : public Evaluator {
 public:
  MarginEvaluator(float value, std::function<float(const State&, Player)> margin)
      : value_(value), margin_(std::move(margin)) {}
  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      out[i].prior.assign(requests[i].legal.size(), 1.0f);
      out[i].value.assign(static_cast<std::size_t>(requests[i].state->game().num_players()), value_);
      out[i].score_margin = margin_(*requests[i].state, requests[i].player);
    }
  }

 private:
  float value_;
  std::function<float(const State&, Player)> margin_;
};

SearchConfig with_score_utility(float weight, int simulations) {
  SearchConfig config;
  config.score_utility = weight;
  config.simulations = simulations;
  return config;
}

TEST(ScoreUtility, IsRefusedForAGameWithoutAScoreOrWithMoreThanTwoPlayers) {
  const auto matrix = load_game("biased_rps(rounds=1)");
  EXPECT_NE(error_of([&] { Search(*matrix, with_score_utility(0.5f, 8), 1); }).find("declares no final score"),
            std::string::npos);
  const auto race = load_toy("toy_race(players=3)");
  EXPECT_NE(error_of([&] { Search(*race, with_score_utility(0.5f, 8), 1); }).find("two-player game"),
            std::string::npos);
  const auto two = load_toy("toy_race(players=2)");
  EXPECT_NO_THROW(Search(*two, with_score_utility(0.5f, 8), 1));
}

TEST(ScoreUtility, AnEvaluatorWithoutAMarginStopsTheSearchWithTheReason) {
  const auto game = load_toy("toy_race(players=2)");
  const auto root = game->new_initial_state();
  Search search(*game, with_score_utility(0.5f, 8), 1);
  MarginEvaluator evaluator(0.0f, [](const State&, Player) { return std::nanf(""); });
  const std::string error = error_of([&] { search_from(search, PlayerView(*root, 0), evaluator); });
  EXPECT_NE(error.find("network.score_head"), std::string::npos) << error;
}

// Every node of a sequential tree checked: a terminal node backs up (1 - w) · return +
// w · final margin of its parent's mover at each visit, and a node expanded once (no child
// visited yet) backs up (1 - w) · value + w · the margin its evaluation predicted for the
// mover, negated for the other seat.
TEST(ScoreUtility, TerminalsBackUpTheMixedMarginAndLeavesThePredictedOne) {
  const auto game = load_toy("toy_race(players=2,tokens=7)");
  const auto root = game->new_initial_state();
  constexpr float kWeight = 0.25f, kValue = 0.2f;
  // Depends on the position and on who asks, so a swapped seat shows.
  auto predicted = [](const State& state, Player p) {
    return static_cast<float>(state.hash() % 97) / 100.0f * (p == 0 ? 1.0f : -0.5f);
  };
  Search search(*game, with_score_utility(kWeight, 400), 3);
  MarginEvaluator evaluator(kValue, predicted);
  search_from(search, PlayerView(*root, 0), evaluator);
  const Tree& tree = search.tree();
  int terminals = 0, leaves = 0;
  std::function<void(std::int32_t, const State&)> check = [&](std::int32_t node, const State& state) {
    const Node& n = tree[node];
    for (std::int32_t c = 0; c < n.num_children; ++c) {
      const Node& child = tree[n.first_child + c];
      if (child.visits == 0) continue;
      std::unique_ptr<State> next = state.clone();
      next->apply(child.action);
      const Player chooser = n.mover;
      if (next->is_terminal()) {
        std::vector<float> margin(2);
        score_margins(*next, margin);
        const double expected = (1 - kWeight) * next->returns()[chooser] + kWeight * margin[chooser];
        EXPECT_NEAR(child.value_sum, child.visits * expected, 1e-4) << next->to_string();
        ++terminals;
      } else if (child.visits == 1 && child.status == NodeStatus::kExpanded) {
        const Player mover = next->current_player();
        const float margin = chooser == mover ? predicted(*next, mover) : -predicted(*next, mover);
        EXPECT_NEAR(child.value_sum, (1 - kWeight) * kValue + kWeight * margin, 1e-5) << next->to_string();
        ++leaves;
      }
      if (child.status == NodeStatus::kExpanded) check(n.first_child + c, *next);
    }
  };
  check(Tree::kRoot, *root);
  EXPECT_GT(terminals, 5);
  EXPECT_GT(leaves, 10);
}

// At a simultaneous round each seat's statistic backs up the margin its own request
// predicted, not the other seat's negated.
TEST(ScoreUtility, EachSeatOfASimultaneousRoundBacksUpItsOwnPredictedMargin) {
  const auto game = load_game("squares");
  const auto root = game->new_initial_state();
  // With lazy seats the leaf asks seat 0 alone, whose margin is seat 1's negated.
  for (bool lazy : {false, true}) {
    SCOPED_TRACE(lazy ? "lazy seats" : "every seat at once");
    SearchConfig config = with_score_utility(1.0f, 1);
    config.simultaneous_selection = SimultaneousSelection::kPuct;
    config.lazy_seats = lazy;
    Search search(*game, config, 5);
    MarginEvaluator evaluator(0.0f, [](const State&, Player p) { return p == 0 ? 0.5f : 0.125f; });
    search_from(search, PlayerView(*root, 0), evaluator);
    const Tree& tree = search.tree();
    const Node& node = tree[Tree::kRoot];
    int picked[2] = {0, 0};
    for (std::int32_t c = 0; c < node.num_children; ++c) {
      const Node& stat = tree[node.first_child + c];
      if (stat.visits == 0) continue;
      ++picked[stat.mover];
      EXPECT_FLOAT_EQ(stat.value_sum, stat.mover == 0 ? 0.5f : (lazy ? -0.5f : 0.125f));
    }
    EXPECT_EQ(picked[0], 1);
    EXPECT_EQ(picked[1], 1);
  }
}

}  // namespace
}  // namespace boardlab
