// Random steps at every kind of node, and timed random play over the generic game API.
#include "core/random_play.h"

#include <chrono>

#include "core/errors.h"
#include "core/stop.h"

namespace boardlab {

int apply_random_step(State& state, Rng& rng, std::vector<Action>& joint, std::vector<Step>* steps) {
  if (!state.is_simultaneous_node()) {
    const Player actor = state.current_player();
    const Action action = state.random_legal_action(rng);
    if (steps) steps->push_back({actor, action});
    state.apply(action);
    return 1;
  }
  const int players = state.game().num_players();
  joint.resize(players);
  for (Player p = 0; p < players; ++p) {
    joint[p] = state.random_legal_action(p, rng);
    if (steps) steps->push_back({p, joint[p]});
  }
  state.apply_joint(joint);
  return players;
}

RandomPlayStats random_play(const Game& game, double min_seconds, std::uint64_t min_games, std::uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Rng rng(seed);
  RandomPlayStats stats;
  std::vector<Action> joint;
  const std::unique_ptr<State> initial = game.new_initial_state();
  while (true) {
    std::unique_ptr<State> state = initial->clone();
    while (!state->is_terminal()) {
      stats.rounds += state->is_simultaneous_node() ? 1 : 0;
      stats.actions += static_cast<std::uint64_t>(apply_random_step(*state, rng, joint));
    }
    ++stats.games;
    // Reading the clock every 64 games keeps it out of the measurement.
    if (stats.games % 64 == 0 || stats.games >= min_games) {
      stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
      if ((stats.seconds >= min_seconds && stats.games >= min_games) || stop_requested()) return stats;
    }
  }
}

HiddenSampleStats hidden_sample_bench(const Game& game, double min_seconds, std::uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  Rng rng(seed), sample_rng(seed ^ 0x5a5a5a5a5a5a5a5aULL);
  HiddenSampleStats stats;
  std::vector<Action> joint;
  Clock::duration spent{};
  while (true) {
    std::unique_ptr<State> state = game.new_initial_state();
    for (int step = 0; !state->is_terminal(); ++step) {
      if (step % 8 == 0) {
        const Player mover = state->current_player();
        const auto start = Clock::now();
        const std::unique_ptr<State> drawn = state->sample_hidden(mover >= 0 ? mover : 0, sample_rng);
        spent += Clock::now() - start;
        ++stats.samples;
        stats.seconds = std::chrono::duration<double>(spent).count();
        if (stats.seconds >= min_seconds || stop_requested()) return stats;
      }
      apply_random_step(*state, rng, joint);
    }
  }
}

}  // namespace boardlab
