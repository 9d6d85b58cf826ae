// The training run's one-line progress report, and the clock format it and the log share.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "nn/metrics_file.h"
#include "nn/run_evaluator.h"
#include "nn/train_config.h"

namespace boardlab {

// "1:05" under an hour, "1:02:03" from an hour on; negative times read as 0.
std::string duration(double seconds);

// "step 120/4000 | games 64 | ... | ladder 812 [701, 923] | 0:50 elapsed, ETA 9:10" from a
// metrics row. The rating shown is the last evaluation's ladder rating when the game has a
// stored ladder: the random-anchored Elo stops rising once `random` loses every game, so it
// is shown (as "elo 645 [158, 1132] (random = 0)") only for games without a ladder.
std::string progress_line(const MetricsRow& row, std::int64_t step, const TrainConfig& cfg,
                          const std::optional<RunEvaluation>& last_eval, std::int64_t replay_positions,
                          double elapsed, double eta);

}  // namespace boardlab
