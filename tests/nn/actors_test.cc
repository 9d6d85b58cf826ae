// Tests for the actors alone: they fill the replay buffer, stand still when paused or held, and follow published networks.
#include "nn/actors.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::tiny_network;
using nn_testing::virus_war;
using namespace std::chrono_literals;

Actors::Options small_options(int workers) {
  Actors::Options options;
  options.workers = workers;
  options.search.algorithm = SearchAlgorithm::kGumbel;
  options.search.simulations = 2;
  options.search.gumbel_considered = 2;
  options.self_play.concurrent_games = 2;
  return options;
}

template <typename Predicate>
bool wait_for(Predicate done, std::chrono::seconds limit = 60s) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

TEST(Actors, PlayUntilPausedAndStandStillWhilePausedOrHeld) {
  ReplayBuffer replay(virus_war(), 1000000);
  std::atomic<std::int64_t> seen{0};  // the callback runs on both workers' threads
  auto network = std::make_shared<const Model>(tiny_network(), virus_war(), 1);
  Actors actors(virus_war(), small_options(2), network, 0, &replay, {}, 7,
                [&](const SelfPlayGame& game, const State& final_state) {
                  EXPECT_TRUE(final_state.is_terminal());
                  EXPECT_EQ(final_state.returns(), game.returns);
                  ++seen;
                });
  actors.start();
  ASSERT_TRUE(wait_for([&] { return actors.tally().games >= 2; }));
  actors.pause();
  const SelfPlayTally paused = actors.tally();
  const std::uint64_t searches = actors.searches();
  const auto streams = actors.rng_states();
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(actors.searches(), searches);
  EXPECT_EQ(actors.tally().games, paused.games);
  EXPECT_EQ(actors.rng_states(), streams);
  EXPECT_EQ(replay.games_added(), paused.games);
  EXPECT_EQ(replay.positions_added(), paused.positions);
  EXPECT_GE(paused.turns, paused.games);
  EXPECT_GE(paused.steps, paused.positions);
  EXPECT_LE(paused.draws, paused.games);
  // The pause under way counts in paused_seconds (an evaluation's metrics row reads it
  // before the actors resume), and it stops counting once they do.
  const double paused_for = actors.paused_seconds();
  EXPECT_GE(paused_for, 0.1);

  actors.resume();
  const double after = actors.paused_seconds();
  EXPECT_GE(after, paused_for);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(actors.paused_seconds(), after);
  ASSERT_TRUE(wait_for([&] { return actors.searches() > searches; }));
  actors.hold(true);
  actors.pause();  // a pause while held returns too
  const std::uint64_t held = actors.searches();
  actors.resume();  // still held
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(actors.searches(), held);
  actors.hold(false);
  ASSERT_TRUE(wait_for([&] { return actors.searches() > held; }));
  actors.stop();
  actors.pause();  // after stop: returns at once
  actors.check();
  EXPECT_EQ(seen, actors.tally().games);
}

TEST(Actors, GamesRecordTheLagOfThePublishedNetwork) {
  ReplayBuffer replay(virus_war(), 1000000);
  auto network = std::make_shared<const Model>(tiny_network(), virus_war(), 1);
  Actors actors(virus_war(), small_options(1), network, 0, &replay, {}, 3, nullptr);
  actors.set_learner_step(10);  // the learner moved on; self-play still plays version 0
  actors.start();
  ASSERT_TRUE(wait_for([&] { return actors.tally().games >= 1; }));
  actors.pause();
  const SelfPlayTally before = actors.tally();
  EXPECT_EQ(before.network_lag, 10 * before.games);
  actors.publish(std::make_shared<const Model>(tiny_network(), virus_war(), 2), 10);
  actors.resume();
  ASSERT_TRUE(wait_for([&] { return actors.tally().games > before.games; }));
  actors.stop();
  const SelfPlayTally after = actors.tally();
  EXPECT_EQ(after.network_lag, before.network_lag);  // the newer games played the current network
}

TEST(Actors, WorkersContinueTheirSavedStreams) {
  // Two actors built from the same saved streams play the same first games.
  auto network = std::make_shared<const Model>(tiny_network(), virus_war(), 1);
  std::vector<std::array<std::uint64_t, 4>> saved = {Rng(41).state()};
  std::vector<std::string> records[2];
  for (int run = 0; run < 2; ++run) {
    ReplayBuffer replay(virus_war(), 1000000);
    Actors actors(virus_war(), small_options(1), network, 0, &replay, saved, 1000 + static_cast<std::uint64_t>(run),
                  [&](const SelfPlayGame&, const State& final_state) { records[run].push_back(final_state.record()); });
    actors.start();
    ASSERT_TRUE(wait_for([&] { return actors.tally().games >= 2; }));
    actors.stop();
  }
  ASSERT_GE(records[0].size(), 2u);
  ASSERT_GE(records[1].size(), 2u);
  EXPECT_EQ(records[0][0], records[1][0]);
  EXPECT_EQ(records[0][1], records[1][1]);
}

}  // namespace
}  // namespace boardlab
