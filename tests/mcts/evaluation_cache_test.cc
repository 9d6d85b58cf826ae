// Tests for the evaluation cache: what it keeps and hands back, when the driver asks again, and that searches are unchanged by it.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/errors.h"
#include "core/random_play.h"
#include "games/registry.h"
#include "mcts/evaluation_cache.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"

namespace boardlab {
namespace {

// A deterministic stand-in for a network: priors and values from the position's hash and the
// version, so that a stale answer differs from a fresh one. Counts every position it is asked.
class HashEvaluator final : public Evaluator {
 public:
  HashEvaluator(int players, bool reusable) : players_(players), reusable_(reusable) {}
  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override {
    ++calls;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      const std::uint64_t h = requests[i].state->hash() ^ static_cast<std::uint64_t>(version * 7919 + requests[i].player);
      out[i].prior.resize(requests[i].legal.size());
      for (std::size_t k = 0; k < out[i].prior.size(); ++k)
        out[i].prior[k] = 1.0f + static_cast<float>((h >> (k % 48)) & 15);
      out[i].value.assign(players_, 0.0f);
      out[i].value[requests[i].player] = static_cast<float>(h % 1000) / 500.0f - 1.0f;
      ++asked;
    }
  }
  std::int64_t answer_version() const override { return reusable_ ? version : kNotReusable; }

  std::int64_t version = 0;
  int calls = 0, asked = 0;

 private:
  int players_;
  bool reusable_;
};

std::unique_ptr<State> position(const Game& game, std::uint64_t seed, int steps) {
  Rng rng(seed);
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> joint;
  for (int i = 0; i < steps && !state->is_terminal(); ++i) apply_random_step(*state, rng, joint);
  return state;
}

Evaluation answer(std::vector<float> prior, std::vector<float> value) {
  Evaluation e;
  e.prior = std::move(prior);
  e.value = std::move(value);
  return e;
}

TEST(EvaluationCache, HandsBackWhatItKeptForTheSamePositionSeatAndVersion) {
  EvaluationCache cache(100);
  EXPECT_EQ(cache.capacity(), 128) << "rounded up to a power of two";
  cache.store(42, 0, 3, answer({0.25f, 0.75f}, {0.5f, -0.5f}));
  Evaluation out;
  ASSERT_TRUE(cache.find(42, 0, 3, out));
  EXPECT_EQ(out.prior, (std::vector<float>{0.25f, 0.75f}));
  EXPECT_EQ(out.value, (std::vector<float>{0.5f, -0.5f}));
  EXPECT_FALSE(cache.find(42, 1, 3, out)) << "another seat";
  EXPECT_FALSE(cache.find(42, 0, 4, out)) << "another version of the network";
  EXPECT_FALSE(cache.find(43, 0, 3, out)) << "another position";
  // Keys that differ only above the table's bits share a slot: the newer entry evicts the older.
  cache.store(42 + 128, 0, 3, answer({1.0f}, {0.0f, 0.0f}));
  EXPECT_FALSE(cache.find(42, 0, 3, out));
  ASSERT_TRUE(cache.find(42 + 128, 0, 3, out));
  EXPECT_EQ(out.prior, (std::vector<float>{1.0f}));
}

TEST(EvaluationCache, ZeroCapacityKeepsNothingAndANegativeOneIsRefused) {
  EvaluationCache none(0);
  none.store(1, 0, 0, answer({1.0f}, {0.0f}));
  Evaluation out;
  EXPECT_FALSE(none.find(1, 0, 0, out));
  EXPECT_THROW(EvaluationCache(-1), InputError);
}

TEST(EvaluationCache, TheDriverAsksOncePerPositionAndVersion) {
  // Searches whose roots are one position: their root requests are one position, asked once.
  const auto game = load_game("virus_war");
  const auto root = position(*game, 5, 9);
  for (bool reusable : {true, false}) {
    HashEvaluator evaluator(game->num_players(), reusable);
    SearchDriver driver(evaluator, 1024);
    SearchConfig config;
    config.simulations = 1;
    std::vector<std::unique_ptr<Search>> searches;
    std::vector<Search*> pointers;
    for (int i = 0; i < 4; ++i) {
      searches.push_back(std::make_unique<Search>(*game, config, 100 + i));
      pointers.push_back(searches.back().get());
    }
    for (Search* s : pointers) s->start(PlayerView::of_mover(*root));
    driver.step(pointers);  // the four roots' evaluations
    EXPECT_EQ(evaluator.asked, reusable ? 1 : 4) << "reusable " << reusable;
    EXPECT_EQ(driver.stats().reused, reusable ? 3u : 0u);
    EXPECT_EQ(driver.stats().evaluations, static_cast<std::uint64_t>(evaluator.asked));
    // Again from the same root: the cache answers it, until the network changes.
    for (Search* s : pointers) s->start(PlayerView::of_mover(*root));
    const int before = evaluator.asked;
    driver.step(pointers);
    EXPECT_EQ(evaluator.asked - before, reusable ? 0 : 4);
    evaluator.version = 1;
    for (Search* s : pointers) s->start(PlayerView::of_mover(*root));
    const int before_new_version = evaluator.asked;
    driver.step(pointers);
    EXPECT_EQ(evaluator.asked - before_new_version, reusable ? 1 : 4) << "a new version is asked again";
  }
}

TEST(EvaluationCache, SearchesPlayAlikeWithAndWithoutIt) {
  // The cache hands back the evaluator's own answers, so a search's visits, policy and value
  // are those it has without the cache, over a game's worth of consecutive searches with
  // tree reuse (whose discarded subtrees come back) and several concurrent games.
  const auto game = load_game("virus_war");
  SearchConfig config;
  config.simulations = 48;
  config.leaves_per_step = 4;
  config.reuse_tree = true;
  std::vector<std::vector<SearchResult>> runs;
  std::vector<std::uint64_t> reused;
  for (int cache : {0, 4096}) {
    HashEvaluator evaluator(game->num_players(), true);
    SearchDriver driver(evaluator, cache);
    std::vector<std::unique_ptr<Search>> searches;
    std::vector<std::unique_ptr<State>> states;
    std::vector<Search*> pointers;
    for (int g = 0; g < 3; ++g) {
      searches.push_back(std::make_unique<Search>(*game, config, 7 + g));
      states.push_back(position(*game, 11 + g, 3 * g));
      pointers.push_back(searches.back().get());
    }
    std::vector<SearchResult> results;
    for (int move = 0; move < 30; ++move) {
      std::vector<Search*> live;
      for (int g = 0; g < 3; ++g) {
        if (states[g]->is_terminal()) continue;
        searches[g]->start(PlayerView::of_mover(*states[g]));
        live.push_back(pointers[g]);
      }
      if (live.empty()) break;
      driver.run(live);
      for (int g = 0; g < 3; ++g) {
        if (states[g]->is_terminal()) continue;
        results.push_back(searches[g]->result());
        states[g]->apply(results.back().action);
      }
      if (move == 15) ++evaluator.version;  // a new network in mid-game
    }
    runs.push_back(std::move(results));
    reused.push_back(driver.stats().reused);
  }
  ASSERT_EQ(runs[0].size(), runs[1].size());
  for (std::size_t i = 0; i < runs[0].size(); ++i) {
    EXPECT_EQ(runs[0][i].action, runs[1][i].action) << "search " << i;
    EXPECT_EQ(runs[0][i].visits, runs[1][i].visits) << "search " << i;
    EXPECT_EQ(runs[0][i].policy, runs[1][i].policy) << "search " << i;
    EXPECT_EQ(runs[0][i].value, runs[1][i].value) << "search " << i;
  }
  EXPECT_EQ(reused[0], 0u);
  EXPECT_GT(reused[1], 0u) << "commuting sub-moves and reused trees bring positions back";
}

}  // namespace
}  // namespace boardlab
