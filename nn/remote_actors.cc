// Rank 0's actor ranks: the config and networks sent out, games taken in and checked, per-rank metrics.
#include "nn/remote_actors.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include "core/errors.h"
#include "core/steps.h"

namespace boardlab {

RemoteActors::RemoteActors(const RankInfo& me, const Game& game, MPI_Comm actors, std::shared_ptr<const Model> network,
                           std::int64_t version, ReplayBuffer& replay,
                           std::function<void(const SelfPlayGame&, const State&)> on_game,
                           std::function<void(const std::string&)> forward)
    : me_(me),
      game_(&game),
      replay_(&replay),
      on_game_(std::move(on_game)),
      forward_(std::move(forward)),
      ranks_(static_cast<std::size_t>(me.ranks)) {
  channel_ = std::make_unique<mpi::WeightChannel>(network->weights_size(), actors);
  publish(std::move(network), version);
  learner_step_ = version;
}

RemoteActors::~RemoteActors() = default;

void RemoteActors::hold(bool held) {
  if (held == held_ || stopped_) return;
  held_ = held;
  for (int r = me_.learners; r < me_.ranks; ++r) outbox_.send(held ? "H" : "P", r, mpi::kControlTag);
}

void RemoteActors::publish(std::shared_ptr<const Model> network, std::int64_t version) {
  channel_->send(mpi::WeightChannel::kWeights, version, network->weights());
  published_.push_back(version);
}

bool RemoteActors::receive_one() {
  auto message = mpi::receive(MPI_ANY_SOURCE, mpi::kGameTag);
  if (!message) return false;
  const auto& [source, bytes] = *message;
  const std::string from = "actor rank " + std::to_string(source);
  if (source < me_.learners || source >= me_.ranks)
    throw InputError("a game message came from rank " + std::to_string(source) + ", which is no actor");
  game_bytes_ += bytes.size();
  GameMessage m = decode_game_message(*game_, bytes, from);
  Rank& rank = ranks_[static_cast<std::size_t>(source)];
  if (rank.stopped) throw InputError(from + " sent a message after its last one");
  rank.report = m.report;
  if (!m.game) {
    rank.stopped = true;
    return true;
  }
  const SelfPlayGame& game = *m.game;
  std::unique_ptr<State> final_state = game_->new_initial_state();
  apply_steps(*final_state, game.steps);
  try {
    replay_->add(game);
  } catch (const InputError& e) {
    throw InputError(from + " sent a game the replay refuses: " + e.what());
  }
  if (forward_) forward_(bytes);
  SelfPlayTally t = tally_game(*game_, game, *final_state);
  t.network_lag = learner_step_ - m.report.network_version;
  if (on_game_) on_game_(game, *final_state);
  tally_ += t;
  ++rank.games;
  ++rank.interval_games;
  // The broadcasts made after the one this game was played with.
  rank.interval_age += published_.end() - std::upper_bound(published_.begin(), published_.end(), m.report.network_version);
  return true;
}

void RemoteActors::check() {
  while (receive_one()) {
  }
  outbox_.progress();
}

void RemoteActors::stop() {
  if (stopped_) return;
  stopped_ = true;
  channel_->send(mpi::WeightChannel::kStop, learner_step_, {});
  const auto all_stopped = [&] {
    for (std::size_t r = static_cast<std::size_t>(me_.learners); r < ranks_.size(); ++r)
      if (!ranks_[r].stopped) return false;
    return true;
  };
  while (!all_stopped())
    if (!receive_one()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  channel_->finish();
  outbox_.flush();
}

std::uint64_t RemoteActors::simulations() const {
  std::uint64_t total = 0;
  for (const Rank& r : ranks_) total += r.report.simulations;
  return total;
}

std::uint64_t RemoteActors::searches() const {
  std::uint64_t total = 0;
  for (const Rank& r : ranks_) total += r.report.searches;
  return total;
}

InferenceStats RemoteActors::inference_stats() const {
  InferenceStats total;
  for (const Rank& r : ranks_) {
    total.batches += r.report.inference_batches;
    total.positions += r.report.inference_positions;
  }
  return total;
}

std::string RemoteActors::traffic() const {
  std::string line = std::to_string(me_.ranks - me_.learners) + " actor ranks; " + std::to_string(published_.size()) +
                     " weight broadcasts of " + std::to_string(channel_->message_bytes()) + " bytes";
  if (tally_.games > 0)
    line += "; " + std::to_string(tally_.games) + " games in " + std::to_string(game_bytes_) + " bytes (" +
            std::to_string(game_bytes_ / static_cast<std::uint64_t>(tally_.games)) + " a game, " +
            std::to_string(game_bytes_ / static_cast<std::uint64_t>(std::max<std::int64_t>(1, tally_.positions))) +
            " a position)";
  return line;
}

std::vector<std::string> RemoteActors::metric_columns() const {
  std::vector<std::string> columns;
  for (int r = me_.learners; r < me_.ranks; ++r) {
    columns.push_back("actor" + std::to_string(r) + "_games");
    columns.push_back("actor" + std::to_string(r) + "_network_age");
  }
  return columns;
}

MetricsRow RemoteActors::take_metrics() {
  MetricsRow row;
  for (int r = me_.learners; r < me_.ranks; ++r) {
    Rank& rank = ranks_[static_cast<std::size_t>(r)];
    const std::string name = "actor" + std::to_string(r);
    row[name + "_games"] = std::to_string(rank.games);
    if (rank.interval_games > 0)
      row[name + "_network_age"] =
          metric_number(static_cast<double>(rank.interval_age) / static_cast<double>(rank.interval_games), 2);
    rank.interval_games = rank.interval_age = 0;
  }
  return row;
}

}  // namespace boardlab
