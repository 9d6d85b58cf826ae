// Timed random play over the generic game API.
#include "core/random_play.h"

#include <chrono>

#include "core/errors.h"

namespace boardlab {

RandomPlayStats random_play(const Game& game, double min_seconds, std::uint64_t min_games, std::uint64_t seed) {
  if (game.is_simultaneous())
    throw InputError("random_play: " + game.name() + " has simultaneous moves; not supported yet");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Rng rng(seed);
  RandomPlayStats stats;
  const std::unique_ptr<State> initial = game.new_initial_state();
  while (true) {
    std::unique_ptr<State> state = initial->clone();
    while (!state->is_terminal()) {
      state->apply(state->random_legal_action(rng));
      ++stats.actions;
    }
    ++stats.games;
    // Reading the clock every 64 games keeps it out of the measurement.
    if (stats.games % 64 == 0 || stats.games >= min_games) {
      stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if (stats.seconds >= min_seconds && stats.games >= min_games) return stats;
    }
  }
}

}  // namespace boardlab
