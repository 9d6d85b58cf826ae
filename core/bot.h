// The player interface the arena and the command line use, and the uniform random player.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/game.h"
#include "core/player_view.h"
#include "core/rng.h"
#include "core/stop.h"

namespace boardlab {

// A player: given its view of a state where it acts (its turn, or a simultaneous round),
// returns its action. A bot sees only its view (core/player_view.h), so it cannot cheat
// at a hidden-information game. Bots are seeded: the same seed and the same views give
// the same actions.
class Bot {
 public:
  virtual ~Bot() = default;
  virtual Action act(const PlayerView& view) = 0;
  // Called before a new game, for bots that keep a tree or statistics between moves.
  virtual void restart() {}
  // Makes the act() calls that follow also poll `stop` (besides the process-wide request of
  // core/stop.h) and end early with their best move so far once it is requested; nullptr
  // stops polling it. Only searching bots poll: the others answer at once.
  virtual void set_stop(const StopToken* /*stop*/) {}
};

class RandomBot final : public Bot {
 public:
  explicit RandomBot(std::uint64_t seed) : rng_(seed) {}
  Action act(const PlayerView& view) override { return view.random_legal_action(rng_); }

 private:
  Rng rng_;
};

// Makes a bot from a spec such as "random" or "uct:1000" for a game, with a seed. The
// layer that knows every kind of bot provides it (mcts/bots.h, later nn/), so that the
// arena stays independent of search and networks.
using BotFactory = std::function<std::unique_ptr<Bot>(std::string_view spec, const Game& game, std::uint64_t seed)>;

}  // namespace boardlab
