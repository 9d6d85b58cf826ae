// Kuhn poker's heuristic reference player: one of Kuhn's equilibrium strategies, the ladder's unexploitable top rung.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "core/bot.h"
#include "core/game.h"

namespace boardlab {

// The probabilities of pass and bet the heuristic player gives at the information state that
// `observation` (Kuhn's 11 floats: seat, own card, the betting so far) encodes.
std::array<double, 2> kuhn_heuristic_policy(std::span<const float> observation);

// The `heuristic` player of Kuhn poker (GameSpec::heuristic): samples kuhn_heuristic_policy.
std::unique_ptr<Bot> make_kuhn_poker_heuristic(const Game& game, std::uint64_t seed);

}  // namespace boardlab
