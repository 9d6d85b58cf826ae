// Stratego's heuristic reference player: a guarded setup, then captures it can count on, cautious attacks on the unknown, and an advance.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "core/bot.h"
#include "core/game.h"
#include "core/rng.h"

namespace boardlab {

// The `heuristic` player of Stratego (GameSpec::heuristic), classic or barrage: see
// stratego_heuristic.cc. It plays from its PlayerView alone (its observation and legal
// actions), never from the hidden ranks.
std::unique_ptr<Bot> make_stratego_heuristic(const Game& game, std::uint64_t seed);

// The setup the player draws, as setup actions in fill order (square i is the i-th of the
// side's own four ranks, from its back rank, left to right as the side sees them): the Flag on
// the back rank, Bombs around it (barrage: its one Bomb in front of it), the other pieces by
// rank preferences, drawn with `rng`. Exposed for tests.
std::array<std::int8_t, 40> stratego_heuristic_setup(bool barrage, Rng& rng);

}  // namespace boardlab
