// Tests for chance nodes inside the tree: no evaluator request, visits by probability, values through them, proven expectations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/errors.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/selection.h"
#include "tests/mcts/search_test_util.h"

namespace boardlab {
namespace {

// A two-player game with chance in the middle. Player 0 stands (the game ends, 0 each) or
// rolls; chance then draws outcome 0, 1 or 2 with probabilities 0.5, 0.3, 0.2; then
// `depth` plies follow, player 1 first, alternating, each choosing 0 or 1 and adding
// kStep[(5·outcome + 3·ply + 7·action) mod 11] / depth to player 0's score. Returns are
// (score, −score).
constexpr double kStep[11] = {-0.9, 0.5, -0.3, 0.8, 0.1, -0.6, 0.7, -0.2, 0.4, -1.0, 0.6};
constexpr double kOutcomeProbability[3] = {0.5, 0.3, 0.2};

class ChanceToyGame final : public Game {
 public:
  explicit ChanceToyGame(int depth) : Game("chance_toy", {}), depth_(depth) {}
  GameType type() const override {
    GameType t;
    t.chance = Chance::kChanceNodes;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 3; }
  ObservationShape observation_shape() const override { return {1, 1, 1}; }
  int max_game_length() const override { return 2 + depth_; }
  std::unique_ptr<State> new_initial_state() const override;
  int depth() const { return depth_; }

 private:
  int depth_;
};

class ChanceToyState final : public State {
 public:
  explicit ChanceToyState(const ChanceToyGame& game) : State(game) {}

  Player current_player() const override {
    if (stood_ || ply_ == depth()) return kTerminalPlayer;
    if (history_.empty()) return 0;
    if (outcome_ < 0) return kChancePlayer;
    return ply_ % 2 == 0 ? 1 : 0;
  }
  int move_number() const override { return static_cast<int>(history_.size()); }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (player != current_player() || player == kTerminalPlayer) return;
    out = player == kChancePlayer ? std::vector<Action>{0, 1, 2} : std::vector<Action>{0, 1};
  }
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override {
    if (!is_chance_node()) return State::chance_outcomes(out);
    out.clear();
    for (Action o = 0; o < 3; ++o) out.push_back({o, kOutcomeProbability[o]});
  }
  void apply(Action action) override {
    const Player actor = current_player();
    const std::vector<Action> legal = legal_actions(actor);
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw IllegalActionError("chance_toy: illegal action " + std::to_string(action));
    history_.push_back({actor, action});
    if (actor == kChancePlayer) {
      outcome_ = action;
    } else if (outcome_ < 0) {
      stood_ = action == 0;
    } else {
      score_ += kStep[(5 * outcome_ + 3 * ply_ + 7 * action) % 11] / depth();
      ++ply_;
    }
  }
  void write_returns(std::span<double> out) const override {
    out[0] = is_terminal() ? score_ : 0.0;
    out[1] = -out[0];
  }
  void observation(Player, std::span<float> out) const override { out[0] = static_cast<float>(score_); }
  std::unique_ptr<State> clone() const override { return std::make_unique<ChanceToyState>(*this); }
  std::uint64_t hash() const override {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const Step& step : history_)
      h = (h ^ static_cast<std::uint64_t>(step.action + 4 * (step.player + 2))) * 0x100000001b3ULL;
    return h;
  }
  std::string to_string() const override { return "score " + std::to_string(score_); }
  std::string action_text(Player, Action action) const override { return std::to_string(action); }
  Action read_action(Player, std::string_view text) const override { return std::stoi(std::string(text)); }
  std::vector<Step> history() const override { return history_; }

 private:
  int depth() const { return static_cast<const ChanceToyGame&>(game()).depth(); }

  bool stood_ = false;
  Action outcome_ = -1;
  int ply_ = 0;
  double score_ = 0;
  std::vector<Step> history_;
};

std::unique_ptr<State> ChanceToyGame::new_initial_state() const { return std::make_unique<ChanceToyState>(*this); }

// The exact value by brute force: the expectation at chance, the mover's best elsewhere
// (the first best action on ties).
std::vector<double> expectimax(const State& state) {
  if (state.is_terminal()) return state.returns();
  if (state.is_chance_node()) {
    std::vector<double> value(2, 0.0);
    for (const ChanceOutcome& outcome : state.chance_outcomes()) {
      std::unique_ptr<State> next = state.clone();
      next->apply(outcome.action);
      const std::vector<double> child = expectimax(*next);
      for (int p = 0; p < 2; ++p) value[p] += outcome.probability * child[p];
    }
    return value;
  }
  std::vector<double> best;
  for (Action a : state.legal_actions()) {
    std::unique_ptr<State> next = state.clone();
    next->apply(a);
    std::vector<double> child = expectimax(*next);
    if (best.empty() || child[state.current_player()] > best[state.current_player()]) best = std::move(child);
  }
  return best;
}

SearchConfig config_for(SearchAlgorithm algorithm, int simulations) {
  SearchConfig config;
  config.algorithm = algorithm;
  config.simulations = simulations;
  config.gumbel_considered = 2;
  return config;
}

TEST(ChanceNodes, NoEvaluatorRequestIsForAChanceNode) {
  const ChanceToyGame game(6);
  const auto root = game.new_initial_state();
  for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel, SearchAlgorithm::kUct}) {
    SCOPED_TRACE(std::string(algorithm_name(algorithm)));
    Search search(game, config_for(algorithm, 200), 3);
    search.start(PlayerView::of_mover(*root));
    RolloutEvaluator evaluator(3);
    std::vector<Evaluation> evals;
    int requests = 0;
    while (!search.done()) {
      const int n = search.collect();
      for (const EvalRequest& request : search.requests()) {
        EXPECT_FALSE(request.state->is_chance_node());
        EXPECT_EQ(request.player, request.state->current_player());
        ++requests;
      }
      evals.resize(n);
      evaluator.evaluate(search.requests(), evals);
      search.backup(evals);
    }
    EXPECT_GT(requests, 20);
    // The tree did go through the chance node: the roll's outcomes are expanded with
    // their probabilities as priors.
    const std::int32_t roll = search.tree().find_child(Tree::kRoot, 1);
    ASSERT_GE(roll, 0);
    const Node& chance = search.tree()[roll];
    ASSERT_EQ(chance.status, NodeStatus::kExpanded);
    EXPECT_EQ(chance.mover, kChancePlayer);
    ASSERT_EQ(chance.num_children, 3);
    for (int o = 0; o < 3; ++o) EXPECT_FLOAT_EQ(search.tree()[chance.first_child + o].prior, static_cast<float>(kOutcomeProbability[o]));
  }
}

TEST(ChanceNodes, TheSelectionRuleKeepsEveryOutcomeWithinOneVisitOfItsShare) {
  // argmax p·(N+1) − n, applied 1000 times: every count stays within one of p·N.
  Tree tree;
  tree[Tree::kRoot].status = NodeStatus::kExpanded;
  tree[Tree::kRoot].mover = kChancePlayer;
  const double probabilities[] = {0.45, 0.3, 0.15, 0.1};
  const std::int32_t first = tree.add_children(Tree::kRoot, 4);
  for (int o = 0; o < 4; ++o) tree[first + o].prior = static_cast<float>(probabilities[o]);
  for (int n = 1; n <= 1000; ++n) {
    tree[select_chance_child(tree, Tree::kRoot)].visits += 1;
    for (int o = 0; o < 4; ++o) ASSERT_LE(std::abs(tree[first + o].visits - probabilities[o] * n), 1.0) << n;
  }
}

TEST(ChanceNodes, OutcomesAreVisitedInProportionInASearch) {
  const ChanceToyGame game(8);
  const auto root = game.new_initial_state();
  for (int leaves : {1, 4}) {
    SCOPED_TRACE(leaves);
    SearchConfig config = config_for(SearchAlgorithm::kPuct, 400);
    config.leaves_per_step = leaves;
    Search search(game, config, 5);
    RolloutEvaluator evaluator(5);
    search_from(search, PlayerView::of_mover(*root), evaluator);
    const Tree& tree = search.tree();
    const Node& chance = tree[tree.find_child(Tree::kRoot, 1)];
    ASSERT_EQ(chance.num_children, 3);
    int total = 0;
    for (int o = 0; o < 3; ++o) total += tree[chance.first_child + o].visits;
    EXPECT_GT(total, 50);
    EXPECT_FALSE(tree.is_proven(tree.find_child(Tree::kRoot, 1)));  // too deep to prove at this budget
    // Leaves that met a pending node gave their pick back, which can leave a count one more off.
    const double slack = leaves == 1 ? 1.0 : 2.0;
    for (int o = 0; o < 3; ++o)
      EXPECT_LE(std::abs(tree[chance.first_child + o].visits - kOutcomeProbability[o] * total), slack) << o;
  }
}

TEST(ChanceNodes, TheValueBackedUpThroughAChanceNodeIsTheChilds) {
  // State-dependent values, not zero-sum: the edge into the chance node (chosen by player
  // 0) sums player 0's values over the whole subtree below the outcomes, and the outcome
  // edges, chosen by nobody, hold no value.
  auto value_of = [](const State& state, Player p) {
    const std::uint64_t h = state.hash() * (p == 0 ? 0x9e3779b97f4a7c15ULL : 0xc2b2ae3d27d4eb4fULL);
    return static_cast<float>((h >> 40) % 1000) / 1000.0f - 0.5f;
  };
  const ChanceToyGame game(4);
  const auto root = game.new_initial_state();
  Search search(game, config_for(SearchAlgorithm::kPuct, 150), 7);
  FunctionEvaluator evaluator([&](const State& state, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    eval.value = {value_of(state, 0), value_of(state, 1)};
  });
  search_from(search, PlayerView::of_mover(*root), evaluator);
  const Tree& tree = search.tree();
  // The sum, for player p, of what the visits of `node` backed up.
  std::function<double(std::int32_t, const State&, Player)> expected = [&](std::int32_t node, const State& state,
                                                                            Player p) {
    const Node& n = tree[node];
    if (tree.is_proven(node) && n.status == NodeStatus::kTerminal) return n.visits * state.returns()[p];
    if (n.status != NodeStatus::kExpanded) return 0.0;
    const bool chance = n.mover == kChancePlayer;
    double sum = chance ? 0.0 : value_of(state, p);  // a chance node has no evaluation of its own
    int below = 0;
    for (std::int32_t c = 0; c < n.num_children; ++c) {
      std::unique_ptr<State> next = state.clone();
      next->apply(tree[n.first_child + c].action);
      sum += expected(n.first_child + c, *next, p);
      below += tree[n.first_child + c].visits;
    }
    const int stops = n.visits - below - (chance ? 0 : 1);  // visits that stopped at the proven node
    if (tree.is_proven(node)) sum += stops * static_cast<double>(tree.proven_value(node)[p]);
    else EXPECT_EQ(stops, 0);
    return sum;
  };
  std::unique_ptr<State> rolled = root->clone();
  rolled->apply(1);
  const std::int32_t roll = tree.find_child(Tree::kRoot, 1);
  const Node& chance = tree[roll];
  ASSERT_EQ(chance.mover, kChancePlayer);
  EXPECT_GT(chance.visits, 20);
  EXPECT_NEAR(chance.value_sum, expected(roll, *rolled, 0), 1e-3);
  for (std::int32_t c = 0; c < chance.num_children; ++c) {
    EXPECT_EQ(tree[chance.first_child + c].value_sum, 0.0f);
    // Below each outcome, player 1's edges hold player 1's values.
    const Node& outcome = tree[chance.first_child + c];
    std::unique_ptr<State> dealt = rolled->clone();
    dealt->apply(outcome.action);
    if (outcome.status != NodeStatus::kExpanded) continue;
    EXPECT_EQ(outcome.mover, 1);
    for (std::int32_t g = 0; g < outcome.num_children; ++g) {
      std::unique_ptr<State> next = dealt->clone();
      next->apply(tree[outcome.first_child + g].action);
      EXPECT_NEAR(tree[outcome.first_child + g].value_sum, expected(outcome.first_child + g, *next, 1), 1e-3);
    }
  }
}

TEST(ChanceNodes, TheSolverProvesTheExpectation) {
  // Shallow enough to prove: the root's proven vector is the exact expectimax value, and
  // the search plays the best action. (Not Gumbel: its deterministic interior rule need
  // not ever try a sibling that looks worse, so a full proof is not guaranteed.)
  for (int depth : {1, 2, 3}) {
    const ChanceToyGame game(depth);
    const auto root = game.new_initial_state();
    const std::vector<double> exact = expectimax(*root);
    std::unique_ptr<State> rolled = root->clone();
    rolled->apply(1);
    const std::vector<double> roll = expectimax(*rolled);
    ASSERT_NE(roll[0], 0.0);  // standing and rolling differ
    for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kUct}) {
      SCOPED_TRACE(std::string(algorithm_name(algorithm)) + " depth " + std::to_string(depth));
      Search search(game, config_for(algorithm, 5000), 11);
      FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
      const SearchResult result = search_from(search, PlayerView::of_mover(*root), evaluator);
      const std::vector<float> proven = proven_vector(search.tree(), Tree::kRoot);
      ASSERT_EQ(proven.size(), 2u);
      EXPECT_NEAR(proven[0], exact[0], 1e-5);
      EXPECT_NEAR(proven[1], exact[1], 1e-5);
      const std::vector<float> chance = proven_vector(search.tree(), search.tree().find_child(Tree::kRoot, 1));
      ASSERT_EQ(chance.size(), 2u);
      EXPECT_NEAR(chance[0], roll[0], 1e-5);
      EXPECT_EQ(result.action, roll[0] > 0 ? 1 : 0);
      EXPECT_FALSE(result.proven_win);
      EXPECT_LT(result.simulations, 5000);  // the proof ended the search
    }
  }
}

}  // namespace
}  // namespace boardlab
