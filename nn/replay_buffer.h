// The replay buffer: a sliding window of self-play games, stored as their steps so that each position costs a few bytes.
//
// A position is kept as (game, ply): the game's steps are stored once (nn/replay_storage.h)
// and a position is rebuilt by replaying them when it is sampled, from the nearest state
// snapshot, so a Virus War position costs ~6.5 bytes (its root value included) plus its sparse policy, far below its
// 900 observation floats or even their bits. Snapshots live in memory only, one at most
// every `snapshot_every` steps of a game, so sampling replays fewer steps than that (plus,
// in a simultaneous game, the rest of a round) however long the game. Examples are made at
// sampling time, outside the buffer's lock, each in its target player's view.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/rng.h"
#include "nn/train_batch.h"

namespace boardlab {

// One finished self-play game: every step, the returns, and the search's policies at the
// searched positions. The shape self-play producers and the buffer share.
struct SelfPlayGame {
  // One seat's search policy at a position: a training example for that seat.
  struct Target {
    Player player = kInvalidPlayer;
    std::vector<Action> legal;   // its legal actions searched
    std::vector<float> policy;   // its policy target over `legal`
    // The search's mean value for the seat at the root, in the game's return units (value
    // targets may mix it with the result); none from producers without a search.
    std::optional<float> root_value = std::nullopt;
  };
  struct Position {
    int ply = 0;                  // steps played before this position
    std::vector<Target> targets;  // one at a turn; one per seat at a simultaneous round
    // Searched with the full budget: only these train the policy (playout cap
    // randomization); the others train the value alone and keep no policy.
    bool full_search = true;
  };
  std::vector<Step> steps;        // every step: players' actions and chance outcomes
  std::vector<double> returns;
  bool truncated = false;         // ended by a cap that is not a rule (State::is_truncated)
  std::vector<Position> positions;
};


struct StoredGame;

class ReplayBuffer {
 public:
  // Snapshot spacing in steps. A snapshot is a whole State (~0.55 KB for Virus War,
  // more for games that keep a growing history), while replaying a step costs well under a
  // microsecond, so snapshots are sparse: a typical Virus War or Morabaraba game (under
  // 256 steps) needs none, while a 100,000-step game samples some 280 times faster with
  // them than replaying from its start.
  static constexpr int kDefaultSnapshotEvery = 256;

  // Throws InputError for a game whose targets (ply × players + seat) do not fit 32 bits,
  // or whose symmetries do not map every cell, action, plane and seat.
  ReplayBuffer(const Game& game, std::int64_t window, int snapshot_every = kDefaultSnapshotEvery);
  ~ReplayBuffer();

  // Checks and adds a finished game (it is replayed here, outside the lock); the oldest
  // games leave once more than `window` positions are held. Throws InputError for a game
  // that does not replay, does not fit the stored widths or does not end. Thread-safe.
  void add(const SelfPlayGame& game);

  std::int64_t positions() const;
  std::int64_t targets() const;         // training examples held: one per target of each position
  std::int64_t games() const;           // games held now
  std::int64_t games_added() const;     // since the buffer was created, across resumes
  std::int64_t positions_added() const;
  std::int64_t snapshots() const;       // state snapshots held (memory only)
  // Bytes of the stored games (steps, returns, targets, policies; snapshots not counted)
  // and the part that is not policy.
  std::size_t bytes() const;
  std::size_t bytes_without_policy() const;

  // Fills `out` with `batch` examples: (position, target) pairs drawn uniformly from the
  // window, in the target player's view (TrainBatch, every field filled). With `augment`, each is mapped by a
  // symmetry drawn uniformly among the identity and those that hold at its state. Safe
  // while other threads add: the draws are made under the lock, the examples outside it.
  // `standings`: value targets relative to each position's standing returns, for a network
  // with NetworkConfig::standings_baseline (games that declare standings; others ignore it).
  void sample(int batch, Rng& rng, bool augment, TrainBatch& out, bool standings = false) const;

  // Written atomically (temporary file, fsync, rename) in format BLRPLAY3, without
  // snapshots, which load() rebuilds. load() reads BLRPLAY3 and BLRPLAY2 (whose targets
  // have no root values); it rejects a file of another game, of the old format BLRPLAY1,
  // or a corrupt one with a message naming the file and the problem, and leaves the buffer
  // as it was.
  void save(const std::string& path) const;
  void load(const std::string& path);
  // What save() writes, as bytes: the buffer sent to another learner rank.
  std::string serialize() const;
  // The same from a file's bytes already read; `name` stands for the file in messages.
  void load_from(const std::string& bytes, const std::string& name);

 private:
  void push(std::shared_ptr<const StoredGame> game);  // with mutex_ held

  const Game* game_;
  std::int64_t window_;
  int snapshot_every_;
  // Per symmetry, the inverse of its seat permutation (empty: seats stay).
  std::vector<std::vector<Player>> inverse_players_;
  mutable std::mutex mutex_;
  std::deque<std::shared_ptr<const StoredGame>> games_;  // oldest first
  std::int64_t positions_ = 0;
  std::int64_t targets_ = 0;
  std::int64_t snapshots_ = 0;
  std::int64_t games_added_ = 0;
  std::int64_t positions_added_ = 0;
  mutable std::vector<std::int64_t> prefix_;  // targets before each held game, rebuilt after adds
  mutable bool prefix_stale_ = true;
};

}  // namespace boardlab
