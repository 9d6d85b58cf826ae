// A build with MPI: joining the job a launcher started, and leaving it cleanly or aborting it with the rank's name.
#include <iostream>

#include "nn/distributed.h"
#include "nn/mpi_world.h"
#include "nn/remote_actors.h"

namespace boardlab {

std::string RankInfo::role() const {
  if (!mpi || ranks == 1) return "the only rank";
  return rank == 0 ? "learner (rank 0)" : "actor rank " + std::to_string(rank);
}

RankInfo join_job() {
  if (!mpi::launched()) return {};
  const auto [rank, size] = mpi::join();
  return {.mpi = true, .rank = rank, .ranks = size};
}

TrainSummary run_as_rank(const RankInfo& me, const std::function<TrainSummary()>& part) {
  if (!me.mpi) return part();
  TrainSummary summary;
  try {
    summary = part();
  } catch (const std::exception& e) {
    // The other ranks would wait for this one forever: the job ends here, naming who failed.
    std::cerr << "boardlab: " << me.role() << " failed: " << e.what() << "; ending the MPI job" << std::endl;
    mpi::abort_job(1);
  }
  mpi::finalize();
  return summary;
}

std::unique_ptr<ActorPool> make_remote_actors(const RankInfo& me, const Game& game, const TrainConfig& cfg,
                                              std::uint64_t session_seed, std::shared_ptr<const Model> network,
                                              std::int64_t version, ReplayBuffer& replay,
                                              std::function<void(const SelfPlayGame&, const State&)> on_game) {
  return std::make_unique<RemoteActors>(me, game, cfg, session_seed, std::move(network), version, replay,
                                        std::move(on_game));
}

}  // namespace boardlab
