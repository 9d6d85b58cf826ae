// War's heuristic reference player: a greedy sub-move player that hunts generals, guards its own and ends its turn when nothing improves.
#pragma once

#include <cstdint>
#include <memory>

#include "core/bot.h"
#include "core/game.h"

namespace boardlab {

// The `heuristic` player of War (GameSpec::heuristic): see war_heuristic.cc.
std::unique_ptr<Bot> make_war_heuristic(const Game& game, std::uint64_t seed);

}  // namespace boardlab
