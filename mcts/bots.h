// Search-based players and the factory that makes any player of this layer from a spec.
#pragma once

#include <memory>
#include <string_view>

#include "core/bot.h"
#include "mcts/evaluator.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"

namespace boardlab {

// Plays the move its search chooses. Owns its evaluator unless given a shared one.
class SearchBot final : public Bot {
 public:
  SearchBot(const Game& game, const SearchConfig& config, std::unique_ptr<Evaluator> evaluator, std::uint64_t seed);
  SearchBot(const Game& game, const SearchConfig& config, Evaluator& shared, std::uint64_t seed);
  Action act(const PlayerView& view) override;
  void set_stop(const StopToken* stop) override { stop_ = stop; }
  // The full result of the last act(): policy, visits, value.
  const SearchResult& last_result() const { return last_; }

 private:
  std::unique_ptr<Evaluator> owned_;
  Search search_;
  SearchDriver driver_;
  SearchResult last_;
  const StopToken* stop_ = nullptr;
};

// Specs (the syntax of arena/player_spec.h):
//   random                        uniform random legal actions
//   heuristic                     the game's own rule-based player (GameSpec::heuristic), for
//                                 the games that have one
//   uct:N, uct(simulations=N,...)  UCT (UCB1, random rollouts), N simulations
//   mcts, mcts(key=value,...)     PUCT/Gumbel search (keys of mcts/search_config.h) over
//                                 the random-rollout evaluator (rollouts=R for R per leaf)
// Throws InputError for an unknown kind or a bad option, naming it.
std::unique_ptr<Bot> make_search_bot(std::string_view spec, const Game& game, std::uint64_t seed);

// One line per kind, for help texts.
std::string search_bot_kinds_help();

}  // namespace boardlab
