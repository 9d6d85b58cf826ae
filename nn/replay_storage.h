// How the replay buffer keeps one game: packed columns of steps and training targets, checked by replaying them, with in-memory state snapshots.
//
// A stored game holds every step's action (chance outcomes included) but not its player:
// the player of a step follows from the state before it (the mover, chance, or at a
// simultaneous round each seat in seat order), so it is checked against the producer's
// steps when the game is added and rebuilt on replay. Per training target it holds one
// number for its position's ply and its seat, ply × players + seat, and its sparse policy.
// Actions and those numbers take 16 bits, or 32 for a game whose declared bounds need them
// (more than 65,536 actions; (max_game_length + 1) × players beyond 65,536).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/game.h"

namespace boardlab {

struct SelfPlayGame;

// Unsigned values in 16-bit halves: the low halves always, the high halves only for a wide
// column, so the common case costs two bytes a value and a wide game needs no other code.
class PackedColumn {
 public:
  explicit PackedColumn(bool wide = false) : wide_(wide) {}
  bool wide() const { return wide_; }
  // The largest value the column holds.
  std::uint32_t max_value() const { return wide_ ? 0xffffffffu : 0xffffu; }
  void push_back(std::uint32_t value) {
    low_.push_back(static_cast<std::uint16_t>(value & 0xffffu));
    if (wide_) high_.push_back(static_cast<std::uint16_t>(value >> 16));
  }
  std::uint32_t operator[](std::size_t i) const {
    return wide_ ? low_[i] | (static_cast<std::uint32_t>(high_[i]) << 16) : low_[i];
  }
  std::size_t size() const { return low_.size(); }
  std::size_t bytes() const { return 2 * (low_.size() + high_.size()); }
  // The halves, for the file format.
  std::vector<std::uint16_t>& low() { return low_; }
  std::vector<std::uint16_t>& high() { return high_; }
  const std::vector<std::uint16_t>& low() const { return low_; }
  const std::vector<std::uint16_t>& high() const { return high_; }

 private:
  bool wide_;
  std::vector<std::uint16_t> low_, high_;
};

// The widths a game's declaration asks for.
struct ReplayLayout {
  int seats = 0;
  bool wide_actions = false;  // more than 65,536 actions
  bool wide_targets = false;  // (max_game_length + 1) × players beyond 65,536
  // Throws InputError for a game whose targets do not fit 32 bits.
  static ReplayLayout of(const Game& game);
};

struct StoredGame {
  explicit StoredGame(ReplayLayout layout)
      : seats(static_cast<std::uint32_t>(layout.seats)),
        actions(layout.wide_actions),
        target(layout.wide_targets),
        policy_action(layout.wide_actions) {}

  std::uint32_t seats;         // the game's players (not stored: the buffer's game says it)
  PackedColumn actions;        // every step's action
  std::vector<float> returns;  // per seat
  bool truncated = false;
  // Training targets in order of play, the targets of one position adjacent in seat order:
  // ply × seats + seat, where ply counts the steps played before the position.
  PackedColumn target;
  std::vector<std::uint32_t> policy_offset;  // into the policy entries; targets + 1 of them
  PackedColumn policy_action;
  std::vector<std::uint16_t> policy_weight;  // relative to the target's largest, which is 65535
  // A target without policy entries trains the value only (a fast search, playout cap
  // randomization).
  bool has_policy(std::size_t t) const { return policy_offset[t + 1] > policy_offset[t]; }
  // Per target, the search's root value for its seat on the network's scale [-1, 1]
  // (value_target) in steps of 1/kRootValueScale, or kNoRootValue.
  static constexpr std::int16_t kNoRootValue = -32768;
  static constexpr float kRootValueScale = 32767;
  std::vector<std::int16_t> root_value;

  // Found by check_and_snapshot, in memory only.
  std::int64_t positions = 0;  // distinct plies among the targets
  std::vector<std::uint32_t> snapshot_step;
  std::vector<std::unique_ptr<const State>> snapshot;  // the state before step snapshot_step[i]
  // Auxiliary targets of the final state, where the game declares them: per seat its view
  // of who owns each observation cell (GameTraits::has_ownership; +1, -1, 0), seat after seat;
  // per seat its score margin over the best other seat on the network's scale
  // (GameTraits::max_score_margin).
  std::vector<std::int8_t> ownership;
  std::vector<float> score_margin;

  std::size_t targets() const { return target.size(); }
  std::uint32_t target_ply(std::size_t t) const { return target[t] / seats; }
  Player target_player(std::size_t t) const { return static_cast<Player>(target[t] % seats); }
  std::size_t steps() const { return actions.size(); }
  // Bytes of the stored fields (snapshots not counted); without the policy entries and offsets.
  std::size_t bytes(bool with_policy) const;
  // The state before step `ply` (a node boundary): the nearest snapshot at or before it,
  // cloned, with the steps after it replayed.
  std::unique_ptr<State> state_at(const Game& game, std::uint32_t ply) const;
};

// Packs a self-play game, checking every field against its width and the game's bounds
// (actions, seats, plies, policy sizes). Throws InputError saying which field and why.
StoredGame encode_game(const Game& game, const SelfPlayGame& record);

// The self-play game a stored one stands for, as encode_game would store it again: each
// step's player rebuilt by replay, each target's legal actions only those its policy weighs
// (the stored entries, weights relative to the largest), root values back in the game's units.
// For a game check_and_snapshot accepted (a learner receiving an actor rank's games).
SelfPlayGame decode_game(const Game& game, const StoredGame& stored);

// Replays `stored` from the initial state and checks it: every step legal (and, when
// `claimed` lists the producer's steps, played by the player it names), every target's
// seat acting at its position with weight only on its legal actions, a position at a node
// boundary, the game ending after its last step with the truncation flag it claims. Counts
// the positions and keeps a snapshot at the first node boundary at least `snapshot_every`
// steps after the previous one (the initial state counts as one), up to the last target's
// position: sampling then replays fewer than `snapshot_every` steps (plus the rest of a
// simultaneous round). Fills the auxiliary targets from the final state.
// Throws InputError saying what does not hold.
void check_and_snapshot(const Game& game, StoredGame& stored, int snapshot_every, std::span<const Step> claimed = {});

}  // namespace boardlab
