// Everything a training run reads from its YAML config, checked against one schema.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "mcts/search_config.h"
#include "nn/inference_server.h"
#include "nn/network_config.h"
#include "nn/self_play.h"
#include "nn/trainer.h"

namespace boardlab {

struct TrainConfig {
  std::string game;  // game string, e.g. "virus_war(strict=false)"
  std::uint64_t seed = 1;
  NetworkConfig network;
  SearchConfig search;  // self-play search
  SelfPlayConfig self_play;
  int workers = 2;  // self-play threads
  InferenceConfig inference;
  std::int64_t replay_window = 50000;
  std::int64_t replay_min_positions = 1000;
  OptimizerConfig optimizer;
  int batch_size = 128;
  double samples_per_position = 4;  // training samples drawn per new self-play position
  bool augment = true;
  int train_threads = 1;
  std::int64_t lead_positions = 1000;  // positions self-play may run ahead of the replay ratio
  std::int64_t publish_every = 20;     // training steps between the network snapshots self-play uses
  std::int64_t checkpoint_every = 100;
  int checkpoint_keep = 3;
  std::int64_t eval_every = 200;
  int eval_games = 20;
  std::vector<std::string> eval_opponents;
  bool eval_previous = true;
  SearchConfig eval_search;  // the agent's search in evaluation games
  std::int64_t max_steps = 1000;
  double max_minutes = 15;
  double log_every_seconds = 10;
  bool save_games = true;

  std::string yaml;  // the config as used, every key, for the run folder
};

const std::vector<ConfigKey>& train_config_schema();

// Reads and validates a config file with overrides ("training.batch_size=64"); errors name
// the file and line (or the override) and what was expected.
TrainConfig load_train_config(const std::string& path, const std::vector<std::string>& overrides = {});
TrainConfig parse_train_config(std::string_view text, std::string_view source,
                               const std::vector<std::string>& overrides = {});

}  // namespace boardlab
