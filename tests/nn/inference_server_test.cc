// Tests for the inference server: under concurrent callers every request gets its own answer, batched across threads.
#include "nn/inference_server.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <barrier>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "nn/network_evaluator.h"
#include "nn_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

using nn_testing::Positions;
using nn_testing::random_positions;
using nn_testing::tiny_network;
using nn_testing::virus_war;

// The server batches a request with others, the direct evaluator runs it alone: the same
// network on the same input agrees up to the float rounding of a different batch size.
void expect_same(const Evaluation& got, const Evaluation& want, const std::string& where) {
  ASSERT_EQ(got.prior.size(), want.prior.size()) << where;
  ASSERT_EQ(got.value.size(), want.value.size()) << where;
  for (std::size_t k = 0; k < want.prior.size(); ++k)
    ASSERT_NEAR(got.prior[k], want.prior[k], 1e-6f + 1e-5f * want.prior[k]) << where << " prior " << k;
  for (std::size_t j = 0; j < want.value.size(); ++j) ASSERT_NEAR(got.value[j], want.value[j], 1e-5f) << where;
  if (std::isnan(want.score_margin))
    ASSERT_TRUE(std::isnan(got.score_margin)) << where << ": a margin from a network without a score head";
  else
    ASSERT_NEAR(got.score_margin, want.score_margin, 1e-5f) << where;
}

// Each position's answer from the model run directly, one position per call.
std::vector<Evaluation> direct_answers(const Model& model, const Positions& positions) {
  NetworkEvaluator direct(model);
  std::vector<Evaluation> out(positions.states.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto request = positions.requests(i, i + 1);
    direct.evaluate(request, std::span<Evaluation>(&out[i], 1));
  }
  return out;
}

// Answers that would be confused if the server mixed requests up must differ: otherwise the test could not tell.
void expect_distinct(const std::vector<Evaluation>& answers) {
  for (std::size_t i = 1; i < answers.size(); ++i) {
    const bool same = answers[i].prior == answers[i - 1].prior && answers[i].value == answers[i - 1].value;
    ASSERT_FALSE(same) << "positions " << i - 1 << " and " << i << " have identical answers";
  }
}

// Server threads (2) merge and split the callers' requests; without them (0) each caller runs
// its own: either way every caller gets its own positions' answers.
class InferenceServerModes : public testing::TestWithParam<int> {};

TEST_P(InferenceServerModes, ConcurrentRequestsOfManySizesGetTheirOwnAnswers) {
  const Game& game = virus_war();
  const Model model(tiny_network(1, 8), game, 11);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 48;
  constexpr int kRounds = 30;
  std::vector<Positions> positions;
  std::vector<std::vector<Evaluation>> expected;
  for (int t = 0; t < kThreads; ++t) {
    positions.push_back(random_positions(game, kPerThread, 1000 + t));
    expected.push_back(direct_answers(model, positions.back()));
    expect_distinct(expected.back());
  }

  InferenceConfig config;
  config.max_batch = 16;  // smaller than what the threads send together: batches split between requests
  config.max_wait_us = 2000;
  config.threads = GetParam();
  InferenceServer server(model, config);
  std::barrier start(kThreads);
  std::vector<std::string> failures(kThreads);
  std::vector<int> positions_sent(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Rng rng(50 + static_cast<std::uint64_t>(t));
      std::vector<Evaluation> out;
      for (int round = 0; round < kRounds; ++round) {
        // Sizes from 1 to 20: some requests exceed max_batch and must go through whole.
        const std::size_t size = 1 + rng.below(20);
        const std::size_t begin = rng.below(static_cast<std::uint32_t>(kPerThread - size + 1));
        const auto requests = positions[t].requests(begin, begin + size);
        out.assign(size, Evaluation{});
        start.arrive_and_wait();
        server.evaluate(requests, out);
        positions_sent[t] += static_cast<int>(size);
        for (std::size_t i = 0; i < size; ++i) {
          const Evaluation& want = expected[t][begin + i];
          const Evaluation& got = out[i];
          bool ok = got.prior.size() == want.prior.size() && got.value.size() == want.value.size();
          for (std::size_t k = 0; ok && k < want.prior.size(); ++k)
            ok = std::fabs(got.prior[k] - want.prior[k]) <= 1e-6f + 1e-5f * want.prior[k];
          for (std::size_t j = 0; ok && j < want.value.size(); ++j) ok = std::fabs(got.value[j] - want.value[j]) <= 1e-5f;
          if (!ok && failures[t].empty())
            failures[t] = "thread " + std::to_string(t) + " round " + std::to_string(round) + " position " +
                          std::to_string(begin + i) + " got another answer";
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto& failure : failures) EXPECT_EQ(failure, "");

  const InferenceStats stats = server.stats();
  int total = 0;
  for (int n : positions_sent) total += n;
  EXPECT_EQ(stats.positions, static_cast<std::uint64_t>(total));
  EXPECT_EQ(stats.requests, static_cast<std::uint64_t>(kThreads * kRounds));
  if (config.threads > 0) {
    EXPECT_GE(stats.batches, static_cast<std::uint64_t>(total / config.max_batch));
  } else {
    EXPECT_EQ(stats.batches, stats.requests) << "each caller runs its own request, as one batch";
  }
  EXPECT_GT(stats.network_seconds, 0);
  server.reset_stats();
  EXPECT_EQ(server.stats().batches, 0u);
  EXPECT_EQ(server.stats().positions, 0u);
}

TEST(InferenceServer, SinglePositionRequestsFromThreadsShareBatches) {
  const Game& game = virus_war();
  const Model model(tiny_network(1, 8), game, 12);
  constexpr int kThreads = 4;
  constexpr int kRounds = 20;
  const Positions positions = random_positions(game, kThreads, 77);
  const std::vector<Evaluation> expected = direct_answers(model, positions);
  expect_distinct(expected);

  // A batch waits (up to a second) until every thread's position is in: the threads, released
  // together, fill it long before that, so each round is one batch of kThreads.
  InferenceConfig config;
  config.max_batch = kThreads;
  config.max_wait_us = 1000000;
  config.threads = 1;
  InferenceServer server(model, config);
  std::barrier start(kThreads);
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto request = positions.requests(t, t + 1);
      std::vector<Evaluation> out(1);
      for (int round = 0; round < kRounds; ++round) {
        start.arrive_and_wait();
        server.evaluate(request, out);
        if (out[0].prior.size() != expected[t].prior.size()) {
          ++wrong[t];
          continue;
        }
        for (std::size_t k = 0; k < out[0].prior.size(); ++k)
          if (std::fabs(out[0].prior[k] - expected[t].prior[k]) > 1e-6f + 1e-5f * expected[t].prior[k]) {
            ++wrong[t];
            break;
          }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[t], 0) << "thread " << t;
  const InferenceStats stats = server.stats();
  EXPECT_EQ(stats.positions, static_cast<std::uint64_t>(kThreads * kRounds));
  EXPECT_EQ(stats.requests, static_cast<std::uint64_t>(kThreads * kRounds));
  EXPECT_GT(stats.mean_batch(), 1.0) << stats.batches << " batches";
  EXPECT_LE(stats.mean_batch(), static_cast<double>(kThreads));
}

TEST_P(InferenceServerModes, AnswersMatchTheDirectEvaluatorInOneCall) {
  const Game& game = virus_war();
  const Model model(tiny_network(1, 8), game, 13);
  const Positions positions = random_positions(game, 30, 5);
  const auto requests = positions.requests(0, 30);
  std::vector<Evaluation> direct(30), served(30);
  NetworkEvaluator(model).evaluate(requests, direct);
  // One server thread, or none: either way one caller's request is one batch.
  InferenceServer server(model, InferenceConfig{.threads = std::min(GetParam(), 1)});
  server.evaluate(requests, served);
  for (std::size_t i = 0; i < 30; ++i) expect_same(served[i], direct[i], "position " + std::to_string(i));
  EXPECT_EQ(server.stats().batches, 1u);
  EXPECT_EQ(server.stats().positions, 30u);
}

// search.score_utility reads the score head through both evaluators: each request gets its
// own position's margin, and a network without the head gives none (NaN), never a stale one.
TEST_P(InferenceServerModes, ScoreMarginsComeFromTheScoreHeadAndOnlyFromIt) {
  const auto game = load_toy("toy_race(players=2,tokens=20)");
  NetworkConfig with_head = tiny_network(1, 8);
  with_head.score_head = true;
  for (const bool head : {true, false}) {
    SCOPED_TRACE(head ? "score head" : "no score head");
    const Model model(head ? with_head : tiny_network(1, 8), *game, 21);
    const Positions positions = random_positions(*game, 12, 9);
    const auto requests = positions.requests(0, 12);
    std::vector<Evaluation> direct(12), served(12);
    NetworkEvaluator(model).evaluate(requests, direct);
    InferenceServer server(model, InferenceConfig{.threads = GetParam()});
    server.evaluate(requests, served);
    int distinct = 0;
    for (std::size_t i = 0; i < 12; ++i) {
      expect_same(served[i], direct[i], "position " + std::to_string(i));
      EXPECT_EQ(std::isfinite(direct[i].score_margin), head) << i;
      if (head) {
        EXPECT_LE(std::abs(direct[i].score_margin), 1.0f);
      }
      distinct += i > 0 && direct[i].score_margin != direct[i - 1].score_margin;
    }
    if (head) {
      EXPECT_GT(distinct, 5);
    }
  }
}

TEST(InferenceServer, RejectsBadSettings) {
  const Model model(tiny_network(), virus_war(), 1);
  InferenceConfig config;
  config.max_batch = 0;
  EXPECT_THROW(InferenceServer(model, config), InputError);
  config = {};
  config.threads = -1;
  EXPECT_THROW(InferenceServer(model, config), InputError);
}


TEST_P(InferenceServerModes, ServesAPublishedModelFromTheNextBatchOn) {
  const Game& game = virus_war();
  auto first = std::make_shared<const Model>(tiny_network(1, 8), game, 13);
  auto second = std::make_shared<const Model>(tiny_network(1, 8), game, 14);
  const Positions positions = random_positions(game, 4, 9);
  const auto requests = positions.requests(0, 4);
  std::vector<Evaluation> served(4), direct(4);
  InferenceServer server(first, InferenceConfig{.threads = GetParam()});
  EXPECT_EQ(server.model_version(), 0);
  server.evaluate(requests, served);
  NetworkEvaluator(*first).evaluate(requests, direct);
  for (std::size_t i = 0; i < 4; ++i) expect_same(served[i], direct[i], "first model, position " + std::to_string(i));

  // The server keeps the new version alive by itself: the caller may drop its handle.
  const Model* second_address = second.get();
  server.set_model(std::move(second), 7);
  EXPECT_EQ(server.model_version(), 7);
  server.evaluate(requests, served);
  NetworkEvaluator(*second_address).evaluate(requests, direct);
  for (std::size_t i = 0; i < 4; ++i) expect_same(served[i], direct[i], "second model, position " + std::to_string(i));

  // A model of another game cannot replace it.
  auto morabaraba = load_game("morabaraba");
  EXPECT_THROW(server.set_model(std::make_shared<const Model>(tiny_network(), *morabaraba, 1), 8), InputError);
  EXPECT_THROW(server.set_model(nullptr, 8), InputError);
  EXPECT_EQ(server.model_version(), 7);
}

INSTANTIATE_TEST_SUITE_P(ServerThreadsOrNone, InferenceServerModes, testing::Values(2, 0),
                         [](const testing::TestParamInfo<int>& param) {
                           return param.param > 0 ? "ServerThreads" : "InTheCallersThread";
                         });

}  // namespace
}  // namespace boardlab
