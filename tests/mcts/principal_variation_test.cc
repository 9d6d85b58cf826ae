// The best line read off a search tree: most visited actions from the root, legal in turn, cut at chance and simultaneous nodes.
#include "mcts/principal_variation.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "games/registry.h"
#include "mcts/rollout_evaluator.h"
#include "tests/mcts/search_test_util.h"

namespace boardlab {
namespace {

SearchConfig puct(int simulations) {
  SearchConfig config;
  config.algorithm = SearchAlgorithm::kPuct;
  config.simulations = simulations;
  return config;
}

TEST(PrincipalVariation, FollowsTheMostVisitedActionsAndStaysLegal) {
  const auto game = load_game("virus_war");
  auto state = game->new_initial_state();
  for (const char* move : {"a1", "b2", "c3", "k10"})
    state->apply(state->string_to_action(state->current_player(), move));
  RolloutEvaluator evaluator(3);
  Search search(*game, puct(300), 3);
  search_from(search, PlayerView::of_mover(*state), evaluator);
  const std::vector<Action> line = principal_variation(search.tree(), 6);
  ASSERT_FALSE(line.empty());
  EXPECT_LE(line.size(), 6u);
  // Its first action is a most visited child of the root.
  const Tree& tree = search.tree();
  const Node& root = tree[Tree::kRoot];
  int most = 0;
  for (std::int32_t c = 0; c < root.num_children; ++c) most = std::max(most, tree[root.first_child + c].visits);
  for (std::int32_t c = 0; c < root.num_children; ++c) {
    if (tree[root.first_child + c].action == line[0]) {
      EXPECT_EQ(tree[root.first_child + c].visits, most);
    }
  }
  // Each action is legal where it comes.
  for (const Action action : line) {
    const std::vector<Action> legal = state->legal_actions(state->current_player());
    ASSERT_NE(std::find(legal.begin(), legal.end(), action), legal.end());
    state->apply(action);
  }
  EXPECT_TRUE(principal_variation(search.tree(), 0).empty());
}

TEST(PrincipalVariation, IsEmptyAtASimultaneousRoot) {
  const auto game = load_game("squares");
  auto state = game->new_initial_state();
  RolloutEvaluator evaluator(4);
  Search search(*game, puct(50), 4);
  search_from(search, PlayerView(*state, 0), evaluator);
  EXPECT_TRUE(principal_variation(search.tree(), 10).empty());
}

}  // namespace
}  // namespace boardlab
