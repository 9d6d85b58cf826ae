// Tests that every search refuses what it does not do, naming the game and the reason, and that the benchmark runs at every node kind.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "core/errors.h"
#include "games/registry.h"
#include "mcts/bots.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/search_bench.h"
#include "tests/mcts/search_test_util.h"
#include "tests/toys/toys.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

::testing::AssertionResult contains(const std::string& message, const std::string& part) {
  if (message.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << message << "' does not contain '" << part << "'";
}

// A declaration only: a game with simultaneous moves and hidden information, which the
// search refuses before it asks anything else of the game.
class SimultaneousHiddenGame final : public Game {
 public:
  SimultaneousHiddenGame() : Game("hidden_rounds", {}) {}
  GameType type() const override {
    GameType t;
    t.dynamics = Dynamics::kSimultaneous;
    t.information = Information::kImperfect;
    return t;
  }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 2; }
  ObservationShape observation_shape() const override { return {1, 1, 1}; }
  int max_game_length() const override { return 2; }
  std::unique_ptr<State> new_initial_state() const override {
    throw InputError("hidden_rounds has no states: it only declares a kind of game");
  }
};

std::string construction_error(const Game& game, const std::string& options) {
  SearchConfig config;
  set_search_options(config, options);
  return error_of([&] { Search search(game, config, 1); });
}

TEST(SearchRefusals, CombinationsThisSearchDoesNotDoAreNamed) {
  const auto matrix = load_game("biased_rps");
  const auto kuhn = load_game("kuhn_poker");
  EXPECT_TRUE(contains(construction_error(*matrix, "algorithm=gumbel"),
                       "search: gumbel does not search biased_rps: its sequential halving picks one root action of "
                       "one mover, and a simultaneous round has every seat choosing at once"));
  EXPECT_TRUE(contains(construction_error(*kuhn, "reuse_tree=true"),
                       "search: reuse_tree does not apply to kuhn_poker: with hidden information"));
  EXPECT_TRUE(contains(construction_error(*kuhn, "transpositions=true"),
                       "search: transpositions do not apply to kuhn_poker: with hidden information"));
  EXPECT_TRUE(contains(construction_error(SimultaneousHiddenGame(), ""),
                       "search: hidden_rounds has both simultaneous moves and hidden information; this search does "
                       "not combine them"));
  EXPECT_TRUE(contains(construction_error(*matrix, "belief_deals=16"),
                       "search: belief_deals weighs the deals of information-set search, and biased_rps has no "
                       "hidden information"));
  EXPECT_TRUE(contains(construction_error(*kuhn, "belief_deals=16,hidden=single_sample"),
                       "hidden=single_sample searches one deal"));
  EXPECT_TRUE(contains(construction_error(*matrix, "concealed_moves=policy"),
                       "search: concealed_moves=policy draws the choices other seats do not see from a policy, and "
                       "biased_rps has no hidden information"));
  EXPECT_TRUE(contains(construction_error(*matrix, "concealed_moves=search_mixed"),
                       "search: concealed_moves=search_mixed draws the choices other seats do not see"));
  // What it does do is accepted.
  EXPECT_EQ(construction_error(*kuhn, "belief_deals=16,belief_window=2,belief_floor=0"), "no error");
  EXPECT_EQ(construction_error(*kuhn, "concealed_moves=policy,belief_deals=4"), "no error");
  EXPECT_EQ(construction_error(*kuhn, "concealed_moves=search_mixed"), "no error");
  EXPECT_EQ(construction_error(*matrix, "algorithm=uct"), "no error");
  EXPECT_EQ(construction_error(*kuhn, "algorithm=gumbel,hidden=single_sample"), "no error");
  EXPECT_EQ(construction_error(*load_game("virus_war"), "transpositions=true,reuse_tree=true"), "no error");
  // Player specs carry the refusal.
  EXPECT_TRUE(contains(error_of([&] { make_search_bot("mcts(algorithm=gumbel)", *matrix, 1); }),
                       "gumbel does not search biased_rps"));
  // So does the benchmark.
  SearchConfig gumbel;
  gumbel.algorithm = SearchAlgorithm::kGumbel;
  EXPECT_TRUE(contains(error_of([&] { bench_search(*matrix, gumbel, BenchEvaluator::kFree, 2, 0.01, 1); }),
                       "gumbel does not search biased_rps"));
}

TEST(SearchRefusals, AStartWhereTheViewerDoesNotActIsNamed) {
  const auto kuhn = load_game("kuhn_poker");
  auto state = kuhn->new_initial_state();
  Search search(*kuhn, SearchConfig{}, 1);
  EXPECT_EQ(error_of([&] { search.start(PlayerView(*state, 0)); }),
            "search: player 0 does not act here in kuhn_poker (a chance node: play its outcome first)");
  state->apply(0);
  state->apply(1);
  EXPECT_EQ(error_of([&] { search.start(PlayerView(*state, 1)); }),
            "search: player 1 does not act here in kuhn_poker (it is player 0's turn)");
  EXPECT_EQ(error_of([&] { search.start(PlayerView(*state, 0)); }), "no error");
}

TEST(SearchRefusals, NewOptionsNameTheProblem) {
  SearchConfig c;
  EXPECT_EQ(error_of([&] { set_search_options(c, "simultaneous_selection=exp3"); }),
            "search option 'simultaneous_selection': expected one of regret_matching, puct, matrix, got 'exp3'");
  EXPECT_EQ(error_of([&] { set_search_options(c, "hidden=peek"); }),
            "search option 'hidden': expected one of information_set, single_sample, got 'peek'");
  EXPECT_EQ(error_of([&] { set_search_options(c, "transpositions=maybe"); }),
            "search option 'transpositions': expected true or false, got 'maybe'");
  c.regret_exploration = 0;
  EXPECT_EQ(error_of([&] { validate(c); }), "search option 'regret_exploration': expected a number in (0, 1], got 0");
  c = SearchConfig{};
  c.leaves_per_step = 5000;
  EXPECT_EQ(error_of([&] { validate(c); }),
            "search option 'leaves_per_step': expected an integer in [1, 4096], got 5000");
  SearchConfig good;
  set_search_options(good, "simultaneous_selection=puct,hidden=single_sample,transpositions=true,regret_exploration=0.2");
  EXPECT_EQ(good.simultaneous_selection, SimultaneousSelection::kPuct);
  EXPECT_EQ(good.hidden, HiddenInformation::kSingleSample);
  EXPECT_TRUE(good.transpositions);
  EXPECT_FLOAT_EQ(good.regret_exploration, 0.2f);
}

TEST(SearchRefusals, AnEvaluatorsNonFiniteOutputStopsTheSearch) {
  // NaN priors or values compare false with everything, and a search that chose from them
  // could return an action that is not legal. It stops instead and says why.
  const auto game = load_game("virus_war");
  const auto state = game->new_initial_state();
  for (const bool bad_prior : {true, false}) {
    for (const SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kGumbel}) {
      SearchConfig config;
      config.algorithm = algorithm;
      config.simulations = 16;
      FunctionEvaluator evaluator([&](const State&, std::span<const Action> legal, Evaluation& e) {
        e.prior.assign(legal.size(), bad_prior ? std::nanf("") : 1.0f);
        e.value.assign(2, bad_prior ? 0.0f : std::numeric_limits<float>::infinity());
      });
      Search search(*game, config, 1);
      const std::string message = error_of<InputError>([&] { search_from(search, PlayerView(*state, 0), evaluator); });
      EXPECT_TRUE(contains(message, bad_prior ? "priors are not finite" : "values are not finite"));
    }
  }
}

TEST(SearchBench, RunsAtEveryKindOfNode) {
  for (const char* name : {"toy_race", "biased_rps", "kuhn_poker"}) {
    const auto game = name == std::string("toy_race") ? load_toy(name) : load_game(name);
    for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kUct}) {
      SCOPED_TRACE(std::string(name) + " " + std::string(algorithm_name(algorithm)));
      SearchConfig config;
      config.algorithm = algorithm;
      config.simulations = 32;
      const SearchBenchStats stats = bench_search(*game, config, BenchEvaluator::kFree, 4, 0.01, 1);
      EXPECT_GE(stats.decisions, 4u);
      EXPECT_GT(stats.simulations, 0u);
    }
  }
}

}  // namespace
}  // namespace boardlab
