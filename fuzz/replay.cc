// Fuzz target: replay.bin files, loaded into a buffer of the game the file names.
#include <cstring>

#include "core/errors.h"
#include "games/registry.h"
#include "nn/replay_buffer.h"

using namespace boardlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  // The game name follows the 8-byte magic and its 32-bit length: a buffer of that game
  // reads the file, as a resumed run's would.
  std::uint32_t name_size = 0;
  if (bytes.size() < 12) return 0;
  std::memcpy(&name_size, bytes.data() + 8, sizeof name_size);
  if (name_size > 256 || bytes.size() < 12 + name_size) return 0;
  std::shared_ptr<const Game> game;
  try {
    game = load_game(bytes.substr(12, name_size));
  } catch (const InputError&) {
    return 0;
  }
  try {
    ReplayBuffer buffer(*game, 1 << 20, 16);
    buffer.load_from(bytes, "fuzz/replay.bin");
  } catch (const InputError&) {
  }
  return 0;
}
