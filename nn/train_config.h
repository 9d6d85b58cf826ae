// Everything a training run reads from its YAML config: the struct is the schema, one visit() line per key.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "arena/ladder.h"
#include "config/config_schema.h"
#include "mcts/search_config.h"
#include "nn/inference_server.h"
#include "nn/learner.h"
#include "nn/network_config.h"
#include "nn/self_play.h"
#include "nn/trainer.h"

namespace boardlab {

// Each section of the config is a struct whose fields are its keys, and each key's default
// is its field's initializer, here and nowhere else.

// network: the network's shape (NetworkConfig: the checkpoint's metadata, compared on
// resume) and where this process runs it.
struct NetworkSection : NetworkConfig {
  // Kept out of NetworkConfig, which is what the network is: a run may move between a GPU
  // and a CPU machine, and its checkpoints (CPU tensors) load on either (nn/device.h).
  std::string device = "auto";

  template <class V>
  void visit(V& v) {
    NetworkConfig::visit(v);
    v("device", device, "where the network runs: auto (cuda when this LibTorch has CUDA and sees a GPU), cpu or cuda",
      Choices{"auto", "cpu", "cuda"});
  }
};

// self_play: the threads that play, and how far they may run ahead (SelfPlayConfig: how each game is played).
struct SelfPlaySection : SelfPlayConfig {
  int workers = 2;
  std::int64_t lead_positions = 1000;
  bool save_games = true;

  template <class V>
  void visit(V& v) {
    v("workers", workers, "self-play threads", Range::between(1, 256));
    SelfPlayConfig::visit(v);
    v("lead_positions", lead_positions,
      "positions self-play may run ahead of the replay ratio before it waits for the learner", Range::at_least(1));
    v("save_games", save_games, "write every self-play game's record to the run folder");
  }
};

struct ReplaySection {
  std::int64_t window = 50000;
  std::int64_t min_positions = 1000;

  template <class V>
  void visit(V& v) {
    v("window", window, "positions kept for training (sliding window)", Range::at_least(1));
    v("min_positions", min_positions, "positions gathered before the first training step", Range::at_least(1));
  }
};

// training: the learner's batches and the replay ratio (OptimizerConfig: the optimizer, its schedule and the losses).
struct TrainingSection : OptimizerConfig {
  int batch_size = 128;
  double samples_per_position = 2;  // training samples drawn per new self-play position
  bool augment = true;
  int threads = 1;
  std::int64_t publish_every_steps = 20;

  template <class V>
  void visit(V& v) {
    v("batch_size", batch_size, "positions per training step", Range::between(1, 65536));
    OptimizerConfig::visit(v);
    v("samples_per_position", samples_per_position, "training samples per new self-play position (replay ratio)",
      Range::between(0.01, 1000));
    v("augment", augment, "train on random board symmetries of each position");
    v("threads", threads, "LibTorch threads of the learner (it trains while self-play plays)", Range::between(1, 64));
    v("publish_every_steps", publish_every_steps, "training steps between the network snapshots self-play plays with",
      Range::at_least(1));
  }
};

struct CheckpointSection {
  std::int64_t every_steps = 250;
  int keep = 0;

  template <class V>
  void visit(V& v) {
    v("every_steps", every_steps, "training steps between checkpoints", Range::at_least(1));
    v("keep", keep, "checkpoints kept besides the latest (0: keep all)", Range::at_least(0));
  }
};

// Evaluations stop the actors and the learner: two light ones in a run and the final one
// leave most of its time to training.
struct EvaluationSection {
  std::int64_t every_steps = 2500;
  int games = 20;
  std::vector<std::string> opponents = {"random", "uct:200"};
  bool previous_checkpoint = false;
  int ladder_rungs = 1;
  int simulations = 32;  // also the search of an agent:CHECKPOINT player whose checkpoint has no config
  // Unset: search.concealed_moves. Self-play may draw them cheaply from the policy while
  // play searches them (search_mixed).
  ConcealedMoves concealed_moves = ConcealedMoves::kSearch;

  template <class V>
  void visit(V& v) {
    v("every_steps", every_steps, "training steps between evaluations (0: only at the end)", Range::at_least(0));
    v("games", games, "games against each opponent", Range::between(1, 100000));
    // Evaluation rates the network against these: without one it has nothing to play.
    v("opponents", opponents, "baseline players (random, uct:N, mcts(key=value,...), agent:PATH), at least one",
      MinItems{1});
    v("previous_checkpoint", previous_checkpoint, "also play the previous evaluation's network");
    v("ladder_rungs", ladder_rungs,
      "rungs of the game's stored ladder (boardlab ladder) played besides the opponents, around the network's "
      "last ladder rating: its rating in the ladder's units (metrics ladder_elo) rises as long as the ladder's "
      "top is stronger (0: none)",
      Range::between(0, kMaxLadderRungs));
    v("simulations", simulations, "the agent's search budget in evaluation games", Range::between(1, kMaxSimulations));
    v("concealed_moves", concealed_moves,
      "the agent's choices another seat does not see, in evaluation games and play (search.concealed_moves' "
      "values; unset: as search.concealed_moves)",
      kConcealedMovesNames);
  }
};

// Under MPI, ranks 0..learners-1 train together and the others play (nn/distributed.h).
struct DistributedSection {
  int learners = 1;

  template <class V>
  void visit(V& v) {
    v("learners", learners,
      "under mpirun: ranks that train together, each on a batch of its own, gradients averaged every step; "
      "the other ranks play (a single process trains alone whatever this says)",
      Range::between(1, 4096));
  }
};

// The clock ends a default run (15 minutes train about 6500 steps here), and the
// learning-rate schedule follows whichever limit comes first.
struct RunSection {
  std::int64_t max_steps = 20000;
  double max_minutes = 15;
  double log_every_seconds = 10;

  template <class V>
  void visit(V& v) {
    v("max_steps", max_steps, "training steps, then the run ends", Range::at_least(1));
    v("max_minutes", max_minutes, "wall-clock limit of the run (0: none)", Range::at_least(0));
    v("log_every_seconds", log_every_seconds, "seconds between progress lines", Range::at_least(0.1));
  }
};

struct TrainConfig {
  std::string game = "virus_war";  // game string, e.g. "virus_war(strict=false)"
  std::uint64_t seed = 1;
  NetworkSection network;
  // Self-play search: Gumbel at a small budget, with root noise for PUCT.
  SearchConfig search{.algorithm = SearchAlgorithm::kGumbel,
                      .simulations = 16,
                      .dirichlet_epsilon = 0.25f,
                      .gumbel_considered = 8};
  SelfPlaySection self_play;
  InferenceConfig inference;
  ReplaySection replay;
  TrainingSection training;
  CheckpointSection checkpoint;
  EvaluationSection evaluation;
  DistributedSection distributed;
  RunSection run;

  // The learner's options; `learner_ranks` is how many learn together (distributed.learners
  // in an MPI job, 1 in one process).
  LearnerOptions learner_options(int learner_ranks) const {
    return {.batch_size = training.batch_size,
            .samples_per_position = training.samples_per_position,
            .min_positions = replay.min_positions,
            .lead_positions = self_play.lead_positions,
            .augment = training.augment,
            .threads = training.threads,
            .learners = learner_ranks};
  }

  // Derived when a config is loaded, not keys of their own:
  SearchConfig eval_search;  // the agent's search in evaluation games: `search` at evaluation.simulations, no
                             // noise, its concealed choices as evaluation.concealed_moves
  std::string yaml;          // the config as used, every key, for the run folder

  template <class V>
  void visit(V& v) {
    v("game", game, "game and its parameters, e.g. virus_war(strict=true)");
    v("seed", seed, "seeds every random stream of the run", Range::at_least(0));
    v.section("network", network);
    v.section("search", search);
    v.section("self_play", self_play);
    v.section("inference", inference);
    v.section("replay", replay);
    v.section("training", training);
    v.section("checkpoint", checkpoint);
    v.section("evaluation", evaluation);
    v.section("distributed", distributed);
    v.section("run", run);
  }
};

// Reads and validates a config file with overrides ("training.batch_size=64"); errors name
// the file and line (or the override) and what was expected. Keys the file leaves out keep
// TrainConfig's defaults; the game alone must be named (by the file or an override).
// `search` as a player plays it, not as self-play explores: no root or Gumbel noise, each
// matrix root's likeliest candidates and none uniform, the most visited move. Evaluation
// games and agents without a run config both play this.
SearchConfig playing_search(SearchConfig search);

TrainConfig load_train_config(const std::string& path, const std::vector<std::string>& overrides = {});
TrainConfig parse_train_config(std::string_view text, std::string_view source,
                               const std::vector<std::string>& overrides = {});

// Every key with its default and its description: `boardlab train --print-config`.
std::string default_train_config_yaml();

}  // namespace boardlab
