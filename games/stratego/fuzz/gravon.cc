// Fuzz target: Stratego games in Gravon XML, read, and when accepted written back and read again to the same position.
#include <cstdlib>

#include "core/errors.h"
#include "fuzz/fuzz.h"
#include "games/stratego/gravon.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  stratego::GravonGame game;
  try {
    game = stratego::read_gravon(text);
  } catch (const InputError&) {
    return 0;
  }
  // A winner without an ending code cannot be written; the position is what must survive.
  const int winner = game.result_type >= 0 ? game.winner : -1;
  const std::string xml = stratego::write_gravon(*game.state, game.players, winner, game.result_type);
  if (stratego::read_gravon(xml).state->hash() != game.state->hash()) std::abort();
  return 0;
}
