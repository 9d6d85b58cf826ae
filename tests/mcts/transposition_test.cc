// Tests for transpositions: shared children only between equal positions, proofs through shared blocks, reuse copying a shared block once.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/random_play.h"
#include "games/registry.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "tests/mcts/search_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

std::unique_ptr<State> random_position(const Game& game, std::uint64_t seed, int steps) {
  Rng rng(seed);
  while (true) {
    std::unique_ptr<State> state = game.new_initial_state();
    std::vector<Action> joint;
    for (int i = 0; i < steps && !state->is_terminal(); ++i) apply_random_step(*state, rng, joint);
    if (!state->is_terminal()) return state;
  }
}

// The nodes that point at each children block (its first child), with their positions'
// hashes, found by walking the tree (a DAG once blocks are shared) from the root.
std::map<std::int32_t, std::vector<std::pair<std::int32_t, std::uint64_t>>> owners_of_blocks(const Tree& tree,
                                                                                              const State& root) {
  std::map<std::int32_t, std::vector<std::pair<std::int32_t, std::uint64_t>>> owners;
  std::set<std::int32_t> seen;
  std::function<void(std::int32_t, const State&)> walk = [&](std::int32_t node, const State& state) {
    if (!seen.insert(node).second) return;
    const Node& n = tree[node];
    if (n.first_child < 0) return;
    owners[n.first_child].emplace_back(node, state.hash());
    for (std::int32_t c = 0; c < n.num_children; ++c) {
      std::unique_ptr<State> next = state.clone();
      next->apply(tree[n.first_child + c].action);
      walk(n.first_child + c, *next);
    }
  };
  walk(Tree::kRoot, root);
  return owners;
}

SearchConfig with_transpositions(int simulations) {
  SearchConfig config;
  config.simulations = simulations;
  config.transpositions = true;
  return config;
}

TEST(Transpositions, OnlyEqualPositionsShareChildren) {
  // Virus War's three sub-moves commute: a turn's positions are reached in several orders.
  const auto game = load_game("virus_war");
  int shared = 0;
  for (std::uint64_t seed : {1, 2, 3}) {
    const auto root = random_position(*game, seed, 12);
    Search search(*game, with_transpositions(3000), seed);
    RolloutEvaluator evaluator(seed);
    search_from(search, PlayerView::of_mover(*root), evaluator);
    const Tree& tree = search.tree();
    for (const auto& [block, owners] : owners_of_blocks(tree, *root)) {
      int owner_visits = 0, below = 0;
      bool proven = false;
      for (const auto& [node, hash] : owners) {
        EXPECT_EQ(hash, owners.front().second) << "node " << node << " shares block " << block;
        EXPECT_EQ(tree[node].num_children, tree[owners.front().first].num_children);
        EXPECT_EQ(tree[node].mover, tree[owners.front().first].mover);
        owner_visits += tree[node].visits;
        proven = proven || tree.is_proven(node);
      }
      for (std::int32_t c = 0; c < tree[owners.front().first].num_children; ++c) below += tree[block + c].visits;
      // Each owner keeps its own edge statistics; the block's visits are all of theirs
      // but the one evaluation that expanded it.
      if (!proven) {
        EXPECT_EQ(below, owner_visits - 1) << "block " << block;
      }
      shared += owners.size() > 1;
    }
    for (std::int32_t i = 0; i < tree.size(); ++i) ASSERT_EQ(tree[i].in_flight, 0);
  }
  EXPECT_GT(shared, 10);
}

TEST(Transpositions, ProofsGoThroughSharedBlocks) {
  // toy_race: taking 1 then 1 and taking 2 then ending reach the same position. The
  // solved root is the same with and without transpositions (two players: the minimax
  // value is unique).
  for (int tokens : {6, 8, 10}) {
    const auto game = load_toy("toy_race(players=2,tokens=" + std::to_string(tokens) + ")");
    const auto root = game->new_initial_state();
    std::vector<std::vector<float>> proofs;
    for (bool transpositions : {false, true}) {
      SearchConfig config = with_transpositions(200000);
      config.transpositions = transpositions;
      config.c_puct = 100;  // wide: every line gets proven
      Search search(*game, config, 1);
      FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
      search_from(search, PlayerView::of_mover(*root), evaluator);
      proofs.push_back(proven_vector(search.tree(), Tree::kRoot));
      ASSERT_EQ(proofs.back().size(), 2u) << tokens << " " << transpositions;
      if (transpositions) {
        int shared = 0;
        for (const auto& [block, owners] : owners_of_blocks(search.tree(), *root)) shared += owners.size() > 1;
        EXPECT_GT(shared, 0) << tokens;
      }
    }
    EXPECT_EQ(proofs[0], proofs[1]) << tokens;
  }
}

TEST(Transpositions, TreeReuseCopiesASharedBlockOnce) {
  const auto game = load_game("virus_war");
  SearchConfig config = with_transpositions(3000);
  config.reuse_tree = true;
  auto state = random_position(*game, 4, 10);
  Search search(*game, config, 4);
  RolloutEvaluator evaluator(4);
  SearchResult result = search_from(search, PlayerView::of_mover(*state), evaluator);
  int checked = 0;
  for (int move = 0; move < 4 && !state->is_terminal(); ++move) {
    const std::int32_t child = search.tree().find_child(Tree::kRoot, result.action);
    ASSERT_GE(child, 0);
    state->apply(result.action);
    if (state->is_terminal()) break;
    const bool kept = search.tree()[child].status == NodeStatus::kExpanded;
    search.start(PlayerView::of_mover(*state));
    const Tree& tree = search.tree();
    if (kept) {
      // Every node but the root sits in exactly one block, and a block shared before the
      // reroot is still shared: the arena holds no copy of it.
      const auto owners = owners_of_blocks(tree, *state);
      std::int32_t in_blocks = 0;
      int shared = 0;
      for (const auto& [block, nodes] : owners) {
        in_blocks += tree[nodes.front().first].num_children;
        shared += nodes.size() > 1;
      }
      EXPECT_EQ(tree.size(), 1 + in_blocks);
      EXPECT_GT(shared, 0);
      ++checked;
    }
    SearchDriver driver(evaluator);
    Search* searches[] = {&search};
    driver.run(searches);
    result = search.result();
  }
  EXPECT_GE(checked, 2);
}

}  // namespace
}  // namespace boardlab
