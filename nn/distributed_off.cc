// A build without MPI: every process is one rank of one, and the distributed parts are never reached.
#include <stdexcept>

#include "nn/distributed.h"

namespace boardlab {

std::string RankInfo::role() const { return "the only rank"; }

RankInfo join_job() { return {}; }

TrainSummary run_as_rank(const RankInfo&, const std::function<TrainSummary()>& part) { return part(); }

TrainSummary follow_rank_zero(RankInfo&, const std::function<void(const std::string&)>&) {
  throw std::logic_error("follow_rank_zero: this boardlab was built without MPI (BOARDLAB_MPI=OFF)");
}

std::unique_ptr<OtherRanks> link_other_ranks(RankInfo&, const TrainConfig&, std::uint64_t) {
  throw std::logic_error("link_other_ranks: this boardlab was built without MPI (BOARDLAB_MPI=OFF)");
}

}  // namespace boardlab
