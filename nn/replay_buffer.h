// The replay buffer: a sliding window of self-play positions, stored as games so that each position costs a few bytes.
//
// A position is kept as (game, ply): the game's actions are stored once and the position
// is rebuilt by replaying them when it is sampled (well under a microsecond per action), so
// a Virus War position costs ~4.5 bytes (its action and its ply) plus its sparse policy,
// far below its 900 observation floats or even their bits. Observations are made at sampling time,
// in the mover's view, with a random symmetry when augmenting.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/rng.h"
#include "nn/train_batch.h"

namespace boardlab {

// One finished self-play game with the search's policy at each searched position.
struct SelfPlayGame {
  struct Position {
    int ply = 0;                 // actions played before this position
    std::vector<Action> legal;   // the legal actions searched
    std::vector<float> policy;   // the policy target over `legal`
  };
  std::vector<Action> actions;
  std::vector<double> returns;
  std::vector<Position> positions;
};

class ReplayBuffer {
 public:
  ReplayBuffer(const Game& game, std::int64_t window);

  // Adds a finished game; the oldest games leave once more than `window` positions are held.
  // Thread-safe.
  void add(const SelfPlayGame& game);

  std::int64_t positions() const;
  std::int64_t games() const;           // games held now
  std::int64_t games_added() const;     // since the buffer was created, across resumes
  std::int64_t positions_added() const;
  // Bytes of the stored games (actions, returns, policies) and the part that is not policy.
  std::size_t bytes() const;
  std::size_t bytes_without_policy() const;

  // Fills `out` with `batch` positions drawn uniformly from the window. Not to be called
  // while another thread adds.
  void sample(int batch, Rng& rng, bool augment, TrainBatch& out) const;

  // Written atomically (temporary file, fsync, rename); load() rejects a file of another
  // game or a corrupt one with a message naming the file and the problem.
  void save(const std::string& path) const;
  void load(const std::string& path);

 private:
  struct StoredGame {
    std::vector<std::uint16_t> actions;
    std::vector<float> returns;
    std::vector<std::uint16_t> ply;             // per position
    std::vector<std::uint32_t> policy_offset;   // per position, into entries (size positions + 1)
    std::vector<std::uint16_t> policy_action;   // sparse policy entries
    std::vector<std::uint16_t> policy_weight;   // probability × 65535
  };
  void push(StoredGame&& game);  // with mutex_ held
  static std::size_t game_bytes(const StoredGame& g, bool with_policy);

  const Game* game_;
  std::int64_t window_;
  mutable std::mutex mutex_;
  std::deque<StoredGame> games_;  // oldest first
  std::int64_t positions_ = 0;
  std::int64_t games_added_ = 0;
  std::int64_t positions_added_ = 0;
  mutable std::vector<std::int64_t> prefix_;  // positions before each held game, rebuilt after adds
  mutable bool prefix_stale_ = true;
};

}  // namespace boardlab
