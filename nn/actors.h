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
  std::int64_t passes = 0;      // of those, whole-turn passes (Game::pass_action as a turn's first action)
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

class Actors {
 public:
  struct Options {
    int workers = 1;
    SearchConfig search;
    SelfPlayConfig self_play;
    InferenceConfig inference;
  };
  // `seeds` gives each worker its random stream's state (a checkpoint's), or is empty for
  // fresh streams drawn from `fresh_seed`. `on_game` (may be empty) sees each finished game
  // and its final state after it entered the replay buffer, from a worker thread.
  Actors(const Game& game, const Options& options, std::shared_ptr<const Model> network, std::int64_t version,
         ReplayBuffer& replay, const std::vector<std::array<std::uint64_t, 4>>& seeds, std::uint64_t fresh_seed,
         std::function<void(const SelfPlayGame&, const State&)> on_game);
  ~Actors();  // stops and joins the threads
  Actors(const Actors&) = delete;
  Actors& operator=(const Actors&) = delete;

  // Starts the threads; they play until held, paused or stopped.
  void start();
  // Holds self-play (when it runs too far ahead of the learner) or lets it go on; returns at once.
  void hold(bool held);
  // Returns when every worker stands between two search steps, so that their random
  // streams may be read and the CPU is free (checkpoints, evaluations); resume() undoes it.
  void pause();
  void resume();
  void stop();

  // The network self-play uses from its next batch on, and its version (the learner's step).
  void publish(std::shared_ptr<const Model> network, std::int64_t version);
  // The learner's step now, for the network lag of games that finish.
  void set_learner_step(std::int64_t step) { learner_step_ = step; }

  // Each worker's random stream; only while paused (or before start / after stop).
  std::vector<std::array<std::uint64_t, 4>> rng_states() const;
  SelfPlayTally tally() const;
  std::uint64_t simulations() const;
  std::uint64_t searches() const;  // positions searched, in finished games or not
  InferenceStats inference_stats() const { return server_.stats(); }
  // Seconds spent paused since construction, the pause under way included: rates of
  // self-play leave out the evaluations and checkpoints that stopped it.
  double paused_seconds() const;
  // Rethrows the first error a worker thread met (a game that does not replay, ...).
  void check() const;

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
