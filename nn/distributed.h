// Training across machines on Open MPI: which rank this process is, and each rank's part (learner or actor).
//
// `mpirun -np N boardlab train ...` (or `srun` under SLURM) starts N copies of one command.
// Rank 0 opens the run folder and runs nn/training_run.h's loop with its games coming from the
// actor ranks (nn/remote_actors.h) instead of local threads. With distributed.learners L
// above 1, ranks 1..L-1 learn beside it (nn/learner_rank.cc): each samples its own batch
// from a replay that rank 0 keeps equal to its own, and every step averages the learners'
// gradients, so all hold the same network; rank 0 alone checkpoints, evaluates and writes
// metrics. Ranks L..N-1 are actors (nn/actor_rank.cc): they get the run's config and every
// published network from rank 0, play self-play on their own cores and send their games
// back. A single process, or one rank, trains as before. Without BOARDLAB_MPI the build has
// one rank always (distributed_off.cc).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "nn/actors.h"
#include "nn/pipeline.h"
#include "nn/replay_buffer.h"
#include "nn/train_config.h"
#include "nn/trainer.h"

namespace boardlab {

struct RankInfo {
  bool mpi = false;  // joined an MPI job (launched by mpirun or srun, in a build with MPI)
  int rank = 0;
  int ranks = 1;
  int learners = 1;  // distributed.learners, once this rank has the run's config
  std::string role() const;  // "learner (rank 0)", "learner rank 1", "actor rank 2"
};

// Joins the MPI job this process was launched in, once; one rank of one otherwise.
RankInfo join_job();

// Runs this rank's part and leaves the job: MPI_Finalize once it returns; when it throws,
// a message naming the rank (`me` as it is then) on standard error and MPI_Abort of the
// whole job, so that no rank waits forever for one that failed.
TrainSummary run_as_rank(const RankInfo& me, const std::function<TrainSummary()>& part);

// A rank above 0: takes the run's config from rank 0, which says whether this rank learns
// beside it or plays (setting me.learners), and does that until rank 0 says stop.
TrainSummary follow_rank_zero(RankInfo& me, const std::function<void(const std::string&)>& log);

// Each rank's random streams differ, and a resumed session's differ from the last one's.
inline std::uint64_t rank_seed(std::uint64_t session_seed, int rank) {
  return session_seed ^ (0x9e3779b97f4a7c15ULL * static_cast<std::uint64_t>(rank));
}

// Rank 0's links to the other ranks of its job.
class OtherRanks {
 public:
  virtual ~OtherRanks() = default;
  // The actor ranks as the loop's pool: they start from `network` as version `version`;
  // games they finish enter `replay` (and the other learners') and go to `on_game` as
  // local actors' do, on the learner's thread.
  virtual std::unique_ptr<ActorPool> actors(const Game& game, std::shared_ptr<const Model> network,
                                            std::int64_t version, ReplayBuffer& replay,
                                            std::function<void(const SelfPlayGame&, const State&)> on_game) = 0;
  // The other learner ranks (none with one learner) start from rank 0's network, optimizer
  // state, step and replay, and `trainer` averages its gradients with theirs from now on.
  virtual void start_learners(const Model& model, Trainer& trainer, const ReplayBuffer& replay) = 0;
  // Before each of rank 0's steps: the others take theirs with it, at the same point of
  // the schedule (Trainer::set_time_fraction).
  virtual void step_learners(double time_fraction) = 0;
  // Ends the other learners; throws when a network came out different from rank 0's
  // (`model`): the learners drifted apart, which identical steps must never allow.
  virtual void stop_learners(const Model& model) = 0;
};

// Sends every other rank the run's config (`cfg.yaml`) and a seed for this session's
// random streams, and splits the job into its groups. InputError when the job's ranks
// cannot hold distributed.learners learners and at least one actor.
std::unique_ptr<OtherRanks> link_other_ranks(RankInfo& me, const TrainConfig& cfg, std::uint64_t session_seed);

}  // namespace boardlab
