// Timing the network alone and inside self-play.
#include "nn/network_bench.h"

#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <thread>
#include <vector>

#include "core/random_play.h"
#include "core/stop.h"
#include "games/registry.h"
#include "nn/device.h"
#include "nn/inference_server.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn/self_play.h"
#include "nn/trainer.h"

namespace boardlab {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kSliceSeconds = 1.0;  // each half's turn

double cpu_seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A random game with uniform policy targets at every choice: data for the learner that
// trains during the measurement (what it learns does not matter, only that it works).
SelfPlayGame random_game(const Game& game, Rng& rng) {
  SelfPlayGame record;
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> legal, joint;
  int ply = 0;
  while (!state->is_terminal()) {
    const Player actor = state->current_player();
    SelfPlayGame::Position position{ply, {}};
    for (Player p = 0; p < game.num_players() && actor != kChancePlayer; ++p) {
      if (actor >= 0 && p != actor) continue;
      state->legal_actions(p, legal);
      if (legal.size() > 1)
        position.targets.push_back({p, legal, std::vector<float>(legal.size(), 1.0f / static_cast<float>(legal.size()))});
    }
    if (!position.targets.empty()) record.positions.push_back(std::move(position));
    ply += apply_random_step(*state, rng, joint);
  }
  record.steps = state->history();
  record.returns = state->returns();
  record.truncated = state->is_truncated();
  return record;
}

// Trains a copy of the network on its own thread until stopped, and hands self-play a
// snapshot of it every publish_every steps, as a training run's learner does (so self-play's
// evaluation cache starts afresh as often as in a run).
class BackgroundLearner {
 public:
  using Publish = std::function<void(std::shared_ptr<const Model>, std::int64_t version)>;
  BackgroundLearner(const TrainConfig& config, const Game& game, const Model& model, Publish publish)
      : model_(model.clone()), trainer_(model_, config.training), replay_(game, 1 << 20), config_(config),
        publish_(std::move(publish)) {
    Rng rng(config.seed);
    while (replay_.positions() < 4 * config.training.batch_size) replay_.add(random_game(game, rng));
    thread_ = std::thread([this] {
      Model::set_torch_threads(config_.training.threads);
      Rng sampler(config_.seed + 1);
      TrainBatch batch;
      while (!stop_) {
        replay_.sample(config_.training.batch_size, sampler, config_.training.augment, batch,
                       config_.network.standings_baseline);
        trainer_.step(batch);
        if (++steps_ % config_.training.publish_every_steps == 0) publish_(std::make_shared<const Model>(model_.clone()), steps_);
      }
    });
  }
  ~BackgroundLearner() { stop(); }
  void stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  std::int64_t steps() const { return steps_; }
  // CPU time of the learner's thread so far.
  double cpu_seconds_so_far() {
    clockid_t clock{};
    return pthread_getcpuclockid(thread_.native_handle(), &clock) == 0 ? cpu_seconds(clock) : 0;
  }

 private:
  Model model_;
  Trainer trainer_;
  ReplayBuffer replay_;
  TrainConfig config_;
  Publish publish_;
  std::atomic<bool> stop_{false};
  std::atomic<std::int64_t> steps_{0};
  std::thread thread_;
};

// The raw half: `workers` threads, each predicting one batch of real positions' observations
// over and over, as self-play's workers send them.
class RawMeasurement {
 public:
  RawMeasurement(const TrainConfig& config, const Game& game, const Model& model, int batch)
      : model_(&model), batch_(batch), workers_(config.self_play.workers) {
    const ObservationShape shape = model.input_shape();
    inputs_.resize(static_cast<std::size_t>(batch) * shape.size());
    Rng rng(config.seed);
    std::vector<Action> joint;
    for (int i = 0; i < batch; ++i) {
      std::unique_ptr<State> state = game.new_initial_state();
      const int depth = static_cast<int>(rng.below(60));
      for (int k = 0; k < depth && !state->is_terminal(); ++k) apply_random_step(*state, rng, joint);
      if (state->is_terminal()) state = game.new_initial_state();
      // A simultaneous round is seen by each seat: take them in turn; chance is nobody's view.
      const Player actor = state->current_player();
      const Player viewer = actor >= 0 ? actor : static_cast<Player>(i % game.num_players());
      state->observation(viewer, std::span<float>(inputs_.data() + static_cast<std::size_t>(i) * shape.size(), shape.size()));
    }
  }
  void run_for(double seconds) {
    std::vector<std::uint64_t> counts(workers_, 0);
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int w = 0; w < workers_; ++w) {
      threads.emplace_back([&, w] {
        std::vector<float> logits(static_cast<std::size_t>(batch_) * model_->num_actions());
        std::vector<float> values(static_cast<std::size_t>(batch_) * model_->num_players());
        while (std::chrono::duration<double>(Clock::now() - start).count() < seconds && !stop_requested()) {
          model_->predict(inputs_.data(), batch_, logits.data(), values.data());
          counts[w] += static_cast<std::uint64_t>(batch_);
        }
      });
    }
    for (auto& t : threads) t.join();
    for (auto c : counts) evaluations_ += c;
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
  }
  double evaluations_per_second() const { return seconds_ > 0 ? static_cast<double>(evaluations_) / seconds_ : 0; }
  double seconds() const { return seconds_; }

 private:
  const Model* model_;
  int batch_, workers_;
  std::vector<float> inputs_;
  std::uint64_t evaluations_ = 0;
  double seconds_ = 0;
};

// The self-play half: the same network behind the inference server, the configured workers,
// whose games go on from one slice to the next.
class SelfPlayMeasurement {
 public:
  SelfPlayMeasurement(const TrainConfig& config, const Game& game, const Model& model)
      : server_(model, config.inference) {
    Rng seeds(config.seed);
    for (int w = 0; w < config.self_play.workers; ++w)
      workers_.push_back(std::make_unique<SelfPlayWorker>(game, config.search, config.self_play, server_, seeds()));
  }
  void run_for(double seconds) {
    std::atomic<bool> stop{false};
    std::vector<std::thread> threads;
    const InferenceStats before = server_.stats();
    const std::uint64_t sims_before = simulations();
    const auto start = Clock::now();
    for (auto& w : workers_)
      threads.emplace_back([&, worker = w.get()] { worker->run(std::numeric_limits<std::int64_t>::max(), stop, [](SelfPlayGame&&) {}); });
    while (std::chrono::duration<double>(Clock::now() - start).count() < seconds && !stop_requested())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    stop = true;
    for (auto& t : threads) t.join();
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
    const InferenceStats after = server_.stats();
    simulations_ += simulations() - sims_before;
    reused_ = 0;
    for (const auto& w : workers_) reused_ += w->driver_stats().reused;
    evaluations_ += after.positions - before.positions;
    batches_ += after.batches - before.batches;
  }
  double simulations_per_second() const { return seconds_ > 0 ? static_cast<double>(simulations_) / seconds_ : 0; }
  double evaluations_per_second() const { return seconds_ > 0 ? static_cast<double>(evaluations_) / seconds_ : 0; }
  double mean_batch() const { return batches_ ? static_cast<double>(evaluations_) / static_cast<double>(batches_) : 0; }
  double seconds() const { return seconds_; }
  // The share of self-play's positions the evaluation cache answered.
  double reused_share() const {
    const double asked = static_cast<double>(reused_ + evaluations_);
    return asked > 0 ? static_cast<double>(reused_) / asked : 0;
  }
  void publish(std::shared_ptr<const Model> network, std::int64_t version) { server_.set_model(std::move(network), version); }

 private:
  std::uint64_t simulations() const {
    std::uint64_t sims = 0;
    for (const auto& w : workers_) sims += w->simulations();
    return sims;
  }
  InferenceServer server_;
  std::vector<std::unique_ptr<SelfPlayWorker>> workers_;
  std::uint64_t simulations_ = 0, evaluations_ = 0, batches_ = 0, reused_ = 0;
  double seconds_ = 0;
};

}  // namespace

NetworkBenchStats bench_network(const TrainConfig& config, double seconds, bool with_training) {
  const auto game = load_game(config.game);
  Model model(config.network, *game, config.seed);
  model.to_device(resolve_device(config.network.device));
  NetworkBenchStats stats;
  stats.device = device_name(model.device());
  stats.batch = config.self_play.concurrent_games * config.search.leaves_per_step;
  stats.with_training = with_training;
  // The two halves take turns in short slices, so that both see the machine alike: on a
  // shared machine whose speed drifts by half within a minute, two measurements taken one
  // after the other compare the machine's moments, not the two halves.
  RawMeasurement raw(config, *game, model, stats.batch);
  SelfPlayMeasurement self_play(config, *game, model);
  std::unique_ptr<BackgroundLearner> learner;
  if (with_training)
    learner = std::make_unique<BackgroundLearner>(
        config, *game, model, [&](std::shared_ptr<const Model> network, std::int64_t version) {
          self_play.publish(std::move(network), version);
        });
  const auto learner_start = Clock::now();
  const int slices = std::max(1, static_cast<int>(std::lround(seconds / kSliceSeconds)));
  // The CPU time each half's threads got (the network threads of the inference server among
  // them): the process's, less the learner's.
  const auto measuring_cpu = [&] {
    return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - (learner ? learner->cpu_seconds_so_far() : 0.0);
  };
  double raw_cpu = 0, self_play_cpu = 0;
  for (int i = 0; i < slices && !stop_requested(); ++i) {
    double cpu_start = measuring_cpu();
    raw.run_for(seconds / slices);
    raw_cpu += measuring_cpu() - cpu_start;
    cpu_start = measuring_cpu();
    self_play.run_for(seconds / slices);
    self_play_cpu += measuring_cpu() - cpu_start;
  }
  if (raw.seconds() > 0 && self_play.seconds() > 0) {
    stats.raw_cores = raw_cpu / raw.seconds();
    stats.selfplay_cores = self_play_cpu / self_play.seconds();
  }
  stats.evaluations_per_second = raw.evaluations_per_second();
  stats.selfplay_simulations_per_second = self_play.simulations_per_second();
  stats.selfplay_evaluations_per_second = self_play.evaluations_per_second();
  stats.mean_batch = self_play.mean_batch();
  stats.selfplay_reused_share = self_play.reused_share();
  if (learner) {
    learner->stop();
    stats.training_steps_per_second =
        static_cast<double>(learner->steps()) / std::chrono::duration<double>(Clock::now() - learner_start).count();
  }
  return stats;
}

}  // namespace boardlab
