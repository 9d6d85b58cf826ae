// Tests for the solver: proven return vectors against an independent brute-force max^n on the 3-player race, and where it stays off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "games/registry.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "tests/mcts/search_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

using Vector = std::vector<double>;

// Every max^n value `state` can have under some way of breaking the movers' ties, by brute
// force over the game API. Under a tie-breaking rule, a mover picks a child whose vector
// is best for it; different subtrees break their ties independently, so child c's vector
// u can be the pick exactly when every other child c' has some value w with
// w[mover] <= u[mover]. A solver that breaks ties in any consistent way must prove one of
// these vectors at every node.
class MaxN {
 public:
  const std::set<Vector>& values(const State& state) {
    const std::uint64_t key = state.hash();
    if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
    std::set<Vector> out;
    if (state.is_terminal()) {
      out.insert(state.returns());
    } else {
      const Player mover = state.current_player();
      std::vector<std::set<Vector>> children;
      for (Action a : state.legal_actions()) {
        std::unique_ptr<State> next = state.clone();
        next->apply(a);
        children.push_back(values(*next));
      }
      for (std::size_t c = 0; c < children.size(); ++c) {
        for (const Vector& u : children[c]) {
          bool can_win = true;
          for (std::size_t d = 0; d < children.size() && can_win; ++d) {
            if (d == c) continue;
            double lowest = 1e9;
            for (const Vector& w : children[d]) lowest = std::min(lowest, w[mover]);
            can_win = lowest <= u[mover];
          }
          if (can_win) out.insert(u);
        }
      }
    }
    return memo_.emplace(key, std::move(out)).first->second;
  }

 private:
  std::map<std::uint64_t, std::set<Vector>> memo_;
};

bool contains(const std::set<Vector>& values, const std::vector<float>& proven) {
  for (const Vector& v : values) {
    bool equal = v.size() == proven.size();
    for (std::size_t p = 0; p < v.size() && equal; ++p) equal = std::abs(v[p] - proven[p]) < 1e-6;
    if (equal) return true;
  }
  return false;
}

SearchConfig config_for(SearchAlgorithm algorithm, int simulations) {
  SearchConfig config;
  config.algorithm = algorithm;
  config.simulations = simulations;
  return config;
}

// Wide exploration, so that every line is searched and the root gets proven: these tests
// are about what the solver proves. (At the default c_puct a proven child that is best
// for its mover takes nearly every visit, and its unproven siblings, needed for a proof
// without a winning child, are proven only slowly.)
SearchConfig proving_config(SearchAlgorithm algorithm, int simulations) {
  SearchConfig config = config_for(algorithm, simulations);
  config.c_puct = 100;
  config.uct_c = 100;
  return config;
}

// Walks the tree with states, checking each proven node against the brute force and
// against the propagation rule (a child giving the mover the maximum return, else the
// first of the mover's best children). Returns the number of proven nodes.
// `ambiguous` counts the proven nodes where ties allow several values.
int check_proven(const Tree& tree, std::int32_t node, const State& state, MaxN& brute, float max_return,
                 int& ambiguous) {
  const Node& n = tree[node];
  int proven = 0;
  if (tree.is_proven(node)) {
    ++proven;
    const std::vector<float> value = proven_vector(tree, node);
    EXPECT_TRUE(contains(brute.values(state), value)) << state.to_string();
    ambiguous += brute.values(state).size() > 1;
    if (n.status == NodeStatus::kTerminal) {
      const Vector returns = state.returns();
      for (std::size_t p = 0; p < returns.size(); ++p) EXPECT_FLOAT_EQ(value[p], static_cast<float>(returns[p]));
    } else {
      EXPECT_EQ(n.status, NodeStatus::kExpanded);
      std::vector<std::vector<float>> children;
      for (std::int32_t c = 0; c < n.num_children; ++c) children.push_back(proven_vector(tree, n.first_child + c));
      const auto winning = std::find_if(children.begin(), children.end(), [&](const std::vector<float>& v) {
        return !v.empty() && v[n.mover] >= max_return && v == value;
      });
      if (winning == children.end()) {
        // Every child proven, and the value is the first best one's.
        const bool all_proven = std::none_of(children.begin(), children.end(),
                                             [](const std::vector<float>& v) { return v.empty(); });
        EXPECT_TRUE(all_proven) << "a proven node with an unproven child and no winning one";
        if (all_proven) {
          std::size_t best = 0;
          for (std::size_t c = 0; c < children.size(); ++c)
            if (children[c][n.mover] > children[best][n.mover]) best = c;
          EXPECT_EQ(value, children[best]);
        }
      }
    }
  }
  for (std::int32_t c = 0; c < n.num_children; ++c) {
    std::unique_ptr<State> next = state.clone();
    next->apply(tree[n.first_child + c].action);
    proven += check_proven(tree, n.first_child + c, *next, brute, max_return, ambiguous);
  }
  return proven;
}

TEST(Solver, ProvenVectorsAreMaxNValuesOfTheThreePlayerRace) {
  int ambiguous = 0;
  for (const char* name : {"toy_race(players=3,tokens=7)", "toy_race(players=3,tokens=9)", "toy_race(players=4,tokens=6)"}) {
    const auto game = load_toy(name);
    const auto root = game->new_initial_state();
    MaxN brute;
    for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kUct}) {
      SCOPED_TRACE(std::string(name) + " " + std::string(algorithm_name(algorithm)));
      Search search(*game, proving_config(algorithm, 200000), 1);
      FunctionEvaluator evaluator = FunctionEvaluator::uniform(game->num_players());
      const SearchResult result = search_from(search, PlayerView::of_mover(*root), evaluator);
      ASSERT_TRUE(search.tree().is_proven(Tree::kRoot)) << "the budget did not prove the root";
      EXPECT_LT(result.simulations, 200000);
      const int proven = check_proven(search.tree(), Tree::kRoot, *root, brute, 1.0f, ambiguous);
      EXPECT_GT(proven, 20);
      // The move played is a proven child as good for the mover as the root.
      const std::int32_t chosen = search.tree().find_child(Tree::kRoot, result.action);
      ASSERT_GE(chosen, 0);
      EXPECT_EQ(proven_vector(search.tree(), chosen)[0], proven_vector(search.tree(), Tree::kRoot)[0]);
      EXPECT_EQ(result.proven_win, proven_vector(search.tree(), Tree::kRoot)[0] == 1.0f);
    }
  }
  // With 3 or more players ties matter: many proven nodes could have had several values.
  EXPECT_GT(ambiguous, 20);
}

TEST(Solver, WithTwoPlayersTheProvenValueIsTheUniqueMinimaxValue) {
  // (From 2 tokens: with one, the root's only action leaves nothing to search.)
  for (int tokens = 2; tokens <= 12; ++tokens) {
    const auto game = load_toy("toy_race(players=2,tokens=" + std::to_string(tokens) + ")");
    const auto root = game->new_initial_state();
    MaxN brute;
    const std::set<Vector>& exact = brute.values(*root);
    ASSERT_EQ(exact.size(), 1u) << tokens;
    Search search(*game, proving_config(SearchAlgorithm::kPuct, 100000), 2);
    FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
    const SearchResult result = search_from(search, PlayerView::of_mover(*root), evaluator);
    const std::vector<float> proven = proven_vector(search.tree(), Tree::kRoot);
    ASSERT_EQ(proven.size(), 2u) << tokens;
    EXPECT_FLOAT_EQ(proven[0], static_cast<float>(exact.begin()->at(0))) << tokens;
    EXPECT_FLOAT_EQ(proven[1], static_cast<float>(exact.begin()->at(1))) << tokens;
    // proven_win: the mover's proven value is the game's maximum return.
    EXPECT_EQ(result.proven_win, exact.begin()->at(0) == 1.0) << tokens;
  }
}

TEST(Solver, ProvenNodesBackUpTheirRealReturnVectors) {
  // With rank returns of 3 players (1, 0, -1, and halves for ties), a visit that stops at
  // a proven node adds that node's vector, not a win/loss: every edge's value_sum is the
  // sum of what its visits backed up for the player who chose it.
  const auto game = load_toy("toy_race(players=3,tokens=9)");
  const auto root = game->new_initial_state();
  auto value_of = [](const State& state, Player p) {
    const std::uint64_t h = state.hash() * (0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(p) * 0x1234567ULL);
    return static_cast<float>((h >> 40) % 1000) / 1000.0f - 0.5f;
  };
  Search search(*game, config_for(SearchAlgorithm::kPuct, 3000), 4);
  FunctionEvaluator evaluator([&](const State& state, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    eval.value = {value_of(state, 0), value_of(state, 1), value_of(state, 2)};
  });
  search_from(search, PlayerView::of_mover(*root), evaluator);
  const Tree& tree = search.tree();
  std::set<float> proven_returns;
  std::function<double(std::int32_t, const State&, Player)> expected = [&](std::int32_t node, const State& state,
                                                                            Player p) {
    const Node& n = tree[node];
    if (n.status == NodeStatus::kTerminal) return n.visits * state.returns()[p];
    if (n.status != NodeStatus::kExpanded) return 0.0;
    double sum = value_of(state, p);
    int below = 0;
    for (std::int32_t c = 0; c < n.num_children; ++c) {
      std::unique_ptr<State> next = state.clone();
      next->apply(tree[n.first_child + c].action);
      sum += expected(n.first_child + c, *next, p);
      below += tree[n.first_child + c].visits;
    }
    if (tree.is_proven(node)) {
      sum += (n.visits - 1 - below) * static_cast<double>(tree.proven_value(node)[p]);
      if (n.visits - 1 - below > 0) proven_returns.insert(tree.proven_value(node)[p]);
    }
    return sum;
  };
  int checked = 0;
  std::function<void(std::int32_t, const State&)> walk = [&](std::int32_t node, const State& state) {
    const Node& n = tree[node];
    for (std::int32_t c = 0; c < n.num_children; ++c) {
      std::unique_ptr<State> next = state.clone();
      next->apply(tree[n.first_child + c].action);
      EXPECT_NEAR(tree[n.first_child + c].value_sum, expected(n.first_child + c, *next, n.mover), 1e-3);
      ++checked;
      walk(n.first_child + c, *next);
    }
  };
  walk(Tree::kRoot, *root);
  EXPECT_GT(checked, 100);
  // Visits stopped at proven interior nodes whose vectors give a player the middle rank.
  EXPECT_TRUE(proven_returns.count(0.0f)) << "no visit stopped at a node proving a middle rank";
}

TEST(Solver, NothingIsProvenWithSimultaneousMovesOrHiddenInformation) {
  // biased_rps(rounds=1): every child of the root is terminal, yet an equilibrium is not a
  // maximum; kuhn_poker: a node stands for several deals with different returns.
  for (const char* name : {"biased_rps", "kuhn_poker"}) {
    SCOPED_TRACE(name);
    const auto game = load_game(name);
    auto state = game->new_initial_state();
    Rng rng(1);
    while (state->is_chance_node()) state->apply(state->random_legal_action(rng));
    const Player viewer = std::max<Player>(0, state->current_player());
    Search search(*game, config_for(SearchAlgorithm::kPuct, 500), 3);
    RolloutEvaluator evaluator(3);
    const SearchResult result = search_from(search, PlayerView(*state, viewer), evaluator);
    EXPECT_EQ(result.simulations, 500);
    EXPECT_FALSE(result.proven_win);
    int terminals = 0;
    for (std::int32_t i = 0; i < search.tree().size(); ++i) {
      EXPECT_FALSE(search.tree().is_proven(i)) << i;
      // Under information sets a terminal position is not marked (the deal decides whether
      // the game is over): it is a visited node never expanded.
      const Node& n = search.tree()[i];
      terminals += n.status == NodeStatus::kTerminal || (n.status == NodeStatus::kFresh && n.visits > 0);
    }
    EXPECT_GT(terminals, 0);
  }
}

}  // namespace
}  // namespace boardlab
