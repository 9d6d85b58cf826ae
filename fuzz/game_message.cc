// Fuzz target: an actor rank's game messages as the learner receives them, for every game.
#include <cstdlib>

#include "core/errors.h"
#include "fuzz/fuzz.h"
#include "nn/game_message.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  const Game& game = fuzz::pick_game(input.byte());
  GameMessage message;
  try {
    message = decode_game_message(game, input.rest(), "the fuzzer's rank");
  } catch (const InputError&) {
    return 0;
  }
  // What the learner accepts it can send on again: the message reads back the same.
  const std::string again = encode_game_message(game, message.report, message.game ? &*message.game : nullptr);
  const GameMessage twice = decode_game_message(game, again, "the re-encoded message");
  if (twice.game.has_value() != message.game.has_value() || (message.game && twice.game->steps != message.game->steps))
    std::abort();
  return 0;
}
