// The training config schema and its translation into the structs each part uses.
#include "nn/train_config.h"

#include "games/registry.h"
#include "mcts/bots.h"

namespace boardlab {
namespace {

using T = ConfigType;

TrainConfig from_config(const Config& c) {
  TrainConfig t;
  t.game = c.get_string("game");
  std::shared_ptr<const Game> game;
  try {
    game = load_game(t.game);
  } catch (const InputError& e) {
    throw ConfigError(c.origin("game") + e.what());
  }
  t.seed = static_cast<std::uint64_t>(c.get_int("seed"));
  t.network.blocks = static_cast<int>(c.get_int("network.blocks"));
  t.network.channels = static_cast<int>(c.get_int("network.channels"));
  t.network.policy_channels = static_cast<int>(c.get_int("network.policy_channels"));
  t.network.value_hidden = static_cast<int>(c.get_int("network.value_hidden"));
  t.network.ownership_head = c.get_bool("network.ownership_head");
  t.network.score_head = c.get_bool("network.score_head");
  if (t.network.ownership_head && !game->has_ownership())
    throw ConfigError(c.origin("network.ownership_head") + game->name() + " declares no ownership of cells to train on");
  if (t.network.score_head && !(game->max_score_margin() > 0))
    throw ConfigError(c.origin("network.score_head") + game->name() + " declares no final score to train on");

  set_search_option(t.search, "algorithm", c.get_string("search.algorithm"));
  t.search.simulations = static_cast<int>(c.get_int("search.simulations"));
  t.search.leaves_per_step = static_cast<int>(c.get_int("search.leaves_per_step"));
  t.search.c_puct = static_cast<float>(c.get_float("search.c_puct"));
  t.search.fpu_reduction = static_cast<float>(c.get_float("search.fpu_reduction"));
  t.search.dirichlet_alpha = static_cast<float>(c.get_float("search.dirichlet_alpha"));
  t.search.dirichlet_epsilon = static_cast<float>(c.get_float("search.dirichlet_epsilon"));
  t.search.gumbel_considered = static_cast<int>(c.get_int("search.gumbel_considered"));
  t.search.gumbel_scale = static_cast<float>(c.get_float("search.gumbel_scale"));
  t.search.reuse_tree = c.get_bool("search.reuse_tree");
  t.search.forced_playouts = c.get_bool("search.forced_playouts");

  t.self_play.concurrent_games = static_cast<int>(c.get_int("self_play.concurrent_games"));
  t.self_play.temperature = static_cast<float>(c.get_float("self_play.temperature"));
  t.self_play.temperature_moves = static_cast<int>(c.get_int("self_play.temperature_moves"));
  t.self_play.full_search_fraction = c.get_float("self_play.full_search_fraction");
  t.self_play.fast_simulations = static_cast<int>(c.get_int("self_play.fast_simulations"));
  if (t.self_play.full_search_fraction < 1 && t.self_play.fast_simulations > t.search.simulations)
    throw ConfigError(c.origin("self_play.fast_simulations") + std::to_string(t.self_play.fast_simulations) +
                      " must not exceed search.simulations (" +
                      std::to_string(t.search.simulations) + "), the full budget");
  t.workers = static_cast<int>(c.get_int("self_play.workers"));
  t.positions_per_cycle = c.get_int("self_play.positions_per_cycle");
  t.save_games = c.get_bool("self_play.save_games");

  t.inference.max_batch = static_cast<int>(c.get_int("inference.max_batch"));
  t.inference.max_wait_us = static_cast<int>(c.get_int("inference.max_wait_us"));
  t.inference.threads = static_cast<int>(c.get_int("inference.threads"));

  t.replay_window = c.get_int("replay.window");
  t.replay_min_positions = c.get_int("replay.min_positions");

  t.optimizer.optimizer = c.get_string("training.optimizer");
  t.optimizer.learning_rate = c.get_float("training.learning_rate");
  t.optimizer.schedule = c.get_string("training.lr_schedule");
  t.optimizer.lr_final_fraction = c.get_float("training.lr_final_fraction");
  t.optimizer.momentum = c.get_float("training.momentum");
  t.optimizer.weight_decay = c.get_float("training.weight_decay");
  t.optimizer.value_loss_weight = c.get_float("training.value_loss_weight");
  t.optimizer.value_target_mix = c.get_float("training.value_target_mix");
  t.optimizer.ownership_loss_weight = c.get_float("training.ownership_loss_weight");
  t.optimizer.score_loss_weight = c.get_float("training.score_loss_weight");
  t.batch_size = static_cast<int>(c.get_int("training.batch_size"));
  t.samples_per_position = c.get_float("training.samples_per_position");
  t.augment = c.get_bool("training.augment");
  t.train_threads = static_cast<int>(c.get_int("training.threads"));

  t.checkpoint_every = c.get_int("checkpoint.every_steps");
  t.checkpoint_keep = static_cast<int>(c.get_int("checkpoint.keep"));

  t.eval_every = c.get_int("evaluation.every_steps");
  t.eval_games = static_cast<int>(c.get_int("evaluation.games"));
  t.eval_opponents = c.get_strings("evaluation.opponents");
  for (const auto& spec : t.eval_opponents) {
    // Baselines are checked now; checkpoints ("agent:PATH") when the evaluation loads them.
    if (spec.starts_with("agent:")) continue;
    try {
      make_search_bot(spec, *load_game(t.game), 0);
    } catch (const InputError& e) {
      throw ConfigError(c.origin("evaluation.opponents") + e.what());
    }
  }
  t.eval_previous = c.get_bool("evaluation.previous_checkpoint");
  t.eval_search.algorithm = t.search.algorithm;
  t.eval_search.simulations = static_cast<int>(c.get_int("evaluation.simulations"));
  t.eval_search.gumbel_considered = t.search.gumbel_considered;
  t.eval_search.c_puct = t.search.c_puct;
  t.eval_search.gumbel_scale = 0;       // evaluation plays its best move, no exploration noise
  t.eval_search.dirichlet_epsilon = 0;

  t.max_steps = c.get_int("run.max_steps");
  t.max_minutes = c.get_float("run.max_minutes");
  t.log_every_seconds = c.get_float("run.log_every_seconds");
  t.optimizer.total_steps = t.max_steps;
  validate(t.search);
  validate(t.eval_search);
  t.yaml = c.to_yaml();
  return t;
}

}  // namespace

const std::vector<ConfigKey>& train_config_schema() {
  static const std::vector<ConfigKey> kSchema = {
      {.path = "game", .type = T::kString, .default_value = "virus_war", .doc = "game and its parameters, e.g. virus_war(strict=true)"},
      {.path = "seed", .type = T::kInt, .default_value = "1", .doc = "seeds every random stream of the run", .min = 0},

      {.path = "network.blocks", .type = T::kInt, .default_value = "2", .doc = "residual blocks in the trunk", .min = 0, .max = 40},
      {.path = "network.channels", .type = T::kInt, .default_value = "32", .doc = "convolution channels in the trunk", .min = 1, .max = 512},
      {.path = "network.policy_channels", .type = T::kInt, .default_value = "2", .doc = "1x1 planes feeding the policy head", .min = 1, .max = 64},
      {.path = "network.value_hidden", .type = T::kInt, .default_value = "64", .doc = "hidden units of the value head", .min = 1, .max = 1024},

      {.path = "network.ownership_head", .type = T::kBool, .default_value = "false", .doc = "train a head on each cell's final owner (games that declare it)"},
      {.path = "network.score_head", .type = T::kBool, .default_value = "false", .doc = "train a head on the final score margin (games that declare a score)"},

      {.path = "search.algorithm", .type = T::kString, .default_value = "gumbel", .doc = "gumbel (small budgets) or puct", .choices = {"gumbel", "puct"}},
      {.path = "search.simulations", .type = T::kInt, .default_value = "16", .doc = "network evaluations per move in self-play", .min = 1, .max = 100000},
      {.path = "search.leaves_per_step", .type = T::kInt, .default_value = "1", .doc = "leaves per game per network call (virtual loss above 1)", .min = 1, .max = 256},
      {.path = "search.c_puct", .type = T::kFloat, .default_value = "1.25", .doc = "PUCT exploration constant", .min = 0.01, .max = 100},
      {.path = "search.fpu_reduction", .type = T::kFloat, .default_value = "0.25", .doc = "PUCT: value of unvisited children below their parent's", .min = 0, .max = 2},
      {.path = "search.dirichlet_alpha", .type = T::kFloat, .default_value = "0.3", .doc = "PUCT: root noise concentration", .min = 0.001, .max = 10},
      {.path = "search.dirichlet_epsilon", .type = T::kFloat, .default_value = "0.25", .doc = "PUCT: weight of root noise in self-play", .min = 0, .max = 1},
      {.path = "search.gumbel_considered", .type = T::kInt, .default_value = "8", .doc = "Gumbel: root actions sampled for sequential halving", .min = 1, .max = 1024},
      {.path = "search.gumbel_scale", .type = T::kFloat, .default_value = "1.0", .doc = "Gumbel: noise scale in self-play (exploration)", .min = 0, .max = 10},
      {.path = "search.reuse_tree", .type = T::kBool, .default_value = "false", .doc = "keep the subtree of the played move"},
      {.path = "search.forced_playouts", .type = T::kBool, .default_value = "false", .doc = "PUCT: KataGo's forced playouts at the root and policy target pruning"},

      {.path = "self_play.workers", .type = T::kInt, .default_value = "2", .doc = "self-play threads", .min = 1, .max = 256},
      {.path = "self_play.concurrent_games", .type = T::kInt, .default_value = "32", .doc = "games each worker plays at once (its batch size)", .min = 1, .max = 100000},
      {.path = "self_play.temperature", .type = T::kFloat, .default_value = "1.0", .doc = "PUCT: visit-count temperature for early moves", .min = 0, .max = 10},
      {.path = "self_play.temperature_moves", .type = T::kInt, .default_value = "30", .doc = "PUCT: actions played with temperature, then greedy", .min = 0},
      {.path = "self_play.full_search_fraction", .type = T::kFloat, .default_value = "1", .doc = "playout cap randomization: share of moves searched in full, which alone train the policy (1: off)", .min = 0.01, .max = 1},
      {.path = "self_play.fast_simulations", .type = T::kInt, .default_value = "4", .doc = "playout cap randomization: simulations of the other moves, without root noise", .min = 1, .max = 100000},
      {.path = "self_play.positions_per_cycle", .type = T::kInt, .default_value = "2000", .doc = "new positions between training phases", .min = 1},
      {.path = "self_play.save_games", .type = T::kBool, .default_value = "true", .doc = "write every self-play game's record to the run folder"},

      {.path = "inference.max_batch", .type = T::kInt, .default_value = "256", .doc = "positions per network call, at most", .min = 1, .max = 65536},
      {.path = "inference.max_wait_us", .type = T::kInt, .default_value = "100", .doc = "microseconds a batch waits to fill", .min = 0, .max = 1000000},
      {.path = "inference.threads", .type = T::kInt, .default_value = "2", .doc = "network threads of the inference server", .min = 1, .max = 64},

      {.path = "replay.window", .type = T::kInt, .default_value = "50000", .doc = "positions kept for training (sliding window)", .min = 1},
      {.path = "replay.min_positions", .type = T::kInt, .default_value = "1000", .doc = "positions gathered before the first training step", .min = 1},

      {.path = "training.batch_size", .type = T::kInt, .default_value = "128", .doc = "positions per training step", .min = 1, .max = 65536},
      {.path = "training.optimizer", .type = T::kString, .default_value = "adam", .doc = "adam or sgd (Nesterov momentum)", .choices = {"adam", "sgd"}},
      {.path = "training.learning_rate", .type = T::kFloat, .default_value = "0.002", .doc = "initial learning rate", .min = 1e-7, .max = 10},
      {.path = "training.lr_schedule", .type = T::kString, .default_value = "cosine", .doc = "constant, cosine (to lr_final_fraction) or step (x0.1 at 50% and 75%)", .choices = {"constant", "cosine", "step"}},
      {.path = "training.lr_final_fraction", .type = T::kFloat, .default_value = "0.1", .doc = "cosine: final learning rate as a fraction of the initial", .min = 0, .max = 1},
      {.path = "training.momentum", .type = T::kFloat, .default_value = "0.9", .doc = "sgd momentum", .min = 0, .max = 0.999},
      {.path = "training.weight_decay", .type = T::kFloat, .default_value = "0.0001", .doc = "L2 regularisation coefficient", .min = 0, .max = 1},
      {.path = "training.value_loss_weight", .type = T::kFloat, .default_value = "1.0", .doc = "weight of the value loss against the policy loss", .min = 0, .max = 100},
      {.path = "training.value_target_mix", .type = T::kFloat, .default_value = "0", .doc = "value target: (1 - mix) x the result + mix x the search's root value", .min = 0, .max = 1},
      {.path = "training.ownership_loss_weight", .type = T::kFloat, .default_value = "1.0", .doc = "weight of the ownership loss (with network.ownership_head)", .min = 0, .max = 100},
      {.path = "training.score_loss_weight", .type = T::kFloat, .default_value = "1.0", .doc = "weight of the score margin loss (with network.score_head)", .min = 0, .max = 100},
      {.path = "training.samples_per_position", .type = T::kFloat, .default_value = "2", .doc = "training samples per new self-play position (replay ratio)", .min = 0.01, .max = 1000},
      {.path = "training.augment", .type = T::kBool, .default_value = "true", .doc = "train on random board symmetries of each position"},
      {.path = "training.threads", .type = T::kInt, .default_value = "2", .doc = "LibTorch threads while training (self-play uses one per thread)", .min = 1, .max = 64},

      {.path = "checkpoint.every_steps", .type = T::kInt, .default_value = "250", .doc = "training steps between checkpoints", .min = 1},
      {.path = "checkpoint.keep", .type = T::kInt, .default_value = "0", .doc = "checkpoints kept besides the latest (0: keep all)", .min = 0},

      {.path = "evaluation.every_steps", .type = T::kInt, .default_value = "1000", .doc = "training steps between evaluations (0: only at the end)", .min = 0},
      {.path = "evaluation.games", .type = T::kInt, .default_value = "20", .doc = "games against each opponent", .min = 1, .max = 100000},
      {.path = "evaluation.opponents", .type = T::kStringList, .default_value = "[random, \"uct:200\"]", .doc = "baseline players (random, uct:N, mcts:..., agent:PATH)"},
      {.path = "evaluation.previous_checkpoint", .type = T::kBool, .default_value = "true", .doc = "also play the previous evaluation's network"},
      {.path = "evaluation.simulations", .type = T::kInt, .default_value = "32", .doc = "the agent's search budget in evaluation games", .min = 1, .max = 100000},

      {.path = "run.max_steps", .type = T::kInt, .default_value = "4000", .doc = "training steps, then the run ends", .min = 1},
      {.path = "run.max_minutes", .type = T::kFloat, .default_value = "15", .doc = "wall-clock limit of the run (0: none)", .min = 0},
      {.path = "run.log_every_seconds", .type = T::kFloat, .default_value = "10", .doc = "seconds between progress lines", .min = 0.1},
  };
  return kSchema;
}

TrainConfig load_train_config(const std::string& path, const std::vector<std::string>& overrides) {
  return from_config(Config::load(path, train_config_schema(), overrides));
}

TrainConfig parse_train_config(std::string_view text, std::string_view source, const std::vector<std::string>& overrides) {
  return from_config(Config::parse(text, source, train_config_schema(), overrides));
}

}  // namespace boardlab
