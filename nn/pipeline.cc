// The training run's entry point: this process's part of the job, rank 0's being the whole run (nn/training_run.h).
#include "nn/pipeline.h"

#include <iostream>

#include "nn/distributed.h"
#include "nn/training_run.h"

namespace boardlab {

TrainSummary train(const TrainOptions& options) {
  RankInfo me = join_job();
  return run_as_rank(me, [&] {
    if (me.rank > 0)
      return follow_rank_zero(me, options.log ? options.log : [](const std::string& line) { std::cerr << line << std::endl; });
    return TrainingRun(options, me).run();
  });
}

}  // namespace boardlab
