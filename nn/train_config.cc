// Loading a training config: the keys of TrainConfig read from YAML and --set, then the checks and derived settings the keys cannot express.
#include "nn/train_config.h"

#include <algorithm>

#include "arena/player_spec.h"
#include "config/config.h"
#include "games/registry.h"
#include "mcts/bots.h"

namespace boardlab {
namespace {

// After the keys are read: the game and the baselines must exist, and what follows from
// the keys is filled in.
void finish(TrainConfig& t, const Config& c) {
  std::shared_ptr<const Game> game;
  try {
    game = load_game(t.game);
  } catch (const InputError& e) {
    throw ConfigError(c.origin_of(t.game) + e.what());
  }
  if (t.network.ownership_head && !game->traits().has_ownership)
    throw ConfigError(c.origin_of(t.network.ownership_head) + game->name() +
                      " declares no ownership of cells to train on");
  if (t.network.score_head && !(game->traits().max_score_margin > 0))
    throw ConfigError(c.origin_of(t.network.score_head) + game->name() + " declares no final score to train on");
  if (t.network.spatial_policy && game->traits().action_layout.empty())
    throw ConfigError(c.origin_of(t.network.spatial_policy) + game->name() +
                      " declares no layout of its actions on the board (use the linear policy head)");
  // The search refuses the rest of what score_utility needs (a score, two players) itself.
  if (t.search.score_utility > 0 && !t.network.score_head)
    throw ConfigError(c.origin_of(t.search.score_utility) +
                      "the score utility weighs the score margin the network predicts, and it predicts none: set "
                      "network.score_head: true");
  for (const auto& spec : t.evaluation.opponents) {
    // Baselines are checked now; checkpoints ("agent:PATH") when the evaluation loads them.
    try {
      if (parse_player_spec(spec).kind != "agent") make_search_bot(spec, *game, 0);
    } catch (const InputError& e) {
      // A flow list splits at every comma: [random, mcts(a=1,b=2)] is three items.
      const bool split = std::count(spec.begin(), spec.end(), '(') != std::count(spec.begin(), spec.end(), ')');
      throw ConfigError(c.origin_of(t.evaluation.opponents) + e.what() +
                        (split ? " (in a YAML list [a, b], quote a spec that has commas: [random, \"mcts(a=1,b=2)\"])"
                               : ""));
    }
  }
  if (!t.self_play.opponent.empty()) {
    // A baseline is checked now; a checkpoint when the first self-play worker loads it.
    try {
      if (parse_player_spec(t.self_play.opponent).kind != "agent") make_search_bot(t.self_play.opponent, *game, 0);
    } catch (const InputError& e) {
      throw ConfigError(c.origin_of(t.self_play.opponent) + e.what());
    }
  }
  if (t.self_play.opponent_fraction < 1 && t.self_play.opponent.empty())
    throw ConfigError(c.origin_of(t.self_play.opponent_fraction) +
                      "a share of games with the fixed opponent, and self_play.opponent names none");
  if (t.self_play.imitate_opponent && t.self_play.opponent.empty())
    throw ConfigError(c.origin_of(t.self_play.imitate_opponent) + "imitates the fixed opponent, and self_play.opponent names none");
  if (t.self_play.imitate_opponent && t.search.model_opponents)
    throw ConfigError(c.origin_of(t.self_play.imitate_opponent) +
                      "search.model_opponents trains the policy head on the fixed opponent's moves already");
  if (t.self_play.opponent_fraction < 1 && t.search.model_opponents)
    throw ConfigError(c.origin_of(t.self_play.opponent_fraction) +
                      "search.model_opponents trains the policy head on the fixed opponent's moves, so every game "
                      "must seat it (1)");
  if (t.self_play.full_search_fraction < 1 && t.self_play.fast_simulations > t.search.simulations)
    throw ConfigError(c.origin_of(t.self_play.fast_simulations) + std::to_string(t.self_play.fast_simulations) +
                      " must not exceed search.simulations (" + std::to_string(t.search.simulations) +
                      "), the full budget");
  // Evaluation plays the self-play search at its own budget, without exploration noise.
  if (!c.was_set_field(t.evaluation.concealed_moves)) t.evaluation.concealed_moves = t.search.concealed_moves;
  t.eval_search = playing_search(t.search);
  t.eval_search.simulations = t.evaluation.simulations;
  t.eval_search.concealed_moves = t.evaluation.concealed_moves;
  t.training.total_steps = t.run.max_steps;
  t.yaml = c.to_yaml();
}

}  // namespace

SearchConfig playing_search(SearchConfig search) {
  search.gumbel_scale = 0;
  search.dirichlet_epsilon = 0;
  search.matrix_uniform_candidates = 0;
  search.matrix_candidate_noise = 0;
  search.temperature = 0;
  return search;
}

TrainConfig load_train_config(const std::string& path, const std::vector<std::string>& overrides) {
  TrainConfig t;
  Config c(t);
  c.read_file(path);
  for (const auto& item : overrides) c.set(item);
  finish(t, c);
  // An empty file (or one of comments only) would otherwise start a full default run of
  // a game nobody chose.
  if (!c.was_set_field(t.game))
    throw ConfigError("config file '" + path + "' names no game: a config says at least which game to train, e.g. " +
                      "'game: virus_war' (`boardlab train --print-config` lists every key)");
  return t;
}

TrainConfig parse_train_config(std::string_view text, std::string_view source, const std::vector<std::string>& overrides) {
  TrainConfig t;
  Config c(t);
  c.read_yaml(text, source);
  for (const auto& item : overrides) c.set(item);
  finish(t, c);
  return t;
}

std::string default_train_config_yaml() {
  TrainConfig t;
  return Config(t).to_yaml();
}

}  // namespace boardlab
