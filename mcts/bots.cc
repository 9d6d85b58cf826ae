// Search bots and parsing of player specs.
#include "mcts/bots.h"

#include <charconv>
#include <string>

#include "arena/player_spec.h"
#include "core/errors.h"
#include "core/text.h"
#include "games/registry.h"
#include "mcts/rollout_evaluator.h"

namespace boardlab {

SearchBot::SearchBot(const Game& game, const SearchConfig& config, std::unique_ptr<Evaluator> evaluator,
                     std::uint64_t seed)
    : owned_(std::move(evaluator)), search_(game, config, seed), driver_(*owned_, config.cache_positions) {}

SearchBot::SearchBot(const Game& game, const SearchConfig& config, Evaluator& shared, std::uint64_t seed)
    : search_(game, config, seed), driver_(shared, config.cache_positions) {}

Action SearchBot::act(const PlayerView& view) {
  search_.start(view);
  Search* searches[] = {&search_};
  driver_.run(searches, stop_);
  last_ = search_.result();
  return last_.action;
}

namespace {

// The registered games that have a heuristic player, in the registry's order: "squares, ...".
std::string games_with_heuristic() {
  std::string with;
  for (const GameSpec& spec : registered_games())
    if (spec.heuristic) with += (with.empty() ? "" : ", ") + spec.name;
  return with;
}

// The game's own heuristic player, from its registry entry (games/<name>/<name>_heuristic.h).
std::unique_ptr<Bot> make_heuristic_bot(const std::string& where, const Game& game, std::uint64_t seed) {
  for (const GameSpec& spec : registered_games())
    if (spec.name == game.name() && spec.heuristic) return spec.heuristic(game, seed);
  throw InputError(where + ": " + game.name() + " has no heuristic player (games with one: " + games_with_heuristic() +
                   ")");
}

}  // namespace

std::unique_ptr<Bot> make_search_bot(std::string_view text, const Game& game, std::uint64_t seed) {
  PlayerSpec spec = parse_player_spec(text);
  const std::string where = "player " + quote_input(text);
  if (spec.kind == "random") {
    if (spec.argument || !spec.options.empty()) throw InputError(where + ": random takes no argument or options");
    return std::make_unique<RandomBot>(seed);
  }
  if (spec.kind == "heuristic") {
    if (spec.argument || !spec.options.empty()) throw InputError(where + ": heuristic takes no argument or options");
    return make_heuristic_bot(where, game, seed);
  }
  if (spec.kind != "uct" && spec.kind != "mcts")
    throw InputError(where + ": unknown kind " + quote_input(spec.kind) +
                     " (known: random, heuristic, uct:N, uct(key=value,...), mcts(key=value,...))");
  SearchConfig config;
  if (spec.kind == "uct") {
    config.algorithm = SearchAlgorithm::kUct;
    if (spec.argument) {
      // uct:N is uct(simulations=N).
      const std::string& n = *spec.argument;
      int sims = 0;
      auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), sims);
      if (ec != std::errc() || end != n.data() + n.size() || sims < 1)
        throw InputError(where + ": uct needs a number of simulations, as in uct:1000, not " + quote_input(n));
      if (spec.option("simulations")) throw InputError(where + ": simulations given twice (uct:N and simulations=)");
      spec.options.insert(spec.options.begin(), {"simulations", *spec.argument});
    } else if (!spec.option("simulations")) {
      throw InputError(where + ": uct needs a number of simulations, as in uct:1000 or uct(simulations=1000)");
    }
  } else if (spec.argument) {
    throw InputError(where + ": mcts takes no argument after ':'; its options go in parentheses, as in " +
                     "mcts(algorithm=gumbel,simulations=64)");
  }
  try {
    set_search_options(config, spec.options);
    validate(config);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  return std::make_unique<SearchBot>(game, config, std::make_unique<RolloutEvaluator>(seed ^ 0x5eedULL, config.rollouts),
                                     seed);
}

std::string search_bot_kinds_help() {
  return "random                      uniformly random legal actions\n"
         "heuristic                   the game's own rule-based player (" + games_with_heuristic() + ")\n"
         "uct:N                       UCT with random rollouts, N simulations (uct:1000; uct(simulations=1000,"
         "rollouts=2))\n"
         "mcts(key=value,...)         PUCT or Gumbel search over random rollouts "
         "(mcts(algorithm=gumbel,simulations=64))\n";
}

}  // namespace boardlab
