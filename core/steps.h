// Playing recorded steps back: a whole step list, or one node of it, whatever the kind of node.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/game.h"

namespace boardlab {

// Plays the node at step `i` of a step list whose actions `action_at(k)` gives (one step, or
// at a simultaneous round one step per seat, in seat order, as one apply_joint) and returns
// the number of steps it took; `end` is the list's length. `joint` is scratch space.
template <typename ActionAt>
std::size_t apply_node(State& state, std::size_t i, std::size_t end, ActionAt action_at, std::vector<Action>& joint) {
  if (!state.is_simultaneous_node()) {
    state.apply(action_at(i));
    return 1;
  }
  const auto n = static_cast<std::size_t>(state.game().num_players());
  if (i + n > end)
    throw InputError("step " + std::to_string(i + 1) + " begins a simultaneous round of " + std::to_string(n) +
                     " steps, but only " + std::to_string(end - i) + " are left");
  joint.resize(n);
  for (std::size_t k = 0; k < n; ++k) joint[k] = action_at(i + k);
  state.apply_joint(joint);
  return n;
}

// "White (seat 0)", "chance": who a player value names, for messages.
std::string seat_name(const Game& game, Player p);
// The same for whoever acts at a node: a seat, chance, "every seat" or "nobody".
std::string actor_name(const Game& game, Player actor);
// Checks that the steps of the node at step `i` name who acts there (`actor`, or at a
// simultaneous round each seat in seat order); throws InputError naming the step.
void check_step_players(const Game& game, Player actor, std::span<const Step> steps, std::size_t i);

// A step list's turns and whole-turn passes: a turn is a run of consecutive steps of one seat
// (chance steps are no one's and end no turn), so a sub-move turn counts once; a pass is a turn
// whose first action is `pass` (Klopodavka's `end` closes most turns and is a pass only as a
// turn's first action). `seat` counts that seat's turns only; kInvalidPlayer counts every seat's.
struct TurnCount {
  std::int64_t turns = 0;
  std::int64_t passes = 0;
};
TurnCount count_turns(std::span<const Step> steps, Action pass, Player seat = kInvalidPlayer);

// Plays `steps` on `state` in order. Throws InputError naming the step when its player is
// not the one who acts there or its action is illegal.
void apply_steps(State& state, std::span<const Step> steps);

}  // namespace boardlab
