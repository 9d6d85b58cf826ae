// Tiny games registered in tests only, one per kind of game the framework must handle, each small enough for exact answers.
//
// - toy_race: 3 players (2..4), turns of one or two sub-moves, rank returns;
// - toy_matrix: simultaneous moves, biased rock-paper-scissors with a known equilibrium;
// - toy_kuhn: Kuhn poker, hidden cards dealt by chance.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/game_spec.h"

namespace boardlab {

const std::vector<GameSpec>& toy_games();
// "toy_race(tokens=5)" and the like; unknown names throw GameParameterError.
std::shared_ptr<const Game> load_toy(std::string_view game_string);

GameSpec toy_race_spec();
GameSpec toy_matrix_spec();
GameSpec toy_kuhn_spec();

// toy_matrix's payoff to player 0 for (row, column), rock paper scissors order; its unique
// equilibrium is (1/4, 1/2, 1/4) for both players, value 0.
inline constexpr double kToyMatrixPayoff[3][3] = {{0, -0.5, 1}, {0.5, 0, -0.5}, {-1, 0.5, 0}};
inline constexpr double kToyMatrixEquilibrium[3] = {0.25, 0.5, 0.25};

// toy_kuhn's value for player 0 under any equilibrium.
inline constexpr double kKuhnValue = -1.0 / 18.0;

}  // namespace boardlab
