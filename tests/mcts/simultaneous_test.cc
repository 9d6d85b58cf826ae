// Tests for simultaneous nodes: equilibrium by regret matching, one request per seat, per-seat backup, joint children, reuse.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <numeric>
#include <vector>

#include "core/random_play.h"
#include "games/biased_rps/biased_rps.h"
#include "games/registry.h"
#include "mcts/bots.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/simultaneous.h"
#include "tests/mcts/search_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

const Game& matrix(int rounds) {
  static const auto one = load_game("biased_rps(rounds=1)");
  static const auto two = load_game("biased_rps(rounds=2)");
  static const auto three = load_game("biased_rps(rounds=3)");
  return rounds == 1 ? *one : rounds == 2 ? *two : *three;
}

// How much a best response gains against the strategy pair (x for player 0, y for
// player 1) of one round of biased_rps: 0 exactly at the equilibrium.
double exploitability(const std::vector<float>& x, const std::vector<float>& y) {
  double best_against_y = -1e9, best_against_x = -1e9;
  for (int i = 0; i < 3; ++i) {
    double row = 0, column = 0;
    for (int j = 0; j < 3; ++j) {
      row += kBiasedRpsPayoff[i][j] * y[j];
      column -= kBiasedRpsPayoff[j][i] * x[j];
    }
    best_against_y = std::max(best_against_y, row);
    best_against_x = std::max(best_against_x, column);
  }
  return best_against_y + best_against_x;
}

double distance_to_equilibrium(const std::vector<float>& policy) {
  double worst = 0;
  for (int a = 0; a < 3; ++a) worst = std::max(worst, std::abs(policy[a] - kBiasedRpsEquilibrium[a]));
  return worst;
}

SearchConfig config_with(int simulations, SimultaneousSelection selection) {
  SearchConfig config;
  config.simulations = simulations;
  config.simultaneous_selection = selection;
  return config;
}

TEST(SimultaneousSearch, RegretMatchingConvergesToTheEquilibrium) {
  // One round of biased rock-paper-scissors: the unique equilibrium is (1/4, 1/2, 1/4)
  // for both, value 0. The tolerance (0.03 from it, exploitability below 0.04) is far
  // tighter than what wrong answers give: uniform play is 0.083 away (exploitability
  // 0.17), best responses to the visits (UCB on plain visit counts) chase each other
  // round the cycle, and a seat that read the other seat's value would play a pure action.
  const Game& game = matrix(1);
  const auto state = game.new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  for (std::uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE(seed);
    Search search(game, config_with(20000, SimultaneousSelection::kRegretMatching), seed);
    const SearchResult result = search_from(search, PlayerView(*state, 1), evaluator);
    ASSERT_EQ(result.players.size(), 2u);
    for (int p = 0; p < 2; ++p) {
      const PlayerSearchResult& seat = result.players[p];
      EXPECT_EQ(seat.player, p);
      EXPECT_EQ(seat.legal, (std::vector<Action>{0, 1, 2}));
      EXPECT_NEAR(std::accumulate(seat.policy.begin(), seat.policy.end(), 0.0), 1.0, 1e-5);
      EXPECT_LT(distance_to_equilibrium(seat.policy), 0.03) << seat.policy[0] << " " << seat.policy[1] << " "
                                                             << seat.policy[2];
      EXPECT_NEAR(seat.value, 0.0, 0.05);
      EXPECT_EQ(std::accumulate(seat.visits.begin(), seat.visits.end(), 0), 20000);
    }
    EXPECT_LT(exploitability(result.players[0].policy, result.players[1].policy), 0.04);
    // The top-level fields are the viewer's (seat 1's) decision.
    EXPECT_EQ(result.legal, result.players[1].legal);
    EXPECT_EQ(result.policy, result.players[1].policy);
    EXPECT_EQ(result.visits, result.players[1].visits);
    EXPECT_EQ(result.action, result.players[1].action);
    EXPECT_EQ(result.value, result.players[1].value);
    EXPECT_FALSE(result.proven_win);
  }
  // What the tolerance rules out.
  EXPECT_GT(distance_to_equilibrium({1 / 3.0f, 1 / 3.0f, 1 / 3.0f}), 0.08);
  EXPECT_GT(exploitability({1 / 3.0f, 1 / 3.0f, 1 / 3.0f}, {1 / 3.0f, 1 / 3.0f, 1 / 3.0f}), 0.16);
}

TEST(SimultaneousSearch, TheEquilibriumIsFoundBelowTheRootToo) {
  // Two rounds: the root's game is one round plus the second round's value (0 at the
  // equilibrium, whatever the first round), so the root policy is the same equilibrium.
  const Game& game = matrix(2);
  const auto state = game.new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  for (std::uint64_t seed : {5, 6}) {
    Search search(game, config_with(40000, SimultaneousSelection::kRegretMatching), seed);
    const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
    for (const PlayerSearchResult& seat : result.players)
      EXPECT_LT(distance_to_equilibrium(seat.policy), 0.04) << seat.player;
    EXPECT_LT(exploitability(result.players[0].policy, result.players[1].policy), 0.05);
  }
}

TEST(SimultaneousSearch, DecoupledPuctDoesNotFindTheMixedEquilibrium) {
  // Why regret matching is the default: each seat's PUCT answers the other's recent play,
  // the two chase each other round the rock-paper-scissors cycle, and the visit shares
  // stay far from (1/4, 1/2, 1/4) whatever the budget. The tolerance above tells them apart.
  const Game& game = matrix(1);
  const auto state = game.new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  Search search(game, config_with(20000, SimultaneousSelection::kPuct), 1);
  const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
  EXPECT_GT(distance_to_equilibrium(result.players[0].policy), 0.05);
  EXPECT_GT(exploitability(result.players[0].policy, result.players[1].policy), 0.1);
}

TEST(SimultaneousSearch, MovesAreDrawnFromTheAverageStrategy) {
  // A mixed equilibrium is played by drawing from it: over many searches each action is
  // played about as often as the equilibrium says.
  const Game& game = matrix(1);
  const auto state = game.new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  std::vector<int> played(3, 0);
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    Search search(game, config_with(2000, SimultaneousSelection::kRegretMatching), seed);
    ++played[search_from(search, PlayerView(*state, 0), evaluator).action];
  }
  EXPECT_GT(played[0], 25);
  EXPECT_GT(played[1], 70);
  EXPECT_GT(played[2], 25);
}

TEST(SimultaneousSearch, TheEvaluatorGetsOneRequestPerSeat) {
  const Game& game = matrix(3);
  auto state = game.new_initial_state();
  SearchConfig config = config_with(30, SimultaneousSelection::kRegretMatching);
  config.lazy_seats = false;
  Search search(game, config, 1);
  search.start(PlayerView(*state, 0));
  int requests = 0, steps = 0;
  std::vector<Evaluation> evals;
  while (!search.done()) {
    const int n = search.collect();
    ASSERT_EQ(n, static_cast<int>(search.requests().size()));
    // Requests come in pairs, one per seat, about the same simultaneous state.
    ASSERT_EQ(n % 2, 0);
    for (int i = 0; i < n; i += 2) {
      const EvalRequest& a = search.requests()[i];
      const EvalRequest& b = search.requests()[i + 1];
      EXPECT_EQ(a.state, b.state);
      EXPECT_TRUE(a.state->is_simultaneous_node());
      EXPECT_EQ(a.player, 0);
      EXPECT_EQ(b.player, 1);
      EXPECT_EQ(std::vector<Action>(a.legal.begin(), a.legal.end()), (std::vector<Action>{0, 1, 2}));
      EXPECT_EQ(std::vector<Action>(b.legal.begin(), b.legal.end()), (std::vector<Action>{0, 1, 2}));
    }
    evals.resize(n);
    FunctionEvaluator::uniform(2).evaluate(search.requests(), evals);
    search.backup(evals);
    requests += n;
    ++steps;
  }
  EXPECT_GT(requests, 20);
  // A wrong number of answers names the leaves and the requests.
  Search other(game, config, 1);
  other.start(PlayerView(*state, 0));
  ASSERT_EQ(other.collect(), 2);
  evals.resize(1);
  EXPECT_EQ(error_of([&] { other.backup(evals); }),
            "search backup: 1 evaluations for 1 leaves (2 requests: one per seat at a simultaneous leaf)");
}

// Lazy seats: the root asks for both seats at once, a node below it for seat 0 when it is
// reached and for seat 1 at its next visit, and each of those is a simulation of its own.
TEST(SimultaneousSearch, ALazyNodeAsksForItsFirstSeatThenForTheOtherAtItsNextVisit) {
  const Game& game = matrix(3);
  auto state = game.new_initial_state();
  for (SimultaneousSelection selection : {SimultaneousSelection::kRegretMatching, SimultaneousSelection::kPuct}) {
    SCOPED_TRACE(simultaneous_selection_name(selection));
    Search search(game, config_with(200, selection), 1);
    search.start(PlayerView(*state, 0));
    // Seat 1's priors: those of the request for it, whenever it came (they differ by seat).
    FunctionEvaluator evaluator([](const State&, std::span<const Action> legal, Evaluation& eval) {
      eval.prior.assign(legal.size(), 1.0f);
      eval.value = {0.25f, -0.25f};
    });
    int completions = 0;
    std::vector<Evaluation> evals;
    bool first = true;
    while (!search.done()) {
      // One leaf a step (leaves_per_step 1), and one request for it; none when the step
      // found only the game's end.
      const int n = search.collect();
      ASSERT_LE(n, first ? 2 : 1);
      if (first) {
        ASSERT_EQ(n, 2);
        EXPECT_EQ(search.requests()[1].player, 1);
      } else if (n == 1 && search.requests()[0].player == 1) {
        ++completions;
      }
      evals.resize(n);
      for (int i = 0; i < n; ++i) {
        evaluator.evaluate(search.requests().subspan(i, 1), std::span(evals).subspan(i, 1));
        // A seat-dependent prior: seat 1 prefers its last action.
        if (search.requests()[i].player == 1) evals[i].prior = {1.0f, 1.0f, 2.0f};
      }
      search.backup(evals);
      first = false;
    }
    EXPECT_GT(completions, 10);
    // Every node below the root either waits for seat 1 (partly expanded, visited once) or
    // holds both seats' priors.
    const Tree& tree = search.tree();
    int partly = 0, expanded = 0;
    std::vector<SeatBlock> seats;
    for (std::int32_t i = 1; i < tree.size(); ++i) {
      const Node& node = tree[i];
      if (node.mover != kSimultaneousPlayer) continue;
      seat_blocks(tree, i, seats);
      ASSERT_EQ(seats.size(), 2u);
      if (node.status == NodeStatus::kPartlyExpanded) {
        ++partly;
        EXPECT_EQ(node.visits, 1);
        EXPECT_EQ(tree[seats[1].first].prior, kPendingPrior);
        EXPECT_NEAR(tree[seats[0].first].prior, 1.0f / 3, 1e-6);
      } else {
        ASSERT_EQ(node.status, NodeStatus::kExpanded);
        ++expanded;
        EXPECT_GE(node.visits, 2);
        EXPECT_NEAR(tree[seats[0].first].prior, 1.0f / 3, 1e-6);
        EXPECT_NEAR(tree[seats[1].first + 2].prior, 0.5f, 1e-6);
      }
    }
    EXPECT_GT(partly, 0);
    EXPECT_EQ(expanded, completions);
  }
}

// Walks a simultaneous tree: every seat's statistics add up over the joint children that
// contain them, with each seat's own value. `value_of(state, p)` is the evaluator's value;
// `own` the evaluations of a node below the root (2 with lazy seats: one a seat).
void check_seat_statistics(const Tree& tree, std::int32_t node, const State& state, int own,
                           const std::function<float(const State&, Player)>& value_of,
                           const std::function<double(std::int32_t, const State&, Player)>& subtree_sum, int& checked) {
  const Node& n = tree[node];
  if (n.status != NodeStatus::kExpanded) return;
  ASSERT_EQ(n.mover, kSimultaneousPlayer);
  std::vector<SeatBlock> seats;
  seat_blocks(tree, node, seats);
  ASSERT_EQ(seats.size(), 2u);
  ASSERT_EQ(seats[0].count, 3);
  ASSERT_EQ(seats[1].count, 3);
  int joint_visits = 0;
  // stat_visits[p][a], stat_values[p][a]: what the joint children say each statistic holds.
  double stat_values[2][3] = {};
  int stat_visits[2][3] = {};
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      // The joint code is the mixed-radix index of the picks, seat 0 first.
      const std::int32_t child = tree.joint_child(node, static_cast<std::uint64_t>(a + 3 * b));
      if (child < 0) continue;
      std::unique_ptr<State> next = state.clone();
      const Action joint[] = {a, b};
      next->apply_joint(joint);
      const Node& c = tree[child];
      joint_visits += c.visits;
      stat_visits[0][a] += c.visits;
      stat_visits[1][b] += c.visits;
      stat_values[0][a] += subtree_sum(child, *next, 0);
      stat_values[1][b] += subtree_sum(child, *next, 1);
      check_seat_statistics(tree, child, *next, own, value_of, subtree_sum, checked);
    }
  }
  EXPECT_EQ(n.visits, (node == Tree::kRoot ? 1 : own) + joint_visits);
  for (int p = 0; p < 2; ++p) {
    for (int a = 0; a < 3; ++a) {
      const Node& stat = tree[seats[p].first + a];
      EXPECT_EQ(stat.mover, p);
      EXPECT_EQ(stat.action, a);
      EXPECT_EQ(stat.visits, stat_visits[p][a]);
      EXPECT_NEAR(stat.value_sum, stat_values[p][a], 1e-3);
      EXPECT_EQ(stat.in_flight, 0);
      ++checked;
    }
  }
}

TEST(SimultaneousSearch, EachSeatBacksUpItsOwnValue) {
  // State-dependent values, not zero-sum, different for the two seats: a statistic's
  // value_sum must be the sum of its own seat's values over the simulations that picked it.
  auto value_of = [](const State& state, Player p) {
    const std::uint64_t h = state.hash() * (p == 0 ? 0x9e3779b97f4a7c15ULL : 0xc2b2ae3d27d4eb4fULL);
    return static_cast<float>((h >> 40) % 1000) / 1000.0f - 0.5f;
  };
  const Game& game = matrix(3);
  const auto root = game.new_initial_state();
  for (SimultaneousSelection selection : {SimultaneousSelection::kRegretMatching, SimultaneousSelection::kPuct}) {
    for (int leaves : {1, 4}) {
     for (bool lazy : {false, true}) {
      SCOPED_TRACE(std::string(simultaneous_selection_name(selection)) + " " + std::to_string(leaves) +
                   (lazy ? " lazy" : ""));
      SearchConfig config = config_with(300, selection);
      config.leaves_per_step = leaves;
      config.lazy_seats = lazy;
      Search search(game, config, 9);
      FunctionEvaluator evaluator([&](const State& state, std::span<const Action> legal, Evaluation& eval) {
        eval.prior.assign(legal.size(), 1.0f);
        eval.value = {value_of(state, 0), value_of(state, 1)};
      });
      search_from(search, PlayerView(*root, 0), evaluator);
      const Tree& tree = search.tree();
      // The sum, for seat p, of every value backed up through `node`.
      std::function<double(std::int32_t, const State&, Player)> subtree_sum = [&](std::int32_t node,
                                                                                 const State& state, Player p) {
        const Node& n = tree[node];
        if (n.status == NodeStatus::kTerminal) return n.visits * state.returns()[p];
        if (n.status == NodeStatus::kPartlyExpanded) return static_cast<double>(value_of(state, p));
        if (n.status != NodeStatus::kExpanded) return 0.0;
        EXPECT_FALSE(tree.is_proven(node));  // no solver at simultaneous nodes
        double sum = (node == Tree::kRoot || !lazy ? 1 : 2) * value_of(state, p);
        for (int a = 0; a < 3; ++a) {
          for (int b = 0; b < 3; ++b) {
            const std::int32_t child = tree.joint_child(node, static_cast<std::uint64_t>(a + 3 * b));
            if (child < 0) continue;
            std::unique_ptr<State> next = state.clone();
            const Action joint[] = {a, b};
            next->apply_joint(joint);
            sum += subtree_sum(child, *next, p);
          }
        }
        return sum;
      };
      int checked = 0;
      check_seat_statistics(tree, Tree::kRoot, *root, lazy ? 2 : 1, value_of, subtree_sum, checked);
      EXPECT_GT(checked, 30);
      for (std::int32_t i = 0; i < tree.size(); ++i) ASSERT_EQ(tree[i].in_flight, 0);
     }
    }
  }
}

TEST(SimultaneousSearch, DecoupledPuctPolicyIsTheVisitShare) {
  const Game& game = matrix(2);
  const auto state = game.new_initial_state();
  RolloutEvaluator evaluator(3);
  Search search(game, config_with(500, SimultaneousSelection::kPuct), 3);
  const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
  ASSERT_EQ(result.players.size(), 2u);
  for (const PlayerSearchResult& seat : result.players) {
    const int total = std::accumulate(seat.visits.begin(), seat.visits.end(), 0);
    EXPECT_EQ(total, 500);
    for (std::size_t a = 0; a < seat.legal.size(); ++a)
      EXPECT_FLOAT_EQ(seat.policy[a], static_cast<float>(seat.visits[a]) / static_cast<float>(total));
    // Without temperature the seat plays its most visited action.
    EXPECT_EQ(seat.visits[seat.action], *std::max_element(seat.visits.begin(), seat.visits.end()));
  }
}

TEST(SimultaneousSearch, TreeReuseFollowsTheJointAction) {
  const Game& game = matrix(3);
  auto state = game.new_initial_state();
  SearchConfig config = config_with(400, SimultaneousSelection::kRegretMatching);
  config.reuse_tree = true;
  Search search(game, config, 4);
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  const SearchResult first = search_from(search, PlayerView(*state, 0), evaluator);
  // Play the joint action of both seats' choices and search again from seat 1's view.
  const Action joint[] = {first.players[0].action, first.players[1].action};
  const std::int32_t child =
      search.tree().joint_child(Tree::kRoot, static_cast<std::uint64_t>(joint[0] + 3 * joint[1]));
  ASSERT_GE(child, 0);
  const int kept = search.tree()[child].visits;
  ASSERT_GT(kept, 1);
  ASSERT_EQ(search.tree()[child].status, NodeStatus::kExpanded);
  state->apply_joint(joint);
  search.start(PlayerView(*state, 1));
  EXPECT_EQ(search.tree()[Tree::kRoot].visits, kept);
  EXPECT_EQ(search.tree()[Tree::kRoot].mover, kSimultaneousPlayer);
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  driver.run(searches);
  const SearchResult second = search.result();
  EXPECT_EQ(search.tree()[Tree::kRoot].visits, kept + 400);
  EXPECT_EQ(second.players.size(), 2u);
}

TEST(SimultaneousSearch, BotsPlayWholeGamesAtEveryNode) {
  // A search bot is asked once per seat at each round, each time from that seat's view.
  const Game& game = matrix(3);
  for (const char* spec : {"mcts(simulations=64)", "uct:64", "mcts(simulations=64,simultaneous_selection=puct)"}) {
    SCOPED_TRACE(spec);
    auto zero = make_search_bot(spec, game, 1);
    auto one = make_search_bot(spec, game, 2);
    auto state = game.new_initial_state();
    while (!state->is_terminal()) {
      const Action joint[] = {zero->act(PlayerView(*state, 0)), one->act(PlayerView(*state, 1))};
      state->apply_joint(joint);
    }
    EXPECT_EQ(state->history().size(), 6u);
  }
}

}  // namespace
}  // namespace boardlab

namespace boardlab {
namespace {

TEST(ModelledOpponents, ABestResponseSearchPlaysTheBestReplyToTheModelledPolicy) {
  // The opponent's seat follows its prior (uniform, the evaluator's) instead of an equilibrium
  // search: against uniform play rock is worth 1/6, paper 0 and scissors -1/6, so a best
  // response plays rock from either seat; the equilibrium search mixes (1/4, 1/2, 1/4).
  SearchConfig config;
  config.algorithm = SearchAlgorithm::kPuct;
  config.simulations = 64;
  config.model_opponents = true;
  config.simultaneous_selection = SimultaneousSelection::kPuct;
  for (Player seat = 0; seat < 2; ++seat)
    for (std::uint64_t seed = 0; seed < 10; ++seed) {
      const auto bot = make_search_bot(
          "mcts(algorithm=puct,simulations=64,model_opponents=true,simultaneous_selection=puct)", matrix(1), seed);
      const auto state = matrix(1).new_initial_state();
      EXPECT_EQ(bot->act(PlayerView(*state, seat)), 0) << "seat " << seat << ", seed " << seed;
    }
  // Each of its actions is valued at its exact expectation: the opponent's picks are stratified
  // by the prior given each of its own.
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  Search search(matrix(1), config, 1);
  const auto state = matrix(1).new_initial_state();
  const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
  EXPECT_EQ(result.action, 0);
  const PlayerSearchResult& mine = result.players[0];
  ASSERT_EQ(mine.player, 0);
  ASSERT_EQ(mine.visits.size(), 3u);
  for (int a = 0; a < 3; ++a) EXPECT_GE(mine.visits[a], 3) << "action " << a;
}

}  // namespace
}  // namespace boardlab
