// Network players and the player factory for every layer.
#include "nn/agent_bot.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>

#include "arena/player_spec.h"
#include "core/errors.h"
#include "core/text.h"
#include "mcts/bots.h"
#include "nn/checkpoint.h"
#include "nn/network_evaluator.h"
#include "nn/train_config.h"

namespace boardlab {
namespace {

// Keeps the model alive as long as the bot that evaluates with it.
class NetworkBot final : public Bot {
 public:
  NetworkBot(std::shared_ptr<const Model> model, const Game& game, const SearchConfig& config, std::uint64_t seed)
      : model_(std::move(model)), bot_(game, config, std::make_unique<NetworkEvaluator>(*model_), seed) {}
  Action act(const PlayerView& view) override { return bot_.act(view); }
  void set_stop(const StopToken* stop) override { bot_.set_stop(stop); }

 private:
  std::shared_ptr<const Model> model_;
  SearchBot bot_;
};

}  // namespace

SearchConfig default_agent_search(const Game& game) {
  SearchConfig config;
  config.algorithm = game.type().simultaneous() ? SearchAlgorithm::kPuct : SearchAlgorithm::kGumbel;
  config.simulations = EvaluationSection{}.simulations;
  return playing_search(config);
}

namespace {

struct CachedCheckpoint {
  std::shared_ptr<const Model> model;
  SearchConfig search;
};

SearchConfig run_search(const CheckpointInfo& info, const Game& game) {
  if (info.config_yaml.empty()) return default_agent_search(game);
  try {
    return parse_train_config(info.config_yaml, "the checkpoint's config").eval_search;
  } catch (const InputError&) {
    return default_agent_search(game);
  }
}

CachedCheckpoint cached_checkpoint(const std::string& path, const Game& game) {
  // A file is known by its inode, size and modification time: a run replaces latest.pt by
  // a rename (a new inode), so an agent:RUN/checkpoints/latest.pt player picks up the
  // newer network the next time one is made, while an unchanged file loads only once.
  struct Entry {
    ino_t inode = 0;
    off_t size = 0;
    std::int64_t mtime_ns = 0;
    CachedCheckpoint loaded;
  };
  static std::mutex mutex;
  static std::map<std::string, Entry> cache;
  struct stat info{};
  if (::stat(path.c_str(), &info) != 0)
    throw InputError("checkpoint '" + path + "' " + (errno == ENOENT ? std::string("does not exist") : std::strerror(errno)));
  const std::int64_t mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
  std::lock_guard lock(mutex);
  Entry& entry = cache[path];
  if (!entry.loaded.model || entry.inode != info.st_ino || entry.size != info.st_size || entry.mtime_ns != mtime_ns) {
    Checkpoint checkpoint = load_checkpoint(path);
    if (checkpoint.game->to_string() != game.to_string())
      throw InputError("checkpoint '" + path + "' plays " + checkpoint.game->to_string() + ", not " + game.to_string());
    SearchConfig search = run_search(checkpoint.info, game);
    entry = {info.st_ino, info.st_size, mtime_ns,
             {std::make_shared<const Model>(std::move(checkpoint.model)), search}};
  }
  return entry.loaded;
}

}  // namespace

std::shared_ptr<const Model> cached_checkpoint_model(const std::string& path, const Game& game) {
  return cached_checkpoint(path, game).model;
}

SearchConfig checkpoint_search(const std::string& path, const Game& game) {
  return cached_checkpoint(path, game).search;
}

std::unique_ptr<Bot> make_network_bot(std::shared_ptr<const Model> model, const Game& game, const SearchConfig& config,
                                      std::uint64_t seed) {
  if (model->num_actions() != game.num_distinct_actions() || model->num_players() != game.num_players())
    throw InputError("the network does not fit " + game.to_string());
  return std::make_unique<NetworkBot>(std::move(model), game, config, seed);
}

std::unique_ptr<Bot> make_any_bot(std::string_view text, const Game& game, std::uint64_t seed) {
  return make_any_bot_with_cache(text, game, seed, std::numeric_limits<int>::max());
}

namespace {

// An agent spec's network and the search it plays: its run's evaluation search, the spec's
// keys on top, the evaluation cache at most `max_cache_positions`.
CachedCheckpoint resolve_agent(const PlayerSpec& spec, std::string_view text, const Game& game,
                               int max_cache_positions) {
  if (spec.kind != "agent") throw InputError("player " + quote_input(text) + " is not an agent:CHECKPOINT player");
  if (!spec.argument)
    throw InputError("player " + quote_input(text) +
                     ": agent needs a checkpoint path, as in agent:runs/x/checkpoints/latest.pt(simulations=64)");
  CachedCheckpoint agent = cached_checkpoint(*spec.argument, game);
  try {
    set_search_options(agent.search, spec.options);
    agent.search.cache_positions = std::min(agent.search.cache_positions, std::max(max_cache_positions, 0));
    validate(agent.search);
  } catch (const InputError& e) {
    throw InputError("player " + quote_input(text) + ": " + e.what());
  }
  return agent;
}

}  // namespace

SearchConfig agent_search(std::string_view spec, const Game& game, int max_cache_positions) {
  return resolve_agent(parse_player_spec(spec), spec, game, max_cache_positions).search;
}

std::unique_ptr<Bot> make_any_bot_with_cache(std::string_view text, const Game& game, std::uint64_t seed,
                                             int max_cache_positions) {
  const PlayerSpec spec = parse_player_spec(text);
  if (spec.kind != "agent") return make_search_bot(text, game, seed);
  const CachedCheckpoint agent = resolve_agent(spec, text, game, max_cache_positions);
  return make_network_bot(agent.model, game, agent.search, seed);
}

}  // namespace boardlab
