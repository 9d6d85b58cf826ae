// Tests for KataGo's forced playouts and policy target pruning: a hand-built root, and searches that force and prune.
#include "mcts/forced_playouts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/errors.h"
#include "core/rng.h"
#include "games/registry.h"
#include "mcts/evaluator.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

struct Child {
  float prior;
  int visits;
  float mean;  // value for the root's mover
};

Tree root_with(const std::vector<Child>& children) {
  Tree tree;
  tree.set_players(2);
  const std::int32_t first = tree.add_children(Tree::kRoot, static_cast<std::int32_t>(children.size()));
  Node& root = tree[Tree::kRoot];
  root.status = NodeStatus::kExpanded;
  root.mover = 0;
  root.visits = 1;  // its own evaluation
  for (std::size_t c = 0; c < children.size(); ++c) {
    Node& child = tree[first + static_cast<std::int32_t>(c)];
    child.action = static_cast<Action>(c);
    child.prior = children[c].prior;
    child.visits = children[c].visits;
    child.value_sum = children[c].mean * static_cast<float>(children[c].visits);
    tree[Tree::kRoot].visits += children[c].visits;
  }
  return tree;
}

TEST(ForcedPlayouts, TheOwedVisitsAreTheSquareRootOfTwicePriorTimesVisits) {
  EXPECT_DOUBLE_EQ(forced_playouts(0.5f, 100), 10.0);
  EXPECT_DOUBLE_EQ(forced_playouts(0.125f, 16), 2.0);
  EXPECT_DOUBLE_EQ(forced_playouts(0.0f, 1000), 0.0);
  // The child furthest behind what it is owed, or none.
  const Tree tree = root_with({{0.5f, 10, 0.1f}, {0.4f, 0, 0.0f}, {0.1f, 0, 0.0f}});
  EXPECT_EQ(forced_root_child(tree), tree[Tree::kRoot].first_child + 1);  // owed sqrt(8) and has none
  const Tree served = root_with({{0.5f, 10, 0.1f}, {0.4f, 4, 0.0f}, {0.1f, 2, 0.0f}});  // owed 3.5 and 1.8
  EXPECT_EQ(forced_root_child(served), -1);
}

TEST(ForcedPlayouts, PruningTakesBackTheVisitsPuctWouldNotHaveGiven) {
  // 102 child visits, root visits 103, c_puct 1.25. The most visited child (0) scores
  // 0.5 + 1.25 · 0.45 · sqrt(103) / 61 = 0.5936 and keeps its 60 visits.
  // Child 1 (Q 0.45): at 26 visits it scores 0.5910 <= 0.5936, at 25 it would score
  //   0.5964: 26 kept (above 30 - sqrt(2 · 0.3 · 102) = 22.2, the most forcing could have given).
  // Child 2 (Q -0.5, prior 0.15): PUCT alone would have stopped at 1, but at most
  //   sqrt(2 · 0.15 · 102) = 5.5 of its 10 visits were forced: ceil(4.47) = 5 kept.
  // Child 3: never visited. Child 4 (Q -1): none of its 2 visits were earned: dropped.
  const Tree tree = root_with({{0.45f, 60, 0.5f}, {0.3f, 30, 0.45f}, {0.15f, 10, -0.5f}, {0.0f, 0, 0.0f}, {0.1f, 2, -1.0f}});
  SearchConfig config;
  config.c_puct = 1.25f;
  EXPECT_EQ(pruned_root_visits(tree, config), (std::vector<float>{60, 26, 5, 0, 0}));
  // A child left with a single visit is dropped too: all 3 visits of child 1 could have
  // been forced (sqrt(2 · 0.2 · 43) = 4.1), and PUCT alone would have given it one.
  const Tree single = root_with({{0.5f, 40, 0.5f}, {0.2f, 3, -1.0f}});
  EXPECT_EQ(pruned_root_visits(single, config), (std::vector<float>{40, 0}));
  // A child whose value beats the most visited one's score keeps everything.
  const Tree better = root_with({{0.5f, 40, 0.0f}, {0.1f, 8, 0.9f}});
  EXPECT_EQ(pruned_root_visits(better, config), (std::vector<float>{40, 8}));
}

// Virus War with at least 12 root actions, uniform priors, and values that make the root's
// first action good for its mover (+0.8) and every other one bad (-0.8): PUCT alone
// visits the bad ones about once, forcing gives them their sqrt(2 · P · N).
struct Searched {
  std::vector<float> prior, policy;
  std::vector<int> visits;
  std::vector<float> pruned;
};
Searched search_peaked(bool forced, bool explore) {
  const auto game = load_game("virus_war");
  std::unique_ptr<State> state = game->new_initial_state();
  Rng rng(3);
  while (state->legal_actions().size() < 12) state->apply(state->random_legal_action(rng));
  SearchConfig config;
  config.simulations = 200;
  config.forced_playouts = forced;
  const std::size_t ply = state->history().size();
  const Player mover = state->current_player();
  const Action good = state->legal_actions().front();
  FunctionEvaluator evaluator([&](const State& leaf, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    const std::vector<Step> history = leaf.history();
    const float value = history.size() == ply ? 0.0f : history[ply].action == good ? 0.8f : -0.8f;
    eval.value.assign(2, -value);
    eval.value[static_cast<std::size_t>(mover)] = value;
  });
  Search search(*game, config, 5);
  search.start(PlayerView::of_mover(*state), {200, explore});
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  driver.run(searches);
  const SearchResult result = search.result();
  Searched out{{}, result.policy, result.visits, pruned_root_visits(search.tree(), config)};
  const Node& root = search.tree()[Tree::kRoot];
  for (std::int32_t c = 0; c < root.num_children; ++c) out.prior.push_back(search.tree()[root.first_child + c].prior);
  return out;
}

TEST(ForcedPlayouts, ASearchGivesEveryChildItsForcedVisitsAndTrainsOnThePrunedVisits) {
  const Searched forced = search_peaked(true, true);
  const int total = std::accumulate(forced.visits.begin(), forced.visits.end(), 0);
  EXPECT_EQ(total, 200);
  ASSERT_GE(forced.visits.size(), 12u);
  for (std::size_t c = 0; c < forced.visits.size(); ++c)
    EXPECT_GE(forced.visits[c] + 1, std::floor(forced_playouts(forced.prior[c], total))) << "child " << c;
  // The target is the pruned visits, normalized: not the visit distribution.
  const float kept = std::accumulate(forced.pruned.begin(), forced.pruned.end(), 0.0f);
  ASSERT_GT(kept, 0.0f);
  EXPECT_LT(kept, static_cast<float>(total));
  for (std::size_t c = 0; c < forced.policy.size(); ++c) EXPECT_FLOAT_EQ(forced.policy[c], forced.pruned[c] / kept);

  // Forcing spent visits on bad actions that pruning took back out.
  EXPECT_GT(std::count(forced.pruned.begin() + 1, forced.pruned.end(), 0.0f), 5);
  // Without forcing (or a fast search without exploration) the bad children go short of
  // what they would be owed, and the target is the plain visit distribution.
  for (const auto& [flag, explore] : {std::pair{false, true}, std::pair{true, false}}) {
    const Searched plain = search_peaked(flag, explore);
    int short_of_owed = 0;
    for (std::size_t c = 0; c < plain.visits.size(); ++c)
      short_of_owed += plain.visits[c] + 1 < std::floor(forced_playouts(plain.prior[c], 200));
    EXPECT_GT(short_of_owed, 0);
    for (std::size_t c = 0; c < plain.policy.size(); ++c)
      EXPECT_FLOAT_EQ(plain.policy[c], static_cast<float>(plain.visits[c]) / 200.0f);
  }
}

TEST(ForcedPlayouts, OnlyPuctForces) {
  SearchConfig config;
  config.algorithm = SearchAlgorithm::kGumbel;
  config.forced_playouts = true;
  EXPECT_EQ(error_of<InputError>([&] { validate(config); }),
            "search option 'forced_playouts' must be off unless algorithm is puct");
  SearchConfig parsed;
  set_search_options(parsed, "algorithm=puct,forced_playouts=true");
  EXPECT_TRUE(parsed.forced_playouts);
}

}  // namespace
}  // namespace boardlab
