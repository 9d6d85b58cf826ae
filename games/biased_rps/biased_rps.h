// Biased rock-paper-scissors, a simultaneous benchmark with a known equilibrium (rules: games/biased_rps/RULES.md).
//
// Each round both players choose rock, paper or scissors at once; player 0 scores
// kBiasedRpsPayoff[its choice][the other's] and player 1 the opposite: paper beats rock by
// 1/2, scissors beat paper by 1/2, rock beats scissors by 1, equal choices score 0. The game
// is `rounds` such rounds (1..10, default 1) and returns the mean score over them: zero-sum,
// in [-1, 1]. One round's unique equilibrium is kBiasedRpsEquilibrium = (1/4, 1/2, 1/4) for
// both players, value 0; playing it every round is an equilibrium of the repeated game.
//
// Choices (rock's win counts double, which moves the equilibrium off uniform; the payoffs are
// halved so that returns lie in [-1, 1]; this is not OpenSpiel's matrix_brps, whose payoffs and
// equilibrium differ):
// - actions 0 1 2 are `R` `P` `S` for both seats; a round reads `R/P` (player 0's first), a
//   record `S/R P/R`; a round is one turn (move_number() counts rounds);
// - the returns are the mean over rounds, so that every `rounds` shares one scale;
// - the observation is 7 floats: the last round's choices (3 one-hot for the viewer's, then
//   3 for the other's; zeros before the first round) and the fraction of rounds left. The
//   rounds before the last are not shown: every round's equilibrium is the same whatever
//   came before, so they do not matter to optimal play;
// - nothing is hidden: both choices of a round are public once it is played (perfect
//   information in the sense of the game's type; the simultaneity is the only uncertainty);
// - the arena opens with no random rounds (GameTraits::arena_opening_turns): one would decide a game.
//
// Known answers (games/biased_rps/biased_rps_test.cc, tests/arena/exploitability_test.cc): the
// game is symmetric, and against uniform play rock scores (0 - 1/2 + 1)/3 = 1/6, paper 0 and
// scissors -1/6, so each seat's best response gains 1/6 over uniform's value 0: uniform's
// NashConv is 1/3 and its exploitability 1/6, at any number of rounds; the equilibrium's is 0.
#pragma once

#include "core/game_spec.h"

namespace boardlab {

GameSpec biased_rps_spec();

// Player 0's score for (its choice, the other's), in rock paper scissors order.
inline constexpr double kBiasedRpsPayoff[3][3] = {{0, -0.5, 1}, {0.5, 0, -0.5}, {-1, 0.5, 0}};
// The unique equilibrium of one round, for both players.
inline constexpr double kBiasedRpsEquilibrium[3] = {0.25, 0.5, 0.25};

}  // namespace boardlab
