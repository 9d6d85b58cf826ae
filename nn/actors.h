// The actors: self-play threads that play without pause on the newest published network and fill the replay buffer.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "nn/inference_server.h"
#include "nn/metrics_file.h"
#include "nn/model.h"
#include "nn/replay_buffer.h"
#include "nn/self_play.h"

namespace boardlab {

// What self-play produced, counted as games finish.
struct SelfPlayTally {
  std::int64_t games = 0;
  std::int64_t positions = 0;  // searched positions (training examples' positions)
  std::int64_t steps = 0;      // every step, forced ones and chance included
  std::int64_t turns = 0;      // State::move_number at the end
  std::int64_t draws = 0;      // games whose returns are all equal (truncated ones included)
  std::int64_t truncated = 0;
  std::int64_t seat_turns = 0;  // turns of seats, as count_turns counts them
  std::int64_t passes = 0;      // of those, whole-turn passes (GameTraits::pass_action as a turn's first action)
  std::int64_t network_lag = 0;  // summed over games: learner steps between the network that
                                 // played a game's last move and the learner at its end

  SelfPlayTally& operator+=(const SelfPlayTally& o) {
    games += o.games;
    positions += o.positions;
    steps += o.steps;
    turns += o.turns;
    draws += o.draws;
    truncated += o.truncated;
    seat_turns += o.seat_turns;
    passes += o.passes;
    network_lag += o.network_lag;
    return *this;
  }
};

// Tallies one finished game; `final_state` is the state after its steps.
SelfPlayTally tally_game(const Game& game, const SelfPlayGame& record, const State& final_state);

// Where a training run's games come from, as its loop sees them: self-play threads in this
// process (Actors), or actor ranks on other machines (nn/remote_actors.h). The learner
// holds, pauses, publishes and reads the tallies the same way for both.
class ActorPool {
 public:
  virtual ~ActorPool() = default;
  virtual void start() = 0;
  // Holds self-play (when it runs too far ahead of the learner) or lets it go on; returns at once.
  virtual void hold(bool held) = 0;
  // Frees the CPU and stills the random streams for a checkpoint or evaluation; resume() undoes it.
  virtual void pause() = 0;
  virtual void resume() = 0;
  // Ends self-play; the games finished before it returns are in the replay and the tallies.
  virtual void stop() = 0;
  // The network self-play uses from its next batch on, and its version (the learner's step).
  virtual void publish(std::shared_ptr<const Model> network, std::int64_t version) = 0;
  // The learner's step now, for the network lag of games that finish.
  virtual void set_learner_step(std::int64_t step) = 0;
  // The random streams a checkpoint keeps (only while paused, before start or after stop).
  virtual std::vector<std::array<std::uint64_t, 4>> rng_states() const = 0;
  virtual SelfPlayTally tally() const = 0;
  virtual std::uint64_t simulations() const = 0;
  virtual std::uint64_t searches() const = 0;  // positions searched, in finished games or not
  virtual InferenceStats inference_stats() const = 0;
  // Seconds spent paused: rates of self-play leave out the pauses.
  virtual double paused_seconds() const = 0;
  // Takes in what arrived since the last call (remote games) and rethrows the first error
  // the actors met (a game that does not replay, a malformed message, ...).
  virtual void check() = 0;
  // Columns of metrics.csv of this pool's own (per actor rank), and their values since the last call.
  virtual std::vector<std::string> metric_columns() const { return {}; }
  virtual MetricsRow take_metrics() { return {}; }
  // What crossed the network so far, for the run's log (remote actors); empty for local ones.
  virtual std::string traffic() const { return {}; }
};

class Actors final : public ActorPool {
 public:
  struct Options {
    int workers = 1;
    SearchConfig search;
    SelfPlayConfig self_play;
    InferenceConfig inference;
  };
  // `seeds` gives each worker its random stream's state (a checkpoint's), or is empty for
  // fresh streams drawn from `fresh_seed`. `on_game` (may be empty) sees each finished game
  // and its final state after it entered the replay buffer (when there is one: an actor
  // rank has none and sends its games on), from a worker thread.
  Actors(const Game& game, const Options& options, std::shared_ptr<const Model> network, std::int64_t version,
         ReplayBuffer* replay, const std::vector<std::array<std::uint64_t, 4>>& seeds, std::uint64_t fresh_seed,
         std::function<void(const SelfPlayGame&, const State&)> on_game);
  ~Actors();  // stops and joins the threads
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;

  // Starts the threads; they play until held, paused or stopped.
  void start() override;
  void hold(bool held) override;
  // Returns when every worker stands between two search steps, so that their random
  // streams may be read and the CPU is free (checkpoints, evaluations).
  void pause() override;
  void resume() override;
  void stop() override;

  void publish(std::shared_ptr<const Model> network, std::int64_t version) override;
  void set_learner_step(std::int64_t step) override { learner_step_ = step; }
  // The version of the network self-play uses now.
  std::int64_t network_version() const { return server_.model_version(); }

  // Each worker's random stream.
  std::vector<std::array<std::uint64_t, 4>> rng_states() const override;
  SelfPlayTally tally() const override;
  std::uint64_t simulations() const override;
  std::uint64_t searches() const override;
  InferenceStats inference_stats() const override { return server_.stats(); }
  // Since construction, the pause under way included.
  double paused_seconds() const override;
  // Rethrows the first error a worker thread met.
  void check() override;

 private:
  void play(SelfPlayWorker& worker);
  void update_yield();  // with mutex_ held

  const Game* game_;
  InferenceServer server_;
  ReplayBuffer* replay_;
  std::function<void(const SelfPlayGame&, const State&)> on_game_;
  std::vector<std::unique_ptr<SelfPlayWorker>> workers_;
  std::vector<std::thread> threads_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool held_ = false, paused_ = false, stopping_ = false;
  std::chrono::steady_clock::time_point paused_since_;
  double paused_before_ = 0;  // seconds of the pauses that ended
  int waiting_ = 0;                 // workers parked by a hold, pause or stop
  std::atomic<bool> yield_{false};  // what the workers' run() polls: held, paused or stopping
  std::exception_ptr error_;
  SelfPlayTally tally_;
  std::atomic<std::int64_t> learner_step_{0};
};

}  // namespace boardlab
