// Players backed by a trained network ("agent:PATH(simulations=N)"), and the factory that knows every kind of player.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/bot.h"
#include "mcts/search_config.h"
#include "nn/model.h"

namespace boardlab {

// A search over `model` (shared, read-only; made for `game`) with `config`.
std::unique_ptr<Bot> make_network_bot(std::shared_ptr<const Model> model, const Game& game, const SearchConfig& config,
                                      std::uint64_t seed);

// The search of an agent whose checkpoint carries no readable run config: 32 simulations
// without noise, Gumbel, or at a game with simultaneous rounds (where Gumbel's root halving
// does not apply) PUCT with regret matching at the rounds.
SearchConfig default_agent_search(const Game& game);

// "agent:PATH" or "agent:PATH(key=value,...)" (search options as in mcts/search_config.h;
// arena/player_spec.h for the syntax, quoting included) makes a network player from a
// checkpoint, loaded once per path and shared; anything else goes to make_search_bot
// (random, uct:N, mcts(...)). The checkpoint must be of `game`. The agent
// plays its own run's evaluation search (checkpoint_search) with the spec's keys on top.
std::unique_ptr<Bot> make_any_bot(std::string_view spec, const Game& game, std::uint64_t seed);
// The same, with a network player's evaluation cache (search.cache_positions) capped at
// `max_cache_positions`: a caller that holds many such bots at once (self-play's fixed
// opponents, one per game) shares out one cache's worth of memory among them.
std::unique_ptr<Bot> make_any_bot_with_cache(std::string_view spec, const Game& game, std::uint64_t seed,
                                             int max_cache_positions);

// The search an "agent:PATH(key=value,...)" spec plays (what make_any_bot_with_cache gives
// its bot): the checkpoint's run's evaluation search, the spec's keys on top, the cache at
// most `max_cache_positions`. Throws InputError for any other kind of player or a bad key.
SearchConfig agent_search(std::string_view spec, const Game& game, int max_cache_positions);

// Loads (or returns the cached) model of a checkpoint file.
std::shared_ptr<const Model> cached_checkpoint_model(const std::string& path, const Game& game);
// The search the checkpoint's run evaluated its agent with (training's search at the
// evaluation budget, without noise: algorithm, contempt and playouts as trained), read
// from the config saved in the checkpoint; default_agent_search when there is none or it
// no longer parses (a checkpoint from an older boardlab).
SearchConfig checkpoint_search(const std::string& path, const Game& game);

}  // namespace boardlab
