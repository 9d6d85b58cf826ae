// Fuzz target: game strings ("virus_war(strict=true)") through the registry's parser and each game's parameters.
#include <cstdlib>

#include "core/errors.h"
#include "fuzz/fuzz.h"
#include "games/registry.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::shared_ptr<const Game> game;
  try {
    game = load_game(text);
  } catch (const InputError&) {
    return 0;
  }
  // An accepted game names itself in text that reads back to the same game.
  const std::string canonical = game->to_string();
  if (load_game(canonical)->to_string() != canonical) std::abort();
  game->new_initial_state();
  return 0;
}
