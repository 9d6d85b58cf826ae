// Timing the network alone and inside self-play.
#include "nn/network_bench.h"

#include <chrono>
#include <thread>
#include <vector>

#include "games/registry.h"
#include "nn/inference_server.h"
#include "nn/model.h"
#include "nn/self_play.h"

namespace boardlab {

NetworkBenchStats bench_network(const TrainConfig& config, double seconds) {
  using Clock = std::chrono::steady_clock;
  const auto game = load_game(config.game);
  const Model model(config.network, *game, config.seed);
  NetworkBenchStats stats;
  stats.batch = config.self_play.concurrent_games * config.search.leaves_per_step;

  // Raw: each thread evaluates observations of real positions, the batch self-play sends.
  {
    const ObservationShape shape = model.input_shape();
    std::vector<float> inputs(static_cast<std::size_t>(stats.batch) * shape.size());
    Rng rng(config.seed);
    for (int i = 0; i < stats.batch; ++i) {
      std::unique_ptr<State> state = game->new_initial_state();
      const int depth = static_cast<int>(rng.below(60));
      for (int k = 0; k < depth && !state->is_terminal(); ++k) state->apply(state->random_legal_action(rng));
      if (state->is_terminal()) state = game->new_initial_state();
      state->observation(state->current_player(), std::span<float>(inputs.data() + static_cast<std::size_t>(i) * shape.size(), shape.size()));
    }
    std::vector<std::uint64_t> counts(config.workers, 0);
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int w = 0; w < config.workers; ++w) {
      threads.emplace_back([&, w] {
        std::vector<float> logits(static_cast<std::size_t>(stats.batch) * model.num_actions());
        std::vector<float> values(static_cast<std::size_t>(stats.batch) * model.num_players());
        while (std::chrono::duration<double>(Clock::now() - start).count() < seconds) {
          model.predict(inputs.data(), stats.batch, logits.data(), values.data());
          counts[w] += static_cast<std::uint64_t>(stats.batch);
        }
      });
    }
    for (auto& t : threads) t.join();
    std::uint64_t total = 0;
    for (auto c : counts) total += c;
    stats.evaluations_per_second = static_cast<double>(total) / std::chrono::duration<double>(Clock::now() - start).count();
  }

  // Self-play: the same network behind the inference server, the configured workers.
  {
    InferenceServer server(model, config.inference);
    std::vector<std::unique_ptr<SelfPlayWorker>> workers;
    Rng seeds(config.seed);
    for (int w = 0; w < config.workers; ++w)
      workers.push_back(std::make_unique<SelfPlayWorker>(*game, config.search, config.self_play, server, seeds()));
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (auto& w : workers)
      threads.emplace_back([&, worker = w.get()] { worker->run(std::numeric_limits<std::int64_t>::max(), stop, [](SelfPlayGame&&) {}); });
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& t : threads) t.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::uint64_t sims = 0;
    for (const auto& w : workers) sims += w->simulations();
    const InferenceStats inference = server.stats();
    stats.selfplay_simulations_per_second = static_cast<double>(sims) / elapsed;
    stats.selfplay_evaluations_per_second = static_cast<double>(inference.positions) / elapsed;
    stats.mean_batch = inference.mean_batch();
  }
  return stats;
}

}  // namespace boardlab
