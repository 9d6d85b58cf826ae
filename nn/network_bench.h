// Network benchmark behind `boardlab bench --nn`: raw evaluations/s, then self-play simulations/s with the same network.
#pragma once

#include <cstdint>
#include <string>

#include "nn/train_config.h"

namespace boardlab {

struct NetworkBenchStats {
  std::string device;  // where the network ran (network.device resolved): "cpu" or "cuda"
  int batch = 0;
  double evaluations_per_second = 0;  // the model alone, on random inputs, one thread per worker
  double selfplay_simulations_per_second = 0;
  double selfplay_evaluations_per_second = 0;  // positions through the inference server during self-play
  double mean_batch = 0;                       // of the inference server during self-play
  // Self-play's positions answered by the evaluation cache (search.cache_positions), not the
  // network: why simulations/s may pass evaluations/s.
  double selfplay_reused_share = 0;
  // With training: a learner thread trained a copy of the network on random games'
  // positions throughout both measurements, as it does during a training run.
  bool with_training = false;
  double training_steps_per_second = 0;
  // Self-play simulations per raw evaluation: near 1 when the network, not the search, is
  // the bound (a little below where each decision evaluates its root, which is no simulation;
  // above where the evaluation cache answers many positions).
  double ratio() const { return evaluations_per_second > 0 ? selfplay_simulations_per_second / evaluations_per_second : 0; }
  // The same per CPU second of each half's threads (the process's CPU time less the
  // learner's: workers, and the inference server's threads where it has them), and the cores
  // those threads got. Beside a learner the scheduler shares 2 cores among 3 busy
  // threads, and its split moves from one half and sitting to the next: ratio() is
  // cpu_ratio() × selfplay_cores / raw_cores, so the two say whether a gap is the work's or
  // the share's.
  double raw_cores = 0, selfplay_cores = 0;
  double evaluations_per_cpu_second() const { return raw_cores > 0 ? evaluations_per_second / raw_cores : 0; }
  double selfplay_simulations_per_cpu_second() const {
    return selfplay_cores > 0 ? selfplay_simulations_per_second / selfplay_cores : 0;
  }
  double cpu_ratio() const {
    return evaluations_per_cpu_second() > 0 ? selfplay_simulations_per_cpu_second() / evaluations_per_cpu_second() : 0;
  }
};

// Uses the config's game, network (on network.device), search, self-play and inference settings. The raw
// measurement runs `workers` threads, each predicting batches of concurrent_games ×
// leaves_per_step positions (the batch self-play sends), so both halves use the cores alike.
// With `with_training`, a learner (training.batch_size, training.threads) steps all the
// while on its own copy of the network, so that both rates are those of a training run,
// whose actors share the cores with the learner. Each half runs `seconds` in all, the two
// taking turns a second at a time so that a machine whose speed drifts slows both alike.
// A stop request (core/stop.h) cuts both measurements short.
NetworkBenchStats bench_network(const TrainConfig& config, double seconds, bool with_training = false);

}  // namespace boardlab
