// Search bots and parsing of player specs.
#include "mcts/bots.h"

#include <charconv>
#include <string>

#include "core/errors.h"
#include "mcts/rollout_evaluator.h"

namespace boardlab {

SearchBot::SearchBot(const Game& game, const SearchConfig& config, std::unique_ptr<Evaluator> evaluator,
                     std::uint64_t seed)
    : owned_(std::move(evaluator)), search_(game, config, seed), driver_(*owned_) {}

SearchBot::SearchBot(const Game& game, const SearchConfig& config, Evaluator& shared, std::uint64_t seed)
    : search_(game, config, seed), driver_(shared) {}

Action SearchBot::act(const PlayerView& view) {
  search_.start(view);
  Search* searches[] = {&search_};
  driver_.run(searches);
  last_ = search_.result();
  return last_.action;
}

std::unique_ptr<Bot> make_search_bot(std::string_view spec, const Game& game, std::uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string_view kind = spec.substr(0, colon);
  std::string_view args = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  const std::string where = "player '" + std::string(spec) + "'";
  if (kind == "random") {
    if (!args.empty()) throw InputError(where + ": random takes no options");
    return std::make_unique<RandomBot>(seed);
  }
  SearchConfig config;
  int rollouts = 1;
  if (kind == "uct") {
    const std::string_view count = args.substr(0, args.find(','));
    int sims = 0;
    auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), sims);
    if (count.empty() || ec != std::errc() || end != count.data() + count.size() || sims < 1)
      throw InputError(where + ": uct needs a number of simulations, as in uct:1000");
    config.algorithm = SearchAlgorithm::kUct;
    config.simulations = sims;
    args = count.size() < args.size() ? args.substr(count.size() + 1) : std::string_view{};
  } else if (kind != "mcts") {
    throw InputError(where + ": unknown kind '" + std::string(kind) + "' (known: random, uct:N, mcts:key=value,...)");
  }
  // "rollouts" belongs to the evaluator; everything else is a search option.
  std::string rest;
  while (!args.empty()) {
    const std::string_view item = args.substr(0, args.find(','));
    if (item.starts_with("rollouts=")) {
      const std::string_view v = item.substr(9);
      auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), rollouts);
      if (ec != std::errc() || end != v.data() + v.size() || rollouts < 1)
        throw InputError(where + ": rollouts must be a positive integer");
    } else {
      rest += (rest.empty() ? "" : ",") + std::string(item);
    }
    args.remove_prefix(std::min(args.size(), item.size() + 1));
  }
  try {
    set_search_options(config, rest);
    validate(config);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
  return std::make_unique<SearchBot>(game, config, std::make_unique<RolloutEvaluator>(seed ^ 0x5eedULL, rollouts),
                                     seed);
}

std::string search_bot_kinds_help() {
  return "random                 uniformly random legal actions\n"
         "uct:N                  UCT with random rollouts, N simulations (uct:1000)\n"
         "mcts:key=value,...     PUCT or Gumbel search over random rollouts "
         "(mcts:algorithm=gumbel,simulations=64)\n";
}

}  // namespace boardlab
