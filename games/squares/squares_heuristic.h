// Squares' heuristic reference player: a greedy area player that also weighs the territory each square wins.
#pragma once

#include <cstdint>
#include <memory>

#include "core/bot.h"
#include "core/game.h"

namespace boardlab {

// The `heuristic` player of Squares (GameSpec::heuristic): see squares_heuristic.cc.
std::unique_ptr<Bot> make_squares_heuristic(const Game& game, std::uint64_t seed);

}  // namespace boardlab
