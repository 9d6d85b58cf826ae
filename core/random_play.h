// Random play of whole games: one random step at any kind of node, and the game-core speed benchmarks behind `boardlab bench`.
#pragma once

#include <cstdint>
#include <vector>

#include "core/game.h"

namespace boardlab {

// Plays one random step of `state` (not terminal): a uniformly random action of the mover,
// a chance outcome drawn with its probability, or at a simultaneous node a uniformly
// random action of every seat. `joint` is scratch space. Returns the steps played, and
// appends them to `steps` when given (a record being written).
int apply_random_step(State& state, Rng& rng, std::vector<Action>& joint, std::vector<Step>* steps = nullptr);

struct RandomPlayStats {
  std::uint64_t games = 0;
  std::uint64_t actions = 0;  // steps: sub-moves, passes, chance outcomes, one per seat in a round
  // Simultaneous rounds (one joint action each): a simultaneous game's speed in its own unit,
  // since its steps count every seat's choice of one round.
  std::uint64_t rounds = 0;
  double seconds = 0;
  double actions_per_second() const { return seconds > 0 ? static_cast<double>(actions) / seconds : 0; }
  double rounds_per_second() const { return seconds > 0 ? static_cast<double>(rounds) / seconds : 0; }
  double games_per_second() const { return seconds > 0 ? static_cast<double>(games) / seconds : 0; }
};

// Plays random games (apply_random_step) from the initial state to the end, through the
// generic State API (legal-move generation and legality checks included), on the calling
// thread, until `min_seconds` have passed and at least `min_games` games are done, or a
// stop is requested (core/stop.h).
RandomPlayStats random_play(const Game& game, double min_seconds, std::uint64_t min_games, std::uint64_t seed);

struct HiddenSampleStats {
  std::uint64_t samples = 0;
  double seconds = 0;  // spent in sample_hidden alone
  double samples_per_second() const { return seconds > 0 ? static_cast<double>(samples) / seconds : 0; }
  double microseconds_per_sample() const { return samples > 0 ? 1e6 * seconds / static_cast<double>(samples) : 0; }
};

// The cost of one hidden-state sample (State::sample_hidden), the step the information-set
// search takes once per simulation: at every 8th state of random games, a state is drawn for
// the seat to move (seat 0 at chance nodes), until `min_seconds` of sampling have been timed
// (at least one sample), or a stop is requested. Only the sampling is timed.
HiddenSampleStats hidden_sample_bench(const Game& game, double min_seconds, std::uint64_t seed);

}  // namespace boardlab
