// Packing and checking actor ranks' messages.
#include "nn/game_message.h"

#include <cstring>
#include <limits>

#include "core/errors.h"
#include "nn/replay_codec.h"
#include "nn/replay_storage.h"

namespace boardlab {
namespace {
constexpr char kMagic[4] = {'B', 'L', 'G', '1'};
constexpr std::uint8_t kGame = 'G', kLast = 'L';
}  // namespace

std::string encode_game_message(const Game& game, const ActorReport& report, const SelfPlayGame* record) {
  ByteWriter w;
  w.put_bytes(kMagic, sizeof kMagic);
  w.put(record ? kGame : kLast);
  w.put(report.network_version);
  w.put(report.searches);
  w.put(report.simulations);
  w.put(report.inference_batches);
  w.put(report.inference_positions);
  if (record) put_stored_game(w, encode_game(game, *record));
  return w.take();
}

GameMessage decode_game_message(const Game& game, std::string_view bytes, const std::string& from) {
  ByteReader r(bytes, "a message from " + from);
  char magic[sizeof kMagic];
  r.take(magic, sizeof magic, "the header");
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) r.fail("it is not a boardlab game message");
  const auto kind = r.get<std::uint8_t>("the header");
  if (kind != kGame && kind != kLast) r.fail("unknown message kind " + std::to_string(kind));
  GameMessage out;
  out.report.network_version = r.get<std::int64_t>("the counters");
  out.report.searches = r.get<std::uint64_t>("the counters");
  out.report.simulations = r.get<std::uint64_t>("the counters");
  out.report.inference_batches = r.get<std::uint64_t>("the counters");
  out.report.inference_positions = r.get<std::uint64_t>("the counters");
  if (out.report.network_version < 0) r.fail("a negative network version");
  if (kind == kGame) {
    StoredGame stored = get_stored_game(r, game, true, "its game");
    try {
      // No snapshots: the game is decoded, not sampled, here.
      check_and_snapshot(game, stored, std::numeric_limits<int>::max());
    } catch (const InputError& e) {
      r.fail("its game of " + game.to_string() + " does not replay: " + e.what());
    }
    out.game = decode_game(game, stored);
  }
  if (!r.at_end()) r.fail("bytes after the end of the message");
  return out;
}

}  // namespace boardlab
