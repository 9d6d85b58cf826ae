// Running self-play threads against a published network, with hold, pause and stop.
#include "nn/actors.h"

#include <limits>

#include "core/errors.h"
#include "core/steps.h"

namespace boardlab {

Actors::Actors(const Game& game, const Options& options, std::shared_ptr<const Model> network, std::int64_t version,
               ReplayBuffer* replay, const std::vector<std::array<std::uint64_t, 4>>& seeds, std::uint64_t fresh_seed,
               std::function<void(const SelfPlayGame&, const State&)> on_game)
    : game_(&game), server_(network, options.inference), replay_(replay), on_game_(std::move(on_game)) {
  if (options.workers < 1) throw InputError("self-play: workers must be at least 1");
  server_.set_model(std::move(network), version);
  learner_step_ = version;
  // A checkpoint's streams are used when it has one per worker; a run resumed with another
  // number of workers starts fresh streams.
  const bool restore = seeds.size() == static_cast<std::size_t>(options.workers);
  Rng fresh(fresh_seed);
  for (int w = 0; w < options.workers; ++w) {
    Rng stream(fresh());
    if (restore) stream.set_state(seeds[static_cast<std::size_t>(w)]);
    workers_.push_back(std::make_unique<SelfPlayWorker>(game, options.search, options.self_play, server_, stream));
    workers_.back()->set_max_batch(options.inference.max_batch);
  }
}

SelfPlayTally tally_game(const Game& game, const SelfPlayGame& record, const State& final_state) {
  SelfPlayTally t;
  t.games = 1;
  t.positions = static_cast<std::int64_t>(record.positions.size());
  t.steps = static_cast<std::int64_t>(record.steps.size());
  t.turns = final_state.move_number();
  t.truncated = record.truncated ? 1 : 0;
  t.draws = is_draw(record.returns) ? 1 : 0;
  const TurnCount turns = count_turns(record.steps, game.traits().pass_action);
  t.seat_turns = turns.turns;
  t.passes = turns.passes;
  return t;
}

Actors::~Actors() { stop(); }

void Actors::start() {
  std::lock_guard lock(mutex_);
  if (!threads_.empty() || stopping_) return;
  for (auto& worker : workers_) threads_.emplace_back([this, w = worker.get()] { play(*w); });
}

void Actors::update_yield() { yield_ = held_ || paused_ || stopping_; }

void Actors::hold(bool held) {
  std::lock_guard lock(mutex_);
  if (held_ == held) return;
  held_ = held;
  update_yield();
  changed_.notify_all();
}

void Actors::pause() {
  std::unique_lock lock(mutex_);
  if (stopping_) return;  // stopped threads stand still for good
  if (!paused_) paused_since_ = std::chrono::steady_clock::now();
  paused_ = true;
  update_yield();
  changed_.notify_all();
  changed_.wait(lock, [&] { return waiting_ == static_cast<int>(threads_.size()); });
}

void Actors::resume() {
  std::lock_guard lock(mutex_);
  if (paused_) paused_before_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - paused_since_).count();
  paused_ = false;
  update_yield();
  changed_.notify_all();
}

double Actors::paused_seconds() const {
  std::lock_guard lock(mutex_);
  return paused_before_ +
         (paused_ ? std::chrono::duration<double>(std::chrono::steady_clock::now() - paused_since_).count() : 0);
}

void Actors::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    update_yield();
    changed_.notify_all();
  }
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

void Actors::play(SelfPlayWorker& worker) {
  const auto sink = [&](SelfPlayGame&& game) {
    // Replayed here, on the worker's thread: the final state gives the diagnostics and the
    // record, and a game that does not replay is refused before it reaches the buffer.
    std::unique_ptr<State> final_state = game_->new_initial_state();
    apply_steps(*final_state, game.steps);
    if (replay_) replay_->add(game);
    SelfPlayTally t = tally_game(*game_, game, *final_state);
    t.network_lag = learner_step_ - server_.model_version();
    if (on_game_) on_game_(game, *final_state);
    std::lock_guard lock(mutex_);
    tally_ += t;
  };
  try {
    while (true) {
      {
        std::unique_lock lock(mutex_);
        if (held_ || paused_ || stopping_) {
          ++waiting_;
          changed_.notify_all();
          changed_.wait(lock, [&] { return stopping_ || !(held_ || paused_); });
          --waiting_;
        }
        if (stopping_) return;
      }
      worker.run(std::numeric_limits<std::int64_t>::max(), yield_, sink);
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = std::current_exception();
    // A failed worker counts as parked, so pause() does not wait for it forever.
    ++waiting_;
    changed_.notify_all();
  }
}

void Actors::publish(std::shared_ptr<const Model> network, std::int64_t version) {
  server_.set_model(std::move(network), version);
}

std::vector<std::array<std::uint64_t, 4>> Actors::rng_states() const {
  std::vector<std::array<std::uint64_t, 4>> out;
  for (const auto& w : workers_) out.push_back(w->rng().state());
  return out;
}

SelfPlayTally Actors::tally() const {
  std::lock_guard lock(mutex_);
  return tally_;
}

std::uint64_t Actors::simulations() const {
  std::uint64_t total = 0;
  for (const auto& w : workers_) total += w->simulations();
  return total;
}

std::uint64_t Actors::searches() const {
  std::uint64_t total = 0;
  for (const auto& w : workers_) total += w->searches();
  return total;
}

void Actors::check() {
  std::lock_guard lock(mutex_);
  if (error_) std::rethrow_exception(error_);
}

}  // namespace boardlab
