// The window of stored games, sampling training examples from it, and its file format.
#include "nn/replay_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/atomic_file.h"
#include "core/errors.h"
#include "core/read_file.h"
#include "nn/replay_codec.h"
#include "nn/replay_storage.h"

namespace boardlab {
namespace {

// Version 3: version 2 with per target the search's root value, and targets without a
// policy (fast searches). Version 2: steps of every kind (chance outcomes too),
// truncation, and per target its seat; still read, its targets without root values.
constexpr char kMagic[8] = {'B', 'L', 'R', 'P', 'L', 'A', 'Y', '3'};
constexpr char kMagic2[8] = {'B', 'L', 'R', 'P', 'L', 'A', 'Y', '2'};
constexpr char kOldMagic[8] = {'B', 'L', 'R', 'P', 'L', 'A', 'Y', '1'};
constexpr char kEnd[4] = {'E', 'N', 'D', '!'};

// A drawn example: its game (kept alive outside the lock) and its target.
struct Pick {
  std::shared_ptr<const StoredGame> game;
  std::size_t target = 0;
};

}  // namespace

ReplayBuffer::ReplayBuffer(const Game& game, std::int64_t window, int snapshot_every)
    : game_(&game), window_(window), snapshot_every_(snapshot_every) {
  if (window < 1) throw InputError("replay window must be at least 1 position, got " + std::to_string(window));
  if (snapshot_every < 1)
    throw InputError("replay: snapshots must be at least 1 step apart, got " + std::to_string(snapshot_every));
  ReplayLayout::of(game);  // refuses a game whose targets do not fit 32 bits
  // Sampling trusts the symmetries' maps: check their sizes once.
  const ObservationShape shape = game.observation_shape();
  for (const Symmetry& s : game.symmetries()) {
    const auto bad = [&](const std::string& what) {
      throw InputError("replay: " + game.name() + "'s symmetry '" + s.name + "' " + what);
    };
    if (static_cast<int>(s.cell.size()) != shape.cells()) bad("does not map every observation cell");
    if (static_cast<int>(s.action.size()) != game.num_distinct_actions()) bad("does not map every action");
    if (!s.plane.empty() && static_cast<int>(s.plane.size()) != shape.channels) bad("does not map every plane");
    std::vector<Player> inverse;
    if (!s.player.empty()) {
      if (static_cast<int>(s.player.size()) != game.num_players()) bad("does not map every seat");
      inverse.assign(s.player.size(), kInvalidPlayer);
      for (std::size_t p = 0; p < s.player.size(); ++p) {
        const Player image = s.player[p];
        if (image < 0 || image >= game.num_players() || inverse[image] != kInvalidPlayer) bad("does not permute the seats");
        inverse[image] = static_cast<Player>(p);
      }
    }
    inverse_players_.push_back(std::move(inverse));
  }
}

ReplayBuffer::~ReplayBuffer() = default;

void ReplayBuffer::add(const SelfPlayGame& game) {
  std::shared_ptr<StoredGame> stored;
  try {
    stored = std::make_shared<StoredGame>(encode_game(*game_, game));
    check_and_snapshot(*game_, *stored, snapshot_every_, game.steps);
  } catch (const InputError& e) {
    throw InputError("replay: a self-play game of " + game_->to_string() + " is refused: " + e.what());
  }
  std::lock_guard lock(mutex_);
  ++games_added_;
  positions_added_ += stored->positions;
  push(std::move(stored));
}

void ReplayBuffer::push(std::shared_ptr<const StoredGame> g) {
  positions_ += g->positions;
  targets_ += static_cast<std::int64_t>(g->targets());
  snapshots_ += static_cast<std::int64_t>(g->snapshot.size());
  games_.push_back(std::move(g));
  while (games_.size() > 1 && positions_ - games_.front()->positions >= window_) {
    const StoredGame& old = *games_.front();
    positions_ -= old.positions;
    targets_ -= static_cast<std::int64_t>(old.targets());
    snapshots_ -= static_cast<std::int64_t>(old.snapshot.size());
    games_.pop_front();
  }
  prefix_stale_ = true;
}

std::int64_t ReplayBuffer::positions() const {
  std::lock_guard lock(mutex_);
  return positions_;
}
std::int64_t ReplayBuffer::targets() const {
  std::lock_guard lock(mutex_);
  return targets_;
}
std::int64_t ReplayBuffer::games() const {
  std::lock_guard lock(mutex_);
  return static_cast<std::int64_t>(games_.size());
}
std::int64_t ReplayBuffer::games_added() const {
  std::lock_guard lock(mutex_);
  return games_added_;
}
std::int64_t ReplayBuffer::positions_added() const {
  std::lock_guard lock(mutex_);
  return positions_added_;
}
std::int64_t ReplayBuffer::snapshots() const {
  std::lock_guard lock(mutex_);
  return snapshots_;
}

std::size_t ReplayBuffer::bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& g : games_) total += g->bytes(true);
  return total;
}

std::size_t ReplayBuffer::bytes_without_policy() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& g : games_) total += g->bytes(false);
  return total;
}

void ReplayBuffer::sample(int batch, Rng& rng, bool augment, TrainBatch& out) const {
  if (batch < 0) throw InputError("replay: cannot sample " + std::to_string(batch) + " examples");
  std::vector<Pick> picks(static_cast<std::size_t>(batch));
  {
    std::lock_guard lock(mutex_);
    if (targets_ == 0) throw InputError("replay: cannot sample from an empty buffer");
    if (prefix_stale_) {
      prefix_.assign(1, 0);
      for (const auto& g : games_) prefix_.push_back(prefix_.back() + static_cast<std::int64_t>(g->targets()));
      prefix_stale_ = false;
    }
    for (Pick& pick : picks) {
      const auto r = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(targets_));
      const auto g = static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), r) - prefix_.begin() - 1);
      pick.game = games_[g];
      pick.target = static_cast<std::size_t>(r - prefix_[g]);
    }
  }

  const ObservationShape shape = game_->observation_shape();
  const int actions = game_->num_distinct_actions();
  const int players = game_->num_players();
  const int cells = shape.cells();
  const GameType type = game_->type();
  const auto& symmetries = game_->symmetries();
  out.size = batch;
  out.obs.assign(static_cast<std::size_t>(batch) * shape.size(), 0.0f);
  out.policy.assign(static_cast<std::size_t>(batch) * actions, 0.0f);
  out.mask.assign(static_cast<std::size_t>(batch) * actions, 0.0f);
  out.value.assign(static_cast<std::size_t>(batch) * players, 0.0f);
  out.policy_weight.assign(static_cast<std::size_t>(batch), 0.0f);
  out.root_value.assign(static_cast<std::size_t>(batch) * players, 0.0f);
  out.phase.assign(static_cast<std::size_t>(batch), 0);
  const bool ownership = game_->has_ownership();
  const bool score = game_->max_score_margin() > 0;
  out.ownership.assign(ownership ? static_cast<std::size_t>(batch) * cells : 0, 0.0f);
  out.score.assign(score ? static_cast<std::size_t>(batch) : 0, 0.0f);
  // The other seat's root value follows from the mover's where the returns have a fixed sum.
  const bool other_seat_root = players == 2 && type.constant_sum();
  std::vector<float> obs(shape.size()), policy(actions), mask(actions);
  std::vector<Action> legal;
  std::vector<int> holding;
  for (int i = 0; i < batch; ++i) {
    const StoredGame& g = *picks[i].game;
    const std::size_t t = picks[i].target;
    const std::unique_ptr<State> state = g.state_at(*game_, g.target_ply(t));
    const Player player = g.target_player(t);
    state->observation(player, obs);
    std::fill(policy.begin(), policy.end(), 0.0f);
    std::fill(mask.begin(), mask.end(), 0.0f);
    float total = 0;
    for (std::uint32_t e = g.policy_offset[t]; e < g.policy_offset[t + 1]; ++e) total += g.policy_weight[e];
    for (std::uint32_t e = g.policy_offset[t]; e < g.policy_offset[t + 1]; ++e)
      policy[game_->action_to_view(player, static_cast<Action>(g.policy_action[e]))] =
          static_cast<float>(g.policy_weight[e]) / total;
    state->legal_actions(player, legal);
    for (Action a : legal) mask[game_->action_to_view(player, a)] = 1.0f;

    int choice = -1;  // the identity
    if (augment && !symmetries.empty()) {
      holding.clear();
      for (int s = 0; s < static_cast<int>(symmetries.size()); ++s)
        if (game_->symmetry_holds(*state, s)) holding.push_back(s);
      const auto k = static_cast<int>(rng.below(static_cast<std::uint32_t>(holding.size() + 1)));
      if (k > 0) choice = holding[k - 1];
    }
    float* obs_out = out.obs.data() + static_cast<std::size_t>(i) * shape.size();
    float* policy_out = out.policy.data() + static_cast<std::size_t>(i) * actions;
    float* mask_out = out.mask.data() + static_cast<std::size_t>(i) * actions;
    float* value_out = out.value.data() + static_cast<std::size_t>(i) * players;
    float* root_out = out.root_value.data() + static_cast<std::size_t>(i) * players;
    out.policy_weight[i] = total > 0 ? 1.0f : 0.0f;
    if (score) out.score[i] = g.score_margin[player];
    // Ownership is in the player's view and frame, so a symmetry moves its cells exactly
    // as it moves an observation plane's.
    const std::int8_t* owner = ownership ? g.ownership.data() + static_cast<std::size_t>(player) * cells : nullptr;
    float* owner_out = ownership ? out.ownership.data() + static_cast<std::size_t>(i) * cells : nullptr;
    out.phase[i] = static_cast<std::uint8_t>(game_phase(g.target_ply(t), static_cast<std::int64_t>(g.steps())));
    // Value slot 0 is the example's own seat under every symmetry, so its root value goes
    // there; the other slots keep the result unless the fixed sum gives them one.
    const auto fill_root = [&] {
      std::copy(value_out, value_out + players, root_out);
      if (g.root_value[t] == StoredGame::kNoRootValue) return;
      root_out[0] = static_cast<float>(g.root_value[t]) / StoredGame::kRootValueScale;
      if (other_seat_root)
        root_out[1] = value_target(type, type.return_sum - value_from_network(type, root_out[0]));
    };
    if (choice < 0) {
      std::copy(obs.begin(), obs.end(), obs_out);
      std::copy(policy.begin(), policy.end(), policy_out);
      std::copy(mask.begin(), mask.end(), mask_out);
      for (int j = 0; j < players; ++j) value_out[j] = value_target(type, g.returns[(player + j) % players]);
      fill_root();
      if (ownership) std::copy(owner, owner + cells, owner_out);
      continue;
    }
    // The example becomes the image position seen by the image of its player. Symmetries
    // act on the viewer's frame (they commute with every view transform), so cells,
    // planes and actions map directly.
    const Symmetry& sym = symmetries[choice];
    for (int c = 0; c < shape.channels; ++c) {
      const int image = sym.map_plane(c);
      for (int cell = 0; cell < cells; ++cell) obs_out[image * cells + sym.cell[cell]] = obs[c * cells + cell];
    }
    if (ownership)
      for (int cell = 0; cell < cells; ++cell) owner_out[sym.cell[cell]] = owner[cell];
    for (int a = 0; a < actions; ++a) {
      policy_out[sym.action[a]] = policy[a];
      mask_out[sym.action[a]] = mask[a];
    }
    // In the image game seat σ(q) plays q's part and gets q's return, and the viewer is
    // σ(player): value[j] is the return of image seat σ(player) + j, which is the return
    // of seat σ⁻¹(σ(player) + j) here. A rotation of the seats leaves the vector as it is;
    // a reflection reverses the order of the other seats; two seats do not notice.
    const std::vector<Player>& inverse = inverse_players_[choice];
    const Player viewer = sym.map_player(player);
    for (int j = 0; j < players; ++j) {
      const int image_seat = (viewer + j) % players;
      const int seat = inverse.empty() ? image_seat : inverse[image_seat];
      value_out[j] = value_target(type, g.returns[seat]);
    }
    fill_root();
  }
}

void ReplayBuffer::save(const std::string& path) const { write_file_atomically(path, serialize()); }

std::string ReplayBuffer::serialize() const {
  ByteWriter w;
  w.put_bytes(kMagic, sizeof kMagic);
  const std::string name = game_->to_string();
  w.put(static_cast<std::uint32_t>(name.size()));
  w.put_bytes(name.data(), name.size());
  const ReplayLayout layout = ReplayLayout::of(*game_);
  w.put(static_cast<std::uint8_t>(layout.wide_actions));
  w.put(static_cast<std::uint8_t>(layout.wide_targets));
  std::lock_guard lock(mutex_);
  w.put(games_added_);
  w.put(positions_added_);
  w.put(static_cast<std::uint64_t>(games_.size()));
  for (const auto& game : games_) put_stored_game(w, *game);
  w.put_bytes(kEnd, sizeof kEnd);
  return w.bytes();
}

// No bound: a replay is as large as its window, which the config leaves open.
void ReplayBuffer::load(const std::string& path) { load_from(read_file(path, kNoSizeBound, "replay file"), path); }

void ReplayBuffer::load_from(const std::string& bytes, const std::string& path) {
  ByteReader r(bytes, "replay file '" + path + "'");
  char magic[sizeof kMagic];
  r.take(magic, sizeof magic, "the header");
  if (std::memcmp(magic, kOldMagic, sizeof kOldMagic) == 0)
    throw InputError("replay file '" + path +
                     "' is in the old format (BLRPLAY1: players' actions only, one policy per position), which this "
                     "version no longer reads; it reads BLRPLAY2 and BLRPLAY3. Move the file away to start the replay afresh");
  const bool version2 = std::memcmp(magic, kMagic2, sizeof kMagic2) == 0;
  if (!version2 && std::memcmp(magic, kMagic, sizeof kMagic) != 0) r.fail("not a boardlab replay file");
  const auto name_size = r.get<std::uint32_t>("the game name");
  if (name_size > 4096) r.fail("implausible game name length");
  std::string name(name_size, '\0');
  r.take(name.data(), name_size, "the game name");
  if (name != game_->to_string())
    throw InputError("replay file '" + path + "' holds games of " + name + ", not " + game_->to_string());
  const ReplayLayout layout = ReplayLayout::of(*game_);
  const auto wide_actions = r.get<std::uint8_t>("the layout");
  const auto wide_targets = r.get<std::uint8_t>("the layout");
  if (wide_actions != layout.wide_actions || wide_targets != layout.wide_targets)
    r.fail("its column widths do not match " + game_->to_string() + "'s");
  const auto games_added = r.get<std::int64_t>("the counters");
  const auto positions_added = r.get<std::int64_t>("the counters");
  const auto count = r.get<std::uint64_t>("the game count");
  std::vector<std::shared_ptr<const StoredGame>> loaded;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string where = "game " + std::to_string(i + 1);
    auto g = std::make_shared<StoredGame>(get_stored_game(r, *game_, !version2, where));
    // Replaying proves every step legal and every target sound, so sampling can never
    // meet a bad one; it also rebuilds the snapshots.
    try {
      check_and_snapshot(*game_, *g, snapshot_every_);
    } catch (const InputError& e) {
      r.fail(where + " does not replay: " + e.what());
    }
    loaded.push_back(std::move(g));
  }
  char end[sizeof kEnd];
  r.take(end, sizeof end, "the end marker");
  if (std::memcmp(end, kEnd, sizeof kEnd) != 0 || !r.at_end()) r.fail("bad end marker");

  std::lock_guard lock(mutex_);
  games_.clear();
  positions_ = targets_ = snapshots_ = 0;
  for (auto& g : loaded) push(std::move(g));
  games_added_ = games_added;
  positions_added_ = positions_added;
}

}  // namespace boardlab
