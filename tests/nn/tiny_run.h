// Seconds-long training runs for the tests of the run and its steps: Virus War's config with a tiny network and search.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "nn/pipeline.h"

namespace boardlab::nn_testing {

inline const std::string kTinyRunConfig = std::string(BOARDLAB_SOURCE_DIR) + "/configs/virus_war.yaml";
constexpr int kTinyRunBatch = 16;

// A 1×8 network, 4 simulations, one worker running its own batches (no inference thread,
// the default: deterministic batches), and no augmentation, so that each training step
// draws exactly kTinyRunBatch numbers from the sampling stream; `more` after these.
inline std::vector<std::string> tiny(std::vector<std::string> more) {
  std::vector<std::string> overrides = {"network.blocks=1",
                                        "network.channels=8",
                                        "network.value_hidden=16",
                                        "search.simulations=4",
                                        "self_play.concurrent_games=4",
                                        "self_play.workers=1",
                                        "self_play.lead_positions=24",
                                        "self_play.save_games=true",
                                        "inference.threads=0",
                                        "replay.min_positions=16",
                                        "training.batch_size=" + std::to_string(kTinyRunBatch),
                                        "training.samples_per_position=1",
                                        "training.threads=1",
                                        "training.augment=false",
                                        "evaluation.every_steps=0",
                                        "evaluation.games=2",
                                        "evaluation.opponents=[random]",
                                        "evaluation.simulations=2",
                                        "run.max_minutes=0",
                                        "run.log_every_seconds=0.1"};
  overrides.insert(overrides.end(), more.begin(), more.end());
  return overrides;
}

// A new run of the tiny config in `dir`, its log lines collected in `log`.
inline TrainOptions options(const std::string& dir, std::vector<std::string> overrides, std::vector<std::string>* log) {
  TrainOptions o;
  o.config_path = kTinyRunConfig;
  o.overrides = std::move(overrides);
  o.out_dir = dir;
  o.log = [log](const std::string& line) { log->push_back(line); };
  return o;
}

}  // namespace boardlab::nn_testing
