// The learner's side of distributed self-play: actor ranks as an ActorPool, fed by MPI messages.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/actors.h"
#include "nn/distributed.h"
#include "nn/game_message.h"
#include "nn/mpi_world.h"

namespace boardlab {

class RemoteActors final : public ActorPool {
 public:
  // The actor ranks are me.learners..me.ranks-1, and have the run's config already; their
  // weight broadcasts go on `actors` (mpi::Groups::actors). Each game the replay takes goes
  // to `forward` as its message's bytes (the other learner ranks' replays), if given.
  RemoteActors(const RankInfo& me, const Game& game, MPI_Comm actors, std::shared_ptr<const Model> network,
               std::int64_t version, ReplayBuffer& replay, std::function<void(const SelfPlayGame&, const State&)> on_game,
               std::function<void(const std::string&)> forward);
  ~RemoteActors() override;

  void start() override {}
  // Sends each actor rank a hold or a go when the state changes.
  void hold(bool held) override;
  // Remote actors play on through checkpoints and evaluations: their random streams are not
  // checkpointed (a resumed run gives every rank fresh streams, whatever their number) and
  // their cores are other machines'.
  void pause() override {}
  void resume() override {}
  // Broadcasts the stop, then takes in every game the ranks finish until each has said it stopped.
  void stop() override;
  void publish(std::shared_ptr<const Model> network, std::int64_t version) override;
  void set_learner_step(std::int64_t step) override { learner_step_ = step; }
  std::vector<std::array<std::uint64_t, 4>> rng_states() const override { return {}; }
  SelfPlayTally tally() const override { return tally_; }
  std::uint64_t simulations() const override;
  std::uint64_t searches() const override;
  InferenceStats inference_stats() const override;
  double paused_seconds() const override { return 0; }
  // Receives the games that arrived: checked, into the replay, to on_game, tallied.
  void check() override;
  // Per actor rank: actorN_games, the games it sent this session, and actorN_network_age,
  // the mean age of the network its games of the interval were played with, in versions
  // (broadcasts the learner had made since that one when the game arrived).
  std::vector<std::string> metric_columns() const override;
  MetricsRow take_metrics() override;

  // "2 actor ranks; weight broadcasts of N bytes; M games in B bytes (B/M a game)": the bytes
  // of game messages received and of one broadcast as the root sends it.
  std::string traffic() const override;

 private:
  struct Rank {
    ActorReport report;
    std::int64_t games = 0;
    std::int64_t interval_games = 0;
    std::int64_t interval_age = 0;
    bool stopped = false;
  };
  // Handles one message; returns false when none was waiting.
  bool receive_one();

  RankInfo me_;
  const Game* game_;
  ReplayBuffer* replay_;
  std::function<void(const SelfPlayGame&, const State&)> on_game_;
  std::function<void(const std::string&)> forward_;
  std::unique_ptr<mpi::WeightChannel> channel_;  // made after the config is sent: the actors make theirs then
  mpi::Outbox outbox_;
  std::vector<Rank> ranks_;  // index: rank (0 unused)
  std::vector<std::int64_t> published_;  // versions broadcast, in order
  SelfPlayTally tally_;
  std::int64_t learner_step_ = 0;
  bool held_ = false, stopped_ = false;
  std::uint64_t game_bytes_ = 0;
};

}  // namespace boardlab
