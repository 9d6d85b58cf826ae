// A build with MPI: joining the job a launcher started, rank 0's links to the other ranks, and leaving cleanly or aborting with the rank's name.
#include <cstring>
#include <iostream>

#include "core/errors.h"
#include "nn/checkpoint.h"
#include "nn/distributed.h"
#include "nn/mpi_world.h"
#include "nn/rank_roles.h"
#include "nn/remote_actors.h"
#include "nn/replay_codec.h"
#include "nn/run_config_message.h"

namespace boardlab {
namespace {

class OtherRanksMpi final : public OtherRanks {
 public:
  OtherRanksMpi(const RankInfo& me, int learners) : me_(me), groups_(me.rank, learners) {}

  std::unique_ptr<ActorPool> actors(const Game& game, std::shared_ptr<const Model> network, std::int64_t version,
                                    ReplayBuffer& replay,
                                    std::function<void(const SelfPlayGame&, const State&)> on_game) override {
    std::function<void(const std::string&)> forward;
    if (me_.learners > 1) forward = [this](const std::string& message) { to_learners(kLearnerGame, message); };
    return std::make_unique<RemoteActors>(me_, game, groups_.actors, std::move(network), version, replay,
                                          std::move(on_game), std::move(forward));
  }

  void start_learners(const Model& model, Trainer& trainer, const ReplayBuffer& replay) override {
    if (me_.learners == 1) return;
    ByteWriter w;
    const std::string weights = model.weights(), optimizer = optimizer_state(trainer), memory = replay.serialize();
    w.put(static_cast<std::int64_t>(trainer.steps()));
    for (const std::string* part : {&weights, &optimizer, &memory}) {
      w.put(static_cast<std::uint64_t>(part->size()));
      w.put_bytes(part->data(), part->size());
    }
    to_learners(kLearnerStart, w.bytes());
    MPI_Comm learners = groups_.learners;
    trainer.set_gradient_average([learners](std::vector<float>& values) { mpi::average(learners, values); });
  }

  void step_learners(double time_fraction) override {
    if (me_.learners == 1) return;
    std::string payload(sizeof time_fraction, '\0');
    std::memcpy(payload.data(), &time_fraction, sizeof time_fraction);
    to_learners(kLearnerStep, payload);
  }

  void stop_learners(const Model& model) override {
    if (me_.learners == 1) return;
    to_learners(kLearnerStop, "");
    outbox_.flush();
    const std::int64_t mine = network_hash(model);
    for (int r = 1; r < me_.learners; ++r) {
      const std::string reply = mpi::wait_for(r, mpi::kReplyTag);
      std::int64_t theirs = 0;
      if (reply.size() != sizeof theirs)
        throw InputError("learner rank " + std::to_string(r) + " replied to the stop with " +
                         std::to_string(reply.size()) + " bytes, not a network hash");
      std::memcpy(&theirs, reply.data(), sizeof theirs);
      if (theirs != mine)
        throw std::runtime_error("learner rank " + std::to_string(r) + " ends with another network than rank 0 (hash " +
                                 std::to_string(theirs) + ", rank 0's " + std::to_string(mine) +
                                 "): the learners drifted apart; rank 0's checkpoints are the run's");
    }
  }

 private:
  void to_learners(LearnerCommand command, const std::string& payload) {
    for (int r = 1; r < me_.learners; ++r) outbox_.send(static_cast<char>(command) + payload, r, mpi::kLearnerTag);
    outbox_.progress();
  }

  RankInfo me_;
  mpi::Groups groups_;
  mpi::Outbox outbox_;
};

}  // namespace

std::string RankInfo::role() const {
  if (!mpi || ranks == 1) return "the only rank";
  if (rank == 0) return "learner (rank 0)";
  return (rank < learners ? "learner rank " : "actor rank ") + std::to_string(rank);
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

std::unique_ptr<OtherRanks> link_other_ranks(RankInfo& me, const TrainConfig& cfg, std::uint64_t session_seed) {
  if (cfg.distributed.learners >= me.ranks)
    throw InputError("distributed.learners is " + std::to_string(cfg.distributed.learners) + ", but the job has " +
                     std::to_string(me.ranks) + " ranks: at least one more must play (mpirun -np " +
                     std::to_string(cfg.distributed.learners + 1) + " or more)");
  me.learners = cfg.distributed.learners;
  mpi::broadcast_string(run_config_message(session_seed, cfg.yaml), me.rank);
  return std::make_unique<OtherRanksMpi>(me, cfg.distributed.learners);
}

TrainSummary follow_rank_zero(RankInfo& me, const std::function<void(const std::string&)>& log) {
  const auto [session_seed, yaml] = parse_run_config_message(mpi::broadcast_string("", me.rank));
  const TrainConfig cfg = parse_train_config(yaml, "the learner's config");
  me.learners = cfg.distributed.learners;
  const mpi::Groups groups(me.rank, cfg.distributed.learners);
  if (me.rank < cfg.distributed.learners) return learn_beside_rank_zero(me, cfg, session_seed, groups.learners, log);
  return play_for_rank_zero(me, cfg, session_seed, groups.actors, log);
}

}  // namespace boardlab
