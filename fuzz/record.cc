// Fuzz target: game records of every game, full (load_record) and as a viewer saw them (sample_record).
#include <cstdlib>

#include "core/errors.h"
#include "fuzz/fuzz.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  const Game& game = fuzz::pick_game(input.byte());
  const std::uint8_t mode = input.byte();
  const std::string_view text = input.rest();
  std::unique_ptr<State> state;
  try {
    if (mode % 3 == 0) {
      state = game.load_record(text);
    } else {
      // The public record, or a seat's; few tries (so that a hard record stays fast), or
      // with the high bit of the mode as many as the default allows.
      const Player viewer = mode % 3 == 1 ? kPublicViewer : static_cast<Player>(mode / 3 % game.num_players());
      Rng rng(mode);
      state = mode >= 128 ? game.sample_record(text, viewer, rng) : game.sample_record(text, viewer, rng, 2000);
    }
  } catch (const InputError&) {
    return 0;
  }
  // Whatever was read, its full record reads back to the same position, in the middle of a
  // turn too: the same steps, turn and player to move.
  const std::unique_ptr<State> back = game.load_record(state->record());
  if (back->hash() != state->hash() || back->move_number() != state->move_number() ||
      back->current_player() != state->current_player() || back->history() != state->history())
    std::abort();
  state->public_record();
  return 0;
}
