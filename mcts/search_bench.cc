// Timed batched search over random mid-game positions.
#include "mcts/search_bench.h"

#include <chrono>
#include <memory>
#include <vector>

#include "core/errors.h"
#include "core/random_play.h"
#include "core/stop.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"

namespace boardlab {
namespace {

// A position a random number of random actions into a game (restarting if it ends).
std::unique_ptr<State> random_position(const Game& game, Rng& rng) {
  while (true) {
    std::unique_ptr<State> state = game.new_initial_state();
    const int depth = static_cast<int>(rng.below(static_cast<std::uint32_t>(game.max_game_length() / 4 + 1)));
    std::vector<Action> joint;
    for (int i = 0; i < depth && !state->is_terminal(); ++i) apply_random_step(*state, rng, joint);
    // The search starts where a player decides.
    while (state->is_chance_node()) apply_random_step(*state, rng, joint);
    if (!state->is_terminal()) return state;
  }
}

}  // namespace

SearchBenchStats bench_search(const Game& game, const SearchConfig& config, BenchEvaluator kind, int concurrent,
                              double min_seconds, std::uint64_t seed) {
  if (concurrent < 1 || concurrent > kMaxBenchConcurrent)
    throw InputError("bench_search: concurrent games must be 1 to " + std::to_string(kMaxBenchConcurrent) + ", got " +
                     std::to_string(concurrent));
  Rng rng(seed);
  std::unique_ptr<Evaluator> evaluator;
  if (kind == BenchEvaluator::kFree) evaluator = std::make_unique<FunctionEvaluator>(FunctionEvaluator::uniform(game.num_players()));
  else evaluator = std::make_unique<RolloutEvaluator>(rng());
  std::vector<std::unique_ptr<Search>> searches;
  std::vector<Search*> pointers;
  std::vector<std::unique_ptr<State>> positions;
  for (int i = 0; i < concurrent; ++i) {
    searches.push_back(std::make_unique<Search>(game, config, rng()));
    pointers.push_back(searches.back().get());
    positions.push_back(random_position(game, rng));
  }
  SearchDriver driver(*evaluator);
  SearchBenchStats stats;
  stats.concurrent = concurrent;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  while (true) {
    for (int i = 0; i < concurrent; ++i) {
      // Seat 0 decides for a simultaneous round; with hidden information the search draws
      // deals from its view, so the position stays alive until the search is done.
      const Player mover = positions[i]->current_player();
      searches[i]->start(PlayerView(*positions[i], mover >= 0 ? mover : 0));
    }
    driver.run(pointers);
    for (int i = 0; i < concurrent; ++i) {
      stats.simulations += static_cast<std::uint64_t>(searches[i]->result().simulations);
      ++stats.decisions;
      positions[i] = random_position(game, rng);
    }
    stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (stats.seconds >= min_seconds || stop_requested()) break;
  }
  stats.evaluations = driver.stats().evaluations;
  stats.batches = driver.stats().evaluator_calls;
  return stats;
}

}  // namespace boardlab
