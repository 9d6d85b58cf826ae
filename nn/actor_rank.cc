// An actor rank: self-play threads on the networks rank 0 broadcasts, their games sent back to it.
#include <unistd.h>

#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/errors.h"
#include "games/registry.h"
#include "nn/device.h"
#include "nn/distributed.h"
#include "nn/game_message.h"
#include "nn/mpi_world.h"
#include "nn/rank_roles.h"

namespace boardlab {
namespace {

// A network of the run's config with the broadcast's weights.
std::shared_ptr<const Model> network_of(const TrainConfig& cfg, const Game& game, const std::string& weights,
                                        std::int64_t version) {
  Model model(cfg.network, game, cfg.seed);
  model.to_device(resolve_device(cfg.network.device));  // this rank's machine: auto finds its own GPU or none
  model.set_weights(weights, "the learner's broadcast of version " + std::to_string(version));
  return std::make_shared<const Model>(std::move(model));
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

}  // namespace

TrainSummary play_for_rank_zero(const RankInfo& me, const TrainConfig& cfg, std::uint64_t session_seed, MPI_Comm group,
                                const std::function<void(const std::string&)>& log) {
  const std::shared_ptr<const Game> game = load_game(cfg.game);
  mpi::WeightChannel channel(Model(cfg.network, *game, cfg.seed).weights_size(), group);
  std::optional<mpi::WeightChannel::Message> first;
  while (!(first = channel.poll())) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  TrainSummary summary;
  summary.rank = me.rank;
  if (first->kind == mpi::WeightChannel::kStop) return summary;  // the learner ended before any play

  // Games finish on the worker threads; only this thread calls MPI, so they wait here.
  std::mutex mutex;
  std::deque<std::string> finished;
  Actors* actors_ptr = nullptr;
  auto report = [&] {
    const InferenceStats inference = actors_ptr->inference_stats();
    return ActorReport{.network_version = actors_ptr->network_version(),
                       .searches = actors_ptr->searches(),
                       .simulations = actors_ptr->simulations(),
                       .inference_batches = inference.batches,
                       .inference_positions = inference.positions};
  };
  const std::uint64_t seed = rank_seed(session_seed, me.rank);
  Actors actors(*game, {.workers = cfg.self_play.workers, .search = cfg.search, .self_play = cfg.self_play, .inference = cfg.inference},
                network_of(cfg, *game, first->weights, first->version), first->version, nullptr, {}, seed,
                [&](const SelfPlayGame& g, const State&) {
                  std::string message = encode_game_message(*game, report(), &g);
                  std::lock_guard lock(mutex);
                  finished.push_back(std::move(message));
                });
  actors_ptr = &actors;
  log(me.role() + " (pid " + std::to_string(getpid()) + " on " + host_name() + ") plays " + game->to_string() +
      " with " + std::to_string(cfg.self_play.workers) + " workers from network version " + std::to_string(first->version));

  mpi::Outbox outbox;
  auto send_finished = [&] {
    std::deque<std::string> ready;
    {
      std::lock_guard lock(mutex);
      ready.swap(finished);
    }
    for (auto& message : ready) outbox.send(std::move(message), 0, mpi::kGameTag);
    outbox.progress();
  };
  actors.start();
  std::int64_t versions = 1;
  while (true) {
    actors.check();
    send_finished();
    std::optional<mpi::WeightChannel::Message> next = channel.poll();
    if (next && next->kind == mpi::WeightChannel::kStop) break;
    if (next) {
      actors.publish(network_of(cfg, *game, next->weights, next->version), next->version);
      ++versions;
    }
    while (auto control = mpi::receive(0, mpi::kControlTag)) {
      if (control->second != "H" && control->second != "P")
        throw InputError("the learner sent a control message that is neither hold nor play");
      actors.hold(control->second == "H");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  // The games finished before the stop still go, then the last message with the counters.
  actors.stop();
  actors.check();
  send_finished();
  outbox.send(encode_game_message(*game, report(), nullptr), 0, mpi::kGameTag);
  outbox.flush();
  const SelfPlayTally t = actors.tally();
  log(me.role() + " stopped after " + std::to_string(t.games) + " games, " + std::to_string(t.positions) +
      " positions, " + std::to_string(versions) + " network versions");
  summary.games = t.games;
  summary.positions = t.positions;
  return summary;
}

}  // namespace boardlab
