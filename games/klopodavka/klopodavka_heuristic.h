// Klopodavka's heuristic reference player: a greedy sub-move player that hunts main bugs and keeps its own out of reach.
#pragma once

#include <cstdint>
#include <memory>

#include "core/bot.h"
#include "core/game.h"

namespace boardlab {

// The `heuristic` player of Klopodavka (GameSpec::heuristic): see klopodavka_heuristic.cc.
std::unique_ptr<Bot> make_klopodavka_heuristic(const Game& game, std::uint64_t seed);

}  // namespace boardlab
