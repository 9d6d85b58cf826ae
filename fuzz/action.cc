// Fuzz target: action strings of every game at random positions (selector bytes, then the text).
#include <algorithm>
#include <cstdlib>

#include "core/errors.h"
#include "fuzz/fuzz.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  const Game& game = fuzz::pick_game(input.byte());
  const int plies = input.byte();
  const std::uint64_t seed = input.byte();
  std::unique_ptr<State> state = fuzz::random_state(game, plies, seed);
  const std::uint8_t who = input.byte();
  const Player actor = state->is_chance_node() && who % 2 == 0 ? kChancePlayer
                                                                : static_cast<Player>(who % game.num_players());
  Action action = kInvalidAction;
  try {
    action = state->string_to_action(actor, input.rest());
  } catch (const InputError&) {
    return 0;
  }
  // A text that names an action names one of the game's, and a legal one reads back to it.
  if (action < 0 || action >= game.num_distinct_actions()) std::abort();
  const std::vector<Action> legal = state->legal_actions(actor);
  if (std::find(legal.begin(), legal.end(), action) == legal.end()) return 0;
  if (state->string_to_action(actor, state->action_to_string(actor, action)) != action) std::abort();
  if (actor == state->current_player()) state->apply(action);
  return 0;
}
