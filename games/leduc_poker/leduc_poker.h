// Leduc hold'em, a poker benchmark small enough for exact best responses (rules: games/leduc_poker/RULES.md).
//
// Southey et al. (2005), two players, as OpenSpiel's leduc_poker plays it by default. A deck
// of six cards, two suits of J < Q < K. Each player antes 1 chip and chance deals one private
// card to player 0, then one to player 1. Two betting rounds follow; player 0 acts first in
// each. A player facing no bet checks (`c`, call) or bets (`r`, raise); a player facing a bet
// folds (`f`), calls it (`c`) or raises (`r`: calls, then adds a bet). A bet or raise adds 2
// chips in the first round and 4 in the second, and a round holds at most two of them (a bet
// counts as one). A round ends when a player calls a bet or both check; a fold ends the game,
// the other player taking the pot. After the first round chance deals one public card from
// the four left. After the second round comes the showdown: a private card of the public
// card's rank (a pair) wins; otherwise the higher private rank wins; equal ranks split the
// pot. Returns are the chips won or lost, zero-sum, in [-13, 13] (1 + 2·2 + 2·4 at most).
//
// Choices, each as OpenSpiel's leduc_poker (players=2) makes it, so that its figures hold:
// - actions: fold 0 (`f`), call or check 1 (`c`), raise or bet 2 (`r`); fold is legal only
//   facing a bet (a player who could check may not fold), call always, raise while the round
//   has fewer than two; the deal's chance outcomes are the cards 0..5, `Js` `Jh` `Qs` `Qh`
//   `Ks` `Kh` (rank = card / 2; the suits, spades and hearts, only tell the two cards of a
//   rank apart and never decide anything), each card left equally likely;
// - turns: every step is a turn (a deal or a bet); a record reads `Ks Jh r c Qs c r c`;
// - hidden information: a player sees its own card, the public card once dealt and every
//   bet; the other's private card reads `?` in its record and in the public one;
// - the information state is (seat, own card, public card, betting of both rounds), suits
//   included as in OpenSpiel, so each seat has 468 information sets (936 in all: 6 cards × 3
//   first-round decisions, and 6 × 5 public cards × 5 first rounds that go on × 3);
// - the observation is exactly that, OpenSpiel's information-state tensor of 30 floats: the
//   viewer's seat (2 one-hot), its card (6 one-hot), the public card (6 one-hot, zeros before
//   it is dealt), then per round 4 betting steps of 2 floats, call (1, 0) or raise (0, 1) (a
//   fold ends the game and is not shown);
// - no parameters (OpenSpiel's `players` > 2, `action_mapping` and `suit_isomorphism` are
//   left out) and no symmetries (the suit swap would have to map chance's card actions and
//   not the players' actions, which share their numbers);
// - the arena opens with no random turns (GameTraits::arena_opening_turns): the deal varies games.
//
// Known answers (games/leduc_poker/leduc_poker_test.cc): the tree has 9,457 states; the
// uniform random policy has NashConv 4.747222 (exploitability 2.373611), OpenSpiel's figure.
#pragma once

#include "core/game_spec.h"

namespace boardlab {

GameSpec leduc_poker_spec();

}  // namespace boardlab
