// Tests for the matrix root: regret matching+ on payoff tables, candidate counts, and the search that solves its root round.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "games/biased_rps/biased_rps.h"
#include "games/registry.h"
#include "mcts/matrix_game.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/root_matrix.h"
#include "mcts/search.h"
#include "tests/error_of.h"
#include "tests/mcts/search_test_util.h"

namespace boardlab {
namespace {

// One round of biased rock-paper-scissors as a table: player 0's payoff, player 1's its negation.
PayoffTable biased_rps_table() {
  PayoffTable table{{3, 3}, std::vector<double>(18)};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const std::size_t cell = static_cast<std::size_t>(i + 3 * j);
      table.payoff[cell * 2] = kBiasedRpsPayoff[i][j];
      table.payoff[cell * 2 + 1] = -kBiasedRpsPayoff[i][j];
    }
  return table;
}

double distance_to_equilibrium(const std::vector<double>& strategy) {
  double worst = 0;
  for (int a = 0; a < 3; ++a) worst = std::max(worst, std::abs(strategy[a] - kBiasedRpsEquilibrium[a]));
  return worst;
}

TEST(MatrixGame, RegretMatchingPlusSolvesBiasedRockPaperScissors) {
  const PayoffTable table = biased_rps_table();
  const std::vector<std::vector<double>> uniform(2, std::vector<double>(3, 1 / 3.0));
  // What a wrong answer scores: uniform play concedes 1/6 to each seat's best response.
  EXPECT_NEAR(nash_conv(table, uniform), 1 / 3.0, 1e-9);
  const std::vector<std::vector<double>> solved = solve_equilibrium(table);
  ASSERT_EQ(solved.size(), 2u);
  for (const std::vector<double>& strategy : solved) {
    EXPECT_NEAR(std::accumulate(strategy.begin(), strategy.end(), 0.0), 1.0, 1e-9);
    EXPECT_LT(distance_to_equilibrium(strategy), 0.005) << strategy[0] << " " << strategy[1] << " " << strategy[2];
  }
  EXPECT_LT(nash_conv(table, solved), 1e-3);
}

TEST(MatrixGame, ADominantActionIsPlayedPurelyInAGeneralSumTable) {
  // The prisoner's dilemma: defecting (action 1) dominates for both, whatever the other does.
  const PayoffTable table{{2, 2}, {3, 3, 5, 0, 0, 5, 1, 1}};
  const std::vector<std::vector<double>> solved = solve_equilibrium(table);
  for (const std::vector<double>& strategy : solved) EXPECT_GT(strategy[1], 0.999);
  EXPECT_LT(nash_conv(table, solved), 1e-3);
}

TEST(MatrixGame, ActionValuesWeighEveryOtherSeatsStrategy) {
  // Three seats of two actions; seat 1's payoff at a cell is the cell's index, so its value
  // for action d is Σ over the others' actions of their probabilities times (a + 2d + 4c).
  PayoffTable table{{2, 2, 2}, std::vector<double>(8 * 3, 0.0)};
  for (std::size_t cell = 0; cell < 8; ++cell) table.payoff[cell * 3 + 1] = static_cast<double>(cell);
  const std::vector<std::vector<double>> strategies = {{0.25, 0.75}, {0.5, 0.5}, {0.9, 0.1}};
  std::vector<double> values;
  action_values(table, strategies, 1, values);
  const double others = 0.75 * 1 + 0.1 * 4;  // seat 0's and seat 2's expected digits, weighted
  EXPECT_NEAR(values[0], others, 1e-12);
  EXPECT_NEAR(values[1], others + 2, 1e-12);
}

TEST(MatrixGame, CandidateCountsLetTheBudgetVisitEveryJointOnce) {
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{1166, 1166}, 0, 64), (std::vector<int>{8, 8}));
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{1166, 1166}, 0, 16), (std::vector<int>{4, 4}));
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{1166, 1166}, 0, 15), (std::vector<int>{3, 3}));
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{1166, 1166}, 0, 3), (std::vector<int>{2, 2}));
  // A seat with one action (a forced pass) leaves the whole budget to the other.
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{1, 1166}, 0, 64), (std::vector<int>{1, 64}));
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{3, 3}, 0, 64), (std::vector<int>{3, 3}));
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{10, 10, 10}, 0, 64), (std::vector<int>{4, 4, 4}));
  EXPECT_EQ(matrix_candidate_counts(std::vector<int>{3, 1166}, 5, 64), (std::vector<int>{3, 5}));
}

SearchConfig matrix_config(int simulations) {
  SearchConfig config;
  config.simulations = simulations;
  config.simultaneous_selection = SimultaneousSelection::kMatrix;
  return config;
}

// Every position worth 0, and a prior of 0.1, 0.6 and 0.3 over rock, paper and scissors.
FunctionEvaluator skewed_prior() {
  return FunctionEvaluator([](const State&, std::span<const Action>, Evaluation& e) {
    e.prior = {0.1f, 0.6f, 0.3f};
    e.value = {0.0f, 0.0f};
  });
}

// Σ over both seats of a best response's gain against the pair, in one round of biased_rps.
double exploitability(const std::vector<float>& x, const std::vector<float>& y) {
  const PayoffTable table = biased_rps_table();
  const std::vector<std::vector<double>> pair = {{x.begin(), x.end()}, {y.begin(), y.end()}};
  return nash_conv(table, pair);
}

TEST(MatrixRoot, SolvesOneRoundExactlyFromOneVisitAJoint) {
  // Nine simulations visit the nine joints once each; their values are the exact payoffs,
  // so both seats' policies are the equilibrium (1/4, 1/2, 1/4) and the value is 0.
  const auto game = load_game("biased_rps(rounds=1)");
  const auto state = game->new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  for (std::uint64_t seed : {1, 2, 3}) {
    Search search(*game, matrix_config(9), seed);
    const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
    ASSERT_EQ(result.players.size(), 2u);
    for (const PlayerSearchResult& seat : result.players) {
      EXPECT_EQ(seat.visits, (std::vector<int>{3, 3, 3})) << seat.player;
      EXPECT_NEAR(std::accumulate(seat.policy.begin(), seat.policy.end(), 0.0), 1.0, 1e-5);
      EXPECT_NEAR(seat.value, 0.0, 1e-3);
      EXPECT_TRUE(std::find(seat.legal.begin(), seat.legal.end(), seat.action) != seat.legal.end());
    }
    EXPECT_LT(exploitability(result.players[0].policy, result.players[1].policy), 0.01);
  }
}

TEST(MatrixRoot, FindsTheEquilibriumOfTwoRoundsWithinTheIssuesTolerance) {
  // Two rounds: each joint's value is the second round's, searched by decoupled PUCT below
  // the root, plus the first round's payoff. The second round is worth 0 at equilibrium, and
  // its noise is what the root's table must absorb.
  const auto game = load_game("biased_rps(rounds=2)");
  const auto state = game->new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  for (std::uint64_t seed : {5, 6}) {
    Search search(*game, matrix_config(9 * 400), seed);
    const SearchResult result = search_from(search, PlayerView(*state, 1), evaluator);
    EXPECT_LT(exploitability(result.players[0].policy, result.players[1].policy), 0.01);
  }
}

TEST(MatrixRoot, MovesAreDrawnFromTheEquilibrium) {
  const auto game = load_game("biased_rps(rounds=1)");
  const auto state = game->new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  std::vector<int> played(3, 0);
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    Search search(*game, matrix_config(9), seed);
    ++played[search_from(search, PlayerView(*state, 0), evaluator).action];
  }
  // Expected 100, 200, 100: five standard deviations is about 43 for the middle one.
  EXPECT_NEAR(played[0], 100, 45);
  EXPECT_NEAR(played[1], 200, 50);
  EXPECT_NEAR(played[2], 100, 45);
}

TEST(MatrixRoot, ConsidersTheLikeliestActionsWithoutNoise) {
  // Two candidates a seat, Gumbel noise off: the two likeliest of the prior (0.1, 0.6, 0.3)
  // are searched and the unlikeliest gets no visit and no policy.
  const auto game = load_game("biased_rps(rounds=1)");
  const auto state = game->new_initial_state();
  FunctionEvaluator evaluator = skewed_prior();
  SearchConfig config = matrix_config(8);
  config.matrix_candidates = 2;
  config.matrix_candidate_noise = 0;
  Search search(*game, config, 1);
  const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
  for (const PlayerSearchResult& seat : result.players) {
    EXPECT_EQ(seat.visits, (std::vector<int>{0, 4, 4}));
    EXPECT_EQ(seat.policy[0], 0.0f);
    EXPECT_NE(seat.action, 0);
  }
  // Paper against scissors alone: paper (1) loses 0.5 to scissors (2) and ties itself, and
  // scissors beats paper, so both seats play scissors.
  EXPECT_GT(result.players[0].policy[2], 0.99);
  EXPECT_GT(result.players[1].policy[2], 0.99);
}

TEST(MatrixRoot, UniformCandidatesKeepThePriorsBestAndDrawTheRestEvenly) {
  Rng rng(5);
  std::vector<int> drawn(1166, 0);
  for (int n = 0; n < 4000; ++n) {
    std::vector<std::int32_t> top = {7, 3, 9, 1};
    draw_uniform_candidates(1166, 2, rng, top);
    ASSERT_EQ(top.size(), 4u);
    EXPECT_EQ(top[0], 7);
    EXPECT_EQ(top[1], 3);
    EXPECT_NE(top[2], top[3]);
    for (std::size_t i : {2u, 3u}) {
      ASSERT_GE(top[i], 0);
      ASSERT_LT(top[i], 1166);
      EXPECT_NE(top[i], 7);
      EXPECT_NE(top[i], 3);
      ++drawn[static_cast<std::size_t>(top[i])];
    }
  }
  // 8,000 draws over the 1,164 others, about 6.9 each: a draw that favoured some would leave
  // many undrawn or pile up on a few.
  EXPECT_GT(std::count_if(drawn.begin(), drawn.end(), [](int c) { return c > 0; }), 1150);
  EXPECT_LT(*std::max_element(drawn.begin(), drawn.end()), 25);
  // However many are asked, the prior's likeliest stays.
  std::vector<std::int32_t> two = {4, 2};
  draw_uniform_candidates(3, 5, rng, two);
  EXPECT_EQ(two[0], 4);
  EXPECT_NE(two[1], 4);
}

// Of `seeds` searches of biased_rps's one round by two candidates a seat from the prior
// (0.1, 0.6, 0.3), without root noise: how many considered rock, the unlikeliest.
int searches_considering_rock(SearchConfig config, bool explore, int seeds) {
  const auto game = load_game("biased_rps(rounds=1)");
  const auto state = game->new_initial_state();
  FunctionEvaluator evaluator = skewed_prior();
  config.matrix_candidates = 2;
  config.dirichlet_epsilon = 0;
  int rock = 0;
  for (int seed = 0; seed < seeds; ++seed) {
    Search search(*game, config, static_cast<std::uint64_t>(seed));
    const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator, SearchBudget{8, explore});
    rock += result.players[0].visits[0] > 0;
  }
  return rock;
}

TEST(MatrixRoot, UniformCandidatesAreDrawnOnlyWhereTheSearchExplores) {
  // No noise but the uniform draw: rock is considered in some self-play searches and in no
  // search that does not explore.
  SearchConfig config = matrix_config(8);
  config.matrix_uniform_candidates = 1;
  config.matrix_candidate_noise = 0;
  // The second candidate is rock or scissors, each half the time: 20 of 40 expected.
  const int exploring = searches_considering_rock(config, true, 40);
  EXPECT_GT(exploring, 8);
  EXPECT_LT(exploring, 32);
  EXPECT_EQ(searches_considering_rock(config, false, 40), 0);
}

TEST(MatrixRoot, CandidateNoiseDrawsFromThePriorWhereverItIsSet) {
  // In searches that do not explore (a player's): with the candidate noise, rock is
  // considered in some of them, so the move cannot be foretold from the prior; without it,
  // never. Gumbel search's own noise plays no part.
  SearchConfig config = matrix_config(8);
  config.gumbel_scale = 0;
  config.matrix_candidate_noise = 1;
  // Rock is among two drawn without replacement with probability 0.1 + 0.6*0.1/0.4 + 0.3*0.1/0.7,
  // about 0.29: 17 of 60 expected.
  const int drawn = searches_considering_rock(config, false, 60);
  EXPECT_GT(drawn, 5);
  EXPECT_LT(drawn, 32);
  config.matrix_candidate_noise = 0;
  config.gumbel_scale = 1;
  EXPECT_EQ(searches_considering_rock(config, false, 60), 0);
}

TEST(MatrixRoot, SquaresRoundsConsiderEightActionsASeatAt64Simulations) {
  const auto game = load_game("squares");
  const auto state = game->new_initial_state();
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  Search search(*game, matrix_config(64), 3);
  const SearchResult result = search_from(search, PlayerView(*state, 1), evaluator);
  ASSERT_EQ(result.players.size(), 2u);
  for (const PlayerSearchResult& seat : result.players) {
    EXPECT_EQ(std::count_if(seat.visits.begin(), seat.visits.end(), [](int v) { return v > 0; }), 8);
    EXPECT_EQ(std::accumulate(seat.visits.begin(), seat.visits.end(), 0), 64);
    EXPECT_LE(std::count_if(seat.policy.begin(), seat.policy.end(), [](float p) { return p > 0; }), 8);
    EXPECT_NEAR(std::accumulate(seat.policy.begin(), seat.policy.end(), 0.0), 1.0, 1e-5);
    const auto at = std::find(seat.legal.begin(), seat.legal.end(), seat.action) - seat.legal.begin();
    EXPECT_GT(seat.policy[static_cast<std::size_t>(at)], 0.0f) << "the move is drawn from the equilibrium";
  }
}

TEST(MatrixRoot, RefusesToModelTheOpponents) {
  const auto game = load_game("biased_rps");
  SearchConfig config = matrix_config(9);
  config.model_opponents = true;
  EXPECT_NE(error_of([&] { Search(*game, config, 1); }).find("simultaneous_selection=matrix solves biased_rps"),
            std::string::npos);
}

TEST(MatrixRoot, RefusesATableTooLargeToSolve) {
  const auto game = load_game("squares");
  const auto state = game->new_initial_state();
  SearchConfig config = matrix_config(64);
  config.matrix_candidates = 300;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  Search search(*game, config, 1);
  EXPECT_EQ(error_of([&] { search_from(search, PlayerView(*state, 0), evaluator); }),
            "search: simultaneous_selection=matrix would table 90000 joint actions at squares's root "
            "(matrix_candidates=300); at most 65536: lower matrix_candidates");
}

}  // namespace
}  // namespace boardlab
