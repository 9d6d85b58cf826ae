// Tests for self-play records: chance drawn by the worker, forced steps without positions, one target per searched position, truncation, and the games it refuses.
#include "core/steps.h"
#include "nn/self_play.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/errors.h"
#include "mcts/rollout_evaluator.h"
#include "nn_test_games.h"
#include "nn_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

using nn_testing::CoinNimGame;
using nn_testing::error_of;

std::vector<SelfPlayGame> self_play(const Game& game, std::int64_t positions, std::uint64_t seed) {
  SearchConfig search;
  search.simulations = 4;
  SelfPlayConfig config;
  config.concurrent_games = 8;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(game.num_players());
  SelfPlayWorker worker(game, search, config, evaluator, seed);
  std::vector<SelfPlayGame> games;
  const std::atomic<bool> stop{false};
  worker.run(positions, stop, [&](SelfPlayGame&& g) { games.push_back(std::move(g)); });
  return games;
}

TEST(SelfPlay, RecordsChanceForcedAndSearchedStepsOfEveryGame) {
  const CoinNimGame game;
  const std::vector<SelfPlayGame> games = self_play(game, 1500, 7);
  ASSERT_GT(games.size(), 200u);
  ReplayBuffer replay(game, 1 << 20);
  int heads = 0, forced = 0, searched = 0;
  std::vector<Action> legal;
  for (const SelfPlayGame& g : games) {
    // Replayed here step by step: each step names who acted, and a position (one target,
    // the mover's, over its legal actions) stands before every step with a choice.
    std::unique_ptr<State> state = game.new_initial_state();
    std::size_t next = 0;
    for (std::size_t i = 0; i < g.steps.size(); ++i) {
      const Player actor = state->current_player();
      ASSERT_EQ(g.steps[i].player, actor) << "step " << i;
      state->legal_actions(actor, legal);
      const bool has_position = next < g.positions.size() && g.positions[next].ply == static_cast<int>(i);
      if (actor == kChancePlayer) {
        EXPECT_EQ(i, 0u);
        EXPECT_FALSE(has_position) << "chance is drawn, not searched";
        heads += g.steps[i].action == 1;
      } else if (legal.size() == 1) {
        EXPECT_FALSE(has_position) << "a forced step is no position";
        ++forced;
      } else {
        ASSERT_TRUE(has_position) << "step " << i << " had a choice";
        const SelfPlayGame::Position& position = g.positions[next++];
        ASSERT_EQ(position.targets.size(), 1u);
        EXPECT_EQ(position.targets[0].player, actor);
        EXPECT_EQ(position.targets[0].legal, legal);
        EXPECT_NEAR(std::accumulate(position.targets[0].policy.begin(), position.targets[0].policy.end(), 0.0), 1.0, 1e-5);
        ++searched;
      }
      state->apply(g.steps[i].action);
    }
    EXPECT_EQ(next, g.positions.size());
    EXPECT_TRUE(state->is_terminal());
    EXPECT_EQ(g.returns, state->returns());
    EXPECT_FALSE(g.truncated);
    replay.add(g);
  }
  EXPECT_GT(forced, 0);
  EXPECT_GT(searched, 0);
  // The coin is drawn with its probabilities by the worker's own random stream.
  const double n = static_cast<double>(games.size());
  EXPECT_NEAR(heads / n, CoinNimGame::kHeads, 5 * std::sqrt(CoinNimGame::kHeads * (1 - CoinNimGame::kHeads) / n));
}

TEST(SelfPlay, GamesEndedByACapSaySo) {
  const std::shared_ptr<const Game> game = load_game("morabaraba(move_cap=8)");
  const std::vector<SelfPlayGame> games = self_play(*game, 60, 3);
  ASSERT_FALSE(games.empty());
  ReplayBuffer replay(*game, 1 << 20);
  for (const SelfPlayGame& g : games) {
    EXPECT_TRUE(g.truncated);
    const std::unique_ptr<State> state = game->new_initial_state();
    apply_steps(*state, g.steps);
    EXPECT_TRUE(state->is_truncated());
    replay.add(g);
  }
}

TEST(SelfPlay, RefusesGamesItsSearchDoesNotPlayYet) {
  SearchConfig search;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  const std::string simultaneous =
      error_of<InputError>([&] { SelfPlayWorker(*load_toy("toy_matrix"), search, SelfPlayConfig{}, evaluator, 1); });
  EXPECT_EQ(simultaneous.rfind("self-play: toy_matrix has simultaneous moves; ", 0), 0u) << simultaneous;
  const std::string hidden =
      error_of<InputError>([&] { SelfPlayWorker(*load_toy("toy_kuhn"), search, SelfPlayConfig{}, evaluator, 1); });
  EXPECT_EQ(hidden.rfind("self-play: toy_kuhn has imperfect information; ", 0), 0u) << hidden;
}

}  // namespace
}  // namespace boardlab
