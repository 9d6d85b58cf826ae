// Training across machines on Open MPI: which rank this process is, and each rank's part (learner or actor).
//
// `mpirun -np N boardlab train ...` (or `srun` under SLURM) starts N copies of one command.
// Rank 0 is the learner: it opens the run folder and runs nn/pipeline.h's loop with its
// games coming from the other ranks (nn/remote_actors.h) instead of local threads. Ranks
// 1..N-1 are actors (nn/actor_rank.cc): they get the run's config and every published
// network from rank 0, play self-play on their own cores and send their games back. A
// single process, or one rank, trains as before. Without BOARDLAB_MPI the build has one
// rank always (distributed_off.cc).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nn/actors.h"
#include "nn/pipeline.h"
#include "nn/replay_buffer.h"
#include "nn/train_config.h"

namespace boardlab {

struct RankInfo {
  bool mpi = false;  // joined an MPI job (launched by mpirun or srun, in a build with MPI)
  int rank = 0;
  int ranks = 1;
  std::string role() const;  // "learner (rank 0)", "actor rank 2"
};

// Joins the MPI job this process was launched in, once; one rank of one otherwise.
RankInfo join_job();

// Runs this rank's part and leaves the job: MPI_Finalize once it returns; when it throws,
// a message naming the rank on standard error and MPI_Abort of the whole job, so that no
// rank waits forever for one that failed.
TrainSummary run_as_rank(const RankInfo& me, const std::function<TrainSummary()>& part);

// An actor rank's whole part: plays with the networks rank 0 broadcasts until it says stop.
TrainSummary act_for_learner(const RankInfo& me, const std::function<void(const std::string&)>& log);

// Rank 0's pool of actor ranks. Sends them the run's config (`cfg.yaml`) and a seed for
// this session's random streams, then `network` as version `version`; games they finish
// enter `replay` and go to `on_game` as local actors' do, on the learner's thread.
std::unique_ptr<ActorPool> make_remote_actors(const RankInfo& me, const Game& game, const TrainConfig& cfg,
                                              std::uint64_t session_seed, std::shared_ptr<const Model> network,
                                              std::int64_t version, ReplayBuffer& replay,
                                              std::function<void(const SelfPlayGame&, const State&)> on_game);

}  // namespace boardlab
