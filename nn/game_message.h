// What an actor rank sends its learner: finished games as the replay's packed columns, and its running counters.
//
// A game travels as the replay stores it (nn/replay_codec.h: 16-bit actions, the ply and
// seat of each target, sparse 16-bit policy weights, 16-bit root values), never as
// observation tensors: a Virus War game of ~60 positions is a few kilobytes. The learner
// checks it by replay, as it checks a replay file, before anything enters its buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/game.h"
#include "nn/replay_buffer.h"

namespace boardlab {

// An actor rank's counters since it started, sent with each message: the learner's replay
// ratio counts searched positions (unfinished games too), and its metrics the rest.
struct ActorReport {
  std::int64_t network_version = 0;  // the network that played the game's last move (the learner step it was published at)
  std::uint64_t searches = 0;
  std::uint64_t simulations = 0;
  std::uint64_t inference_batches = 0;
  std::uint64_t inference_positions = 0;
};

struct GameMessage {
  ActorReport report;
  std::optional<SelfPlayGame> game;  // none: the actor rank's last message (it stopped)
};

std::string encode_game_message(const Game& game, const ActorReport& report, const SelfPlayGame* record);
// Throws InputError naming `from` ("actor rank 2") and what is wrong: bad bytes, a game of
// another shape, one that does not replay.
GameMessage decode_game_message(const Game& game, std::string_view bytes, const std::string& from);

}  // namespace boardlab
