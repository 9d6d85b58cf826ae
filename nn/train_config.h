// Everything a training run reads from its YAML config: the struct is the schema, one visit() line per key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/config_schema.h"
#include "core/ladder.h"
#include "mcts/search_config.h"
#include "nn/inference_server.h"
#include "nn/learner.h"
#include "nn/network_config.h"
#include "nn/self_play.h"
#include "nn/trainer.h"

namespace boardlab {

struct TrainConfig {
  std::string game = "virus_war";  // game string, e.g. "virus_war(strict=false)"
  std::uint64_t seed = 1;
  NetworkConfig network;
  // network.device: where this process runs the network (auto, cpu or cuda; nn/device.h).
  // A key of the network section kept out of NetworkConfig, which is what the network is:
  // the checkpoint's metadata, compared on resume. A run may move between a GPU and a CPU
  // machine, and its checkpoints (CPU tensors) load on either.
  std::string device = "auto";
  // Self-play search: Gumbel at a small budget, with root noise for PUCT.
  SearchConfig search{.algorithm = SearchAlgorithm::kGumbel,
                      .simulations = 16,
                      .dirichlet_epsilon = 0.25f,
                      .gumbel_considered = 8};
  SelfPlayConfig self_play;
  int workers = 2;  // self-play threads
  InferenceConfig inference;
  std::int64_t replay_window = 50000;
  std::int64_t replay_min_positions = 1000;
  OptimizerConfig optimizer;
  int batch_size = 128;
  double samples_per_position = 2;  // training samples drawn per new self-play position
  bool augment = true;
  int train_threads = 1;
  std::int64_t lead_positions = 1000;  // positions self-play may run ahead of the replay ratio
  std::int64_t publish_every = 20;     // training steps between the network snapshots self-play uses
  std::int64_t checkpoint_every = 250;
  int checkpoint_keep = 0;
  // Evaluations stop the actors and the learner: four of them, with the previous network
  // as a third opponent, took 334 s of a 15-minute run (issue 10, run M). Two lighter ones
  // and the final one leave that time to training.
  std::int64_t eval_every = 2500;
  int eval_games = 20;
  std::vector<std::string> eval_opponents = {"random", "uct:200"};
  bool eval_previous = false;
  int eval_ladder_rungs = 1;
  int eval_simulations = 32;
  // The agent's concealed choices in evaluation games and play; unset: search.concealed_moves.
  // Self-play may draw them cheaply from the policy while play searches them (search_mixed).
  ConcealedMoves eval_concealed_moves = ConcealedMoves::kSearch;
  // Past what 15 minutes train here (about 6500 steps): the clock ends a default run, and
  // the learning-rate schedule follows whichever limit comes first.
  std::int64_t max_steps = 20000;
  double max_minutes = 15;
  double log_every_seconds = 10;
  bool save_games = true;
  // Under MPI, ranks 0..learners-1 train together and the others play (nn/distributed.h).
  int learners = 1;

  // The learner's options; `learner_ranks` is how many learn together (distributed.learners
  // in an MPI job, 1 in one process).
  LearnerOptions learner_options(int learner_ranks) const {
    return {.batch_size = batch_size,
            .samples_per_position = samples_per_position,
            .min_positions = replay_min_positions,
            .lead_positions = lead_positions,
            .augment = augment,
            .threads = train_threads,
            .learners = learner_ranks};
  }

  // Derived when a config is loaded, not keys of their own:
  SearchConfig eval_search;  // the agent's search in evaluation games: `search` at eval_simulations, no noise,
                             // its concealed choices as eval_concealed_moves
  std::string yaml;          // the config as used, every key, for the run folder

  template <class V>
  void visit(V& v) {
    v("game", game, "game and its parameters, e.g. virus_war(strict=true)");
    v("seed", seed, "seeds every random stream of the run", Range::at_least(0));
    v.section("network", [&] {
      network.visit(v);
      v("device", device, "where the network runs: auto (cuda when this LibTorch has CUDA and sees a GPU), cpu or cuda",
        Choices{"auto", "cpu", "cuda"});
    });
    v.section("search", search);
    v.section("self_play", [&] {
      v("workers", workers, "self-play threads", Range::between(1, 256));
      self_play.visit(v);
      v("lead_positions", lead_positions,
        "positions self-play may run ahead of the replay ratio before it waits for the learner", Range::at_least(1));
      v("save_games", save_games, "write every self-play game's record to the run folder");
    });
    v.section("inference", inference);
    v.section("replay", [&] {
      v("window", replay_window, "positions kept for training (sliding window)", Range::at_least(1));
      v("min_positions", replay_min_positions, "positions gathered before the first training step",
        Range::at_least(1));
    });
    v.section("training", [&] {
      v("batch_size", batch_size, "positions per training step", Range::between(1, 65536));
      optimizer.visit(v);
      v("samples_per_position", samples_per_position, "training samples per new self-play position (replay ratio)",
        Range::between(0.01, 1000));
      v("augment", augment, "train on random board symmetries of each position");
      v("threads", train_threads, "LibTorch threads of the learner (it trains while self-play plays)",
        Range::between(1, 64));
      v("publish_every_steps", publish_every, "training steps between the network snapshots self-play plays with",
        Range::at_least(1));
    });
    v.section("checkpoint", [&] {
      v("every_steps", checkpoint_every, "training steps between checkpoints", Range::at_least(1));
      v("keep", checkpoint_keep, "checkpoints kept besides the latest (0: keep all)", Range::at_least(0));
    });
    v.section("evaluation", [&] {
      v("every_steps", eval_every, "training steps between evaluations (0: only at the end)", Range::at_least(0));
      v("games", eval_games, "games against each opponent", Range::between(1, 100000));
      // Evaluation rates the network against these: without one it has nothing to play.
      v("opponents", eval_opponents, "baseline players (random, uct:N, mcts(key=value,...), agent:PATH), at least one",
        MinItems{1});
      v("previous_checkpoint", eval_previous, "also play the previous evaluation's network");
      v("ladder_rungs", eval_ladder_rungs,
        "rungs of the game's stored ladder (boardlab ladder) played besides the opponents, around the network's "
        "last ladder rating: its rating in the ladder's units (metrics ladder_elo) rises as long as the ladder's "
        "top is stronger (0: none)",
        Range::between(0, kMaxLadderRungs));
      v("simulations", eval_simulations, "the agent's search budget in evaluation games", Range::between(1, 100000));
      v("concealed_moves", eval_concealed_moves,
        "the agent's choices another seat does not see, in evaluation games and play (search.concealed_moves' "
        "values; unset: as search.concealed_moves)",
        kConcealedMovesNames);
    });
    v.section("distributed", [&] {
      v("learners", learners,
        "under mpirun: ranks that train together, each on a batch of its own, gradients averaged every step; "
        "the other ranks play (a single process trains alone whatever this says)",
        Range::between(1, 4096));
    });
    v.section("run", [&] {
      v("max_steps", max_steps, "training steps, then the run ends", Range::at_least(1));
      v("max_minutes", max_minutes, "wall-clock limit of the run (0: none)", Range::at_least(0));
      v("log_every_seconds", log_every_seconds, "seconds between progress lines", Range::at_least(0.1));
    });
  }
};

// Reads and validates a config file with overrides ("training.batch_size=64"); errors name
// the file and line (or the override) and what was expected. Keys the file leaves out keep
// TrainConfig's defaults; the game alone must be named (by the file or an override).
TrainConfig load_train_config(const std::string& path, const std::vector<std::string>& overrides = {});
TrainConfig parse_train_config(std::string_view text, std::string_view source,
                               const std::vector<std::string>& overrides = {});

// Every key with its default and its description: `boardlab train --print-config`.
std::string default_train_config_yaml();

}  // namespace boardlab
