// Leduc hold'em's heuristic reference player: bets by the strength of its hand, as a cautious human plays it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "core/bot.h"
#include "core/game.h"

namespace boardlab {

// The heuristic's action at the information state that `observation` (Leduc's 30 floats)
// encodes, given the mover's legal actions (fold 0 only when facing a bet, call 1, raise 2
// while the round allows one).
Action leduc_heuristic_action(std::span<const float> observation, std::span<const Action> legal);

// The `heuristic` player of Leduc poker (GameSpec::heuristic): plays leduc_heuristic_action.
std::unique_ptr<Bot> make_leduc_poker_heuristic(const Game& game, std::uint64_t seed);

}  // namespace boardlab
