// Tests for search.policy_target: the improved policy replaces the visit share as the target, and nothing else changes.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "games/registry.h"
#include "mcts/gumbel.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/simultaneous.h"
#include "tests/mcts/search_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

// Uniform priors and a value that depends on the position, so that children's values differ.
FunctionEvaluator hashed_values(int players) {
  return FunctionEvaluator([players](const State& state, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    eval.value.resize(static_cast<std::size_t>(players));
    for (int p = 0; p < players; ++p)
      eval.value[p] = static_cast<float>((state.hash() >> (8 * p + 20)) % 1000) / 1000.0f - 0.5f;
  });
}

SearchConfig with_target(PolicyTarget target) {
  SearchConfig config;
  config.algorithm = SearchAlgorithm::kPuct;
  config.simulations = 60;
  config.simultaneous_selection = SimultaneousSelection::kPuct;
  config.temperature = 1;  // moves are sampled: they must still come from the visits
  config.policy_target = target;
  return config;
}

bool differs(const std::vector<float>& a, const std::vector<float>& b) {
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-3f) return true;
  return false;
}

TEST(PolicyTarget, CompletedQIsTheImprovedPolicyAtATurnAndLeavesTheSearchAndTheMoveAlone) {
  const auto game = load_toy("toy_race(players=2,tokens=12)");
  const auto root = game->new_initial_state();
  FunctionEvaluator evaluator = hashed_values(2);
  Search visits(*game, with_target(PolicyTarget::kVisits), 4);
  Search improved(*game, with_target(PolicyTarget::kCompletedQ), 4);
  const SearchResult a = search_from(visits, PlayerView(*root, 0), evaluator);
  const SearchResult b = search_from(improved, PlayerView(*root, 0), evaluator);
  EXPECT_EQ(a.visits, b.visits);
  EXPECT_EQ(a.action, b.action);
  std::vector<float> expected(b.policy.size());
  improved_policy(improved.tree(), Tree::kRoot, improved.config(), expected);
  for (std::size_t c = 0; c < expected.size(); ++c) EXPECT_FLOAT_EQ(b.policy[c], expected[c]);
  EXPECT_NEAR(std::accumulate(b.policy.begin(), b.policy.end(), 0.0), 1.0, 1e-5);
  EXPECT_TRUE(differs(a.policy, b.policy));
}

TEST(PolicyTarget, CompletedQIsEachSeatsImprovedPolicyAtASimultaneousRound) {
  const auto game = load_game("biased_rps(rounds=2)");
  const auto root = game->new_initial_state();
  FunctionEvaluator evaluator = hashed_values(2);
  Search visits(*game, with_target(PolicyTarget::kVisits), 6);
  Search improved(*game, with_target(PolicyTarget::kCompletedQ), 6);
  const SearchResult a = search_from(visits, PlayerView(*root, 0), evaluator);
  const SearchResult b = search_from(improved, PlayerView(*root, 0), evaluator);
  ASSERT_EQ(b.players.size(), 2u);
  std::vector<SeatBlock> blocks;
  seat_blocks(improved.tree(), Tree::kRoot, blocks);
  bool any_differs = false;
  for (std::size_t s = 0; s < 2; ++s) {
    const PlayerSearchResult& seat = b.players[s];
    EXPECT_EQ(seat.visits, a.players[s].visits);
    EXPECT_EQ(seat.action, a.players[s].action);
    std::vector<float> expected(seat.policy.size());
    improved_policy(improved.tree(), blocks[s].first, blocks[s].count, seat.value, improved.config(), expected);
    for (std::size_t c = 0; c < expected.size(); ++c) EXPECT_FLOAT_EQ(seat.policy[c], expected[c]);
    EXPECT_NEAR(std::accumulate(seat.policy.begin(), seat.policy.end(), 0.0), 1.0, 1e-5);
    any_differs = any_differs || differs(seat.policy, a.players[s].policy);
  }
  EXPECT_TRUE(any_differs);
}

}  // namespace
}  // namespace boardlab
