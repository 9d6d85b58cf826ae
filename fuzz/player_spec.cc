// Fuzz target: player specs (random, uct:N, mcts:key=value,...) for every game (a selector byte, then the spec).
#include "core/errors.h"
#include "fuzz/fuzz.h"
#include "mcts/bots.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input input(data, size);
  const Game& game = fuzz::pick_game(input.byte());
  try {
    make_search_bot(input.rest(), game, 1);
  } catch (const InputError&) {
  }
  return 0;
}
