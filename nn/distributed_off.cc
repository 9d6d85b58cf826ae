// A build without MPI: every process is one rank of one, and the distributed parts are never reached.
#include <stdexcept>

#include "nn/distributed.h"

namespace boardlab {

std::string RankInfo::role() const { return "the only rank"; }

RankInfo join_job() { return {}; }

TrainSummary run_as_rank(const RankInfo&, const std::function<TrainSummary()>& part) { return part(); }

TrainSummary act_for_learner(const RankInfo&, const std::function<void(const std::string&)>&) {
  throw std::logic_error("act_for_learner: this boardlab was built without MPI (BOARDLAB_MPI=OFF)");
}

std::unique_ptr<ActorPool> make_remote_actors(const RankInfo&, const Game&, const TrainConfig&, std::uint64_t,
                                              std::shared_ptr<const Model>, std::int64_t, ReplayBuffer&,
                                              std::function<void(const SelfPlayGame&, const State&)>) {
  throw std::logic_error("make_remote_actors: this boardlab was built without MPI (BOARDLAB_MPI=OFF)");
}

}  // namespace boardlab
