// Tests for searches that end on a stop request (core/stop.h): one search with a huge budget, a search bot, the search benchmark, and one bot's own StopToken.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "core/stop.h"
#include "games/registry.h"
#include "mcts/bots.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/search_bench.h"
#include "mcts/search_driver.h"

namespace boardlab {
namespace {

const Game& virus_war() {
  static const auto loaded = load_game("virus_war");
  return *loaded;
}

constexpr int kHuge = 1'000'000'000;  // hours of search without a stop

class StopSearch : public ::testing::Test {
 protected:
  void SetUp() override { clear_stop(); }
  void TearDown() override { clear_stop(); }
};

// Requests a stop from another thread a little later, as a signal handler would.
class DelayedStop {
 public:
  DelayedStop()
      : thread_([] {
          std::this_thread::sleep_for(std::chrono::milliseconds(200));
          request_stop();
        }) {}
  ~DelayedStop() { thread_.join(); }

 private:
  std::thread thread_;
};

// A position with a choice (Virus War's first sub-move is forced: a search there is done at once).
std::unique_ptr<State> position() {
  std::unique_ptr<State> state = virus_war().new_initial_state();
  Rng rng(5);
  while (state->legal_actions().size() < 2) state->apply(state->random_legal_action(rng));
  return state;
}

bool legal(const State& state, Action action) {
  const std::vector<Action> actions = state.legal_actions();
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

// Starts `search` at `state` and drives it with a free evaluator until the driver returns.
void drive(Search& search, const State& state) {
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  search.start(PlayerView::of_mover(state));
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  driver.run(searches);
}

TEST_F(StopSearch, ASearchWithAHugeBudgetReturnsItsBestMoveSoFar) {
  // PUCT and UCT (Gumbel plans its halving schedule up front, an entry per simulation).
  for (const SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kUct}) {
    clear_stop();
    SearchConfig config;
    config.algorithm = algorithm;
    config.simulations = kHuge;
    Search search(virus_war(), config, 1);
    const std::unique_ptr<State> state = position();
    {
      DelayedStop stop;
      drive(search, *state);
    }
    EXPECT_FALSE(search.done());
    ASSERT_TRUE(search.has_result());
    const SearchResult result = search.result();
    EXPECT_LT(result.simulations, kHuge);
    EXPECT_FALSE(result.legal.empty());
    EXPECT_TRUE(legal(*state, result.action));
  }
}

TEST_F(StopSearch, AStopBeforeTheSearchStillGivesALegalMove) {
  request_stop();
  const std::unique_ptr<Bot> bot = make_search_bot("uct:1000000000", virus_war(), 1);
  const std::unique_ptr<State> state = position();
  EXPECT_TRUE(legal(*state, bot->act(PlayerView::of_mover(*state))));
}

TEST_F(StopSearch, AUctBotWithAHugeBudgetStops) {
  const std::unique_ptr<Bot> bot = make_search_bot("uct:1000000000", virus_war(), 1);
  const std::unique_ptr<State> state = position();
  Action action = kInvalidAction;
  {
    DelayedStop stop;
    action = bot->act(PlayerView::of_mover(*state));
  }
  EXPECT_TRUE(legal(*state, action));
}

TEST_F(StopSearch, TheSearchBenchmarkStops) {
  SearchConfig config;
  config.simulations = 64;
  SearchBenchStats stats;
  {
    DelayedStop stop;
    stats = bench_search(virus_war(), config, BenchEvaluator::kFree, 4, 1e9, 1);
  }
  EXPECT_GE(stats.simulations, 1u);
  EXPECT_LT(stats.seconds, 1e9);
}

TEST_F(StopSearch, ABotStopsAtItsOwnTokenAndTheOthersGoOn) {
  // One page's bot given up (its token requested from another thread) while the process-wide
  // request stays clear, so that every other search goes on.
  const std::unique_ptr<Bot> bot = make_search_bot("uct:1000000000", virus_war(), 1);
  const std::unique_ptr<State> state = position();
  StopToken token;
  bot->set_stop(&token);
  std::thread requester([&token] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    token.request();
  });
  const Action action = bot->act(PlayerView::of_mover(*state));
  requester.join();
  EXPECT_TRUE(legal(*state, action));
  EXPECT_LT(static_cast<const SearchBot&>(*bot).last_result().simulations, kHuge);
  EXPECT_FALSE(stop_requested());
  // Polling stops with set_stop(nullptr): the next move spends its budget.
  bot->set_stop(nullptr);
  const std::unique_ptr<Bot> small = make_search_bot("uct:50", virus_war(), 1);
  small->set_stop(&token);
  small->set_stop(nullptr);
  small->act(PlayerView::of_mover(*state));
  EXPECT_EQ(static_cast<const SearchBot&>(*small).last_result().simulations, 50);
}

TEST_F(StopSearch, ATokenWithATimeLimitStopsTheMoveOnItsOwn) {
  const std::unique_ptr<Bot> bot = make_search_bot("uct:1000000000", virus_war(), 1);
  const std::unique_ptr<State> state = position();
  const StopToken clock(0.2);
  EXPECT_FALSE(clock.requested());
  bot->set_stop(&clock);
  EXPECT_TRUE(legal(*state, bot->act(PlayerView::of_mover(*state))));
  EXPECT_TRUE(clock.requested());
  EXPECT_TRUE(StopToken(0).requested());
}

TEST_F(StopSearch, WithoutARequestTheSearchSpendsItsBudget) {
  SearchConfig config;
  config.simulations = 50;
  Search search(virus_war(), config, 1);
  drive(search, *position());
  EXPECT_TRUE(search.done());
  EXPECT_EQ(search.result().simulations, 50);
}

}  // namespace
}  // namespace boardlab
