// Kuhn poker, a benchmark with exact answers (rules: games/kuhn_poker/RULES.md, shared/rules/kuhn_poker.md).
//
// Kuhn (1950): a deck of three cards, J < Q < K. Each player antes 1 chip; chance deals one
// card to player 0, then one to player 1 (two chance steps, each its own turn), and the third
// card stays unseen. Player 0 passes (checks) or bets 1. After a pass, player 1 passes (a
// showdown for the pot of 2) or bets 1, which player 0 calls by betting (a showdown for 4)
// or folds by passing. After a bet, player 1 calls by betting (a showdown for 4) or folds by
// passing. The higher card takes a showdown; a fold gives the pot to the other player.
// Returns are the chips won or lost: ±1 or ±2, zero-sum. Every equilibrium is worth
// kKuhnPokerValue to player 0 (Kuhn's one-parameter family, alpha in [0, 1/3]).
//
// Choices, as OpenSpiel's kuhn_poker makes them, so that its published figures hold here:
// - actions: chance deals 0 1 2 (`J` `Q` `K`); a player passes 0 (`p`) or bets 1 (`b`), so
//   "call" and "fold" are the bet and the pass of a player facing a bet; a record reads
//   `K Q p b b`;
// - hidden information: a player sees its own card only; the other's card reads `?` in its
//   record and in the public one (`? ? p b b`);
// - the information state is (seat, own card, betting so far); the observation is exactly
//   that, OpenSpiel's information-state tensor of 11 floats: the viewer's seat (2 one-hot),
//   its card (3 one-hot), then per betting step (at most 3) pass and bet (2 one-hot each);
// - the game has no symmetry (the seats differ: player 0 opens) and no parameters;
// - the arena opens with no random turns (GameTraits::arena_opening_turns): the deal varies games.
//
// Known answers (tests/arena/exploitability_test.cc, games/kuhn_poker/kuhn_poker_test.cc): the
// uniform random policy is worth +1/8 to player 0 and has NashConv 11/12, exploitability
// 11/24 = 0.4583; Kuhn's equilibria have exploitability 0.
#pragma once

#include "core/game_spec.h"

namespace boardlab {

GameSpec kuhn_poker_spec();

// Player 0's return under any equilibrium.
inline constexpr double kKuhnPokerValue = -1.0 / 18.0;

}  // namespace boardlab
