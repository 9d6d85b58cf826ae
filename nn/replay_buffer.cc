// The window of stored games, sampling training examples from it, and its file format.
#include "nn/replay_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/errors.h"
#include "files/atomic_file.h"
#include "files/read_file.h"
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

// What sizes a batch of the game's examples, read from the game once per batch.
struct BatchShape {
  explicit BatchShape(const Game& game)
      : type(game.type()),
        observation(game.observation_shape()),
        cells(observation.cells()),
        actions(game.num_distinct_actions()),
        players(game.num_players()),
        ownership(game.traits().has_ownership),
        score(game.traits().max_score_margin > 0) {}
  GameType type;
  ObservationShape observation;
  int cells, actions, players;
  bool ownership, score;
};

// Every array of `out` sized for `batch` examples and zeroed.
void size_batch(const BatchShape& shape, int batch, TrainBatch& out) {
  const auto n = static_cast<std::size_t>(batch);
  const auto actions = static_cast<std::size_t>(shape.actions), players = static_cast<std::size_t>(shape.players);
  out.size = batch;
  out.obs.assign(n * shape.observation.size(), 0.0f);
  out.policy.assign(n * actions, 0.0f);
  out.mask.assign(n * actions, 0.0f);
  out.value.assign(n * players, 0.0f);
  out.policy_weight.assign(n, 0.0f);
  out.root_value.assign(n * players, 0.0f);
  out.phase.assign(n, 0);
  out.ownership.assign(shape.ownership ? n * static_cast<std::size_t>(shape.cells) : 0, 0.0f);
  out.score.assign(shape.score ? n : 0, 0.0f);
}

// One example as stored, in its player's view: the input, and the policy and the legal
// mask over the actions of that view. Its buffers are reused from one example to the next.
struct ExampleView {
  explicit ExampleView(const BatchShape& shape)
      : obs(shape.observation.size()),
        policy(shape.actions),
        mask(shape.actions),
        seat_of_slot(static_cast<std::size_t>(shape.players)),
        standing(static_cast<std::size_t>(shape.players)) {}

  void read(const Game& game, const StoredGame& g, std::size_t t, const State& state) {
    player = g.target_player(t);
    state.observation(player, obs);
    std::fill(policy.begin(), policy.end(), 0.0f);
    std::fill(mask.begin(), mask.end(), 0.0f);
    total = 0;
    for (std::uint32_t e = g.policy_offset[t]; e < g.policy_offset[t + 1]; ++e) total += g.policy_weight[e];
    for (std::uint32_t e = g.policy_offset[t]; e < g.policy_offset[t + 1]; ++e)
      policy[game.action_to_view(player, static_cast<Action>(g.policy_action[e]))] =
          static_cast<float>(g.policy_weight[e]) / total;
    state.legal_actions(player, legal);
    for (Action a : legal) mask[game.action_to_view(player, a)] = 1.0f;
  }

  // A symmetry that holds at the state, or the identity (-1), each as likely.
  int draw_symmetry(const Game& game, const State& state, Rng& rng) {
    if (game.symmetries().empty()) return -1;
    holding.clear();
    for (int s = 0; s < static_cast<int>(game.symmetries().size()); ++s)
      if (game.symmetry_holds(state, s)) holding.push_back(s);
    const auto k = static_cast<int>(rng.below(static_cast<std::uint32_t>(holding.size() + 1)));
    return k > 0 ? holding[k - 1] : -1;
  }

  Player player = 0;
  std::vector<float> obs, policy, mask;
  std::vector<Player> seat_of_slot;  // the seat whose return value slot j holds
  std::vector<double> standing;      // the position's standing returns, by seat
  float total = 0;  // the stored policy's weight: 0 for a move searched with a fast budget
  std::vector<Action> legal;
  std::vector<int> holding;
};

// Where example i goes in a batch sized by size_batch.
struct ExampleSlots {
  ExampleSlots(TrainBatch& out, const BatchShape& shape, int i) {
    const auto n = static_cast<std::size_t>(i);
    const auto actions = static_cast<std::size_t>(shape.actions), players = static_cast<std::size_t>(shape.players);
    obs = out.obs.data() + n * shape.observation.size();
    policy = out.policy.data() + n * actions;
    mask = out.mask.data() + n * actions;
    value = out.value.data() + n * players;
    root = out.root_value.data() + n * players;
    owner = out.ownership.empty() ? nullptr : out.ownership.data() + n * static_cast<std::size_t>(shape.cells);
  }
  float *obs, *policy, *mask, *value, *root, *owner;
};

// The player's ownership targets: in its view and frame, so a symmetry moves their cells
// exactly as it moves an observation plane's.
const std::int8_t* stored_owner(const BatchShape& shape, const StoredGame& g, Player player) {
  return g.ownership.empty() ? nullptr : g.ownership.data() + static_cast<std::size_t>(player) * shape.cells;
}

void write_as_seen(const BatchShape& shape, const StoredGame& g, ExampleView& view, const ExampleSlots& slots) {
  const int players = shape.players;
  std::copy(view.obs.begin(), view.obs.end(), slots.obs);
  std::copy(view.policy.begin(), view.policy.end(), slots.policy);
  std::copy(view.mask.begin(), view.mask.end(), slots.mask);
  for (int j = 0; j < players; ++j) {
    view.seat_of_slot[j] = (view.player + j) % players;
    slots.value[j] = value_target(shape.type, g.returns[view.seat_of_slot[j]]);
  }
  if (slots.owner) {
    const std::int8_t* owner = stored_owner(shape, g, view.player);
    std::copy(owner, owner + shape.cells, slots.owner);
  }
}

// The example becomes the image position seen by the image of its player. Symmetries act
// on the viewer's frame (they commute with every view transform), so cells, planes and
// actions map directly. `inverse`: the inverse of the symmetry's seat permutation (empty:
// the seats stay).
void write_image(const BatchShape& shape, const StoredGame& g, ExampleView& view, const Symmetry& sym,
                 const std::vector<Player>& inverse, const ExampleSlots& slots) {
  const int cells = shape.cells, actions = shape.actions, players = shape.players;
  for (int c = 0; c < shape.observation.channels; ++c) {
    const int image = sym.map_plane(c);
    for (int cell = 0; cell < cells; ++cell) slots.obs[image * cells + sym.cell[cell]] = view.obs[c * cells + cell];
  }
  if (slots.owner) {
    const std::int8_t* owner = stored_owner(shape, g, view.player);
    for (int cell = 0; cell < cells; ++cell) slots.owner[sym.cell[cell]] = owner[cell];
  }
  for (int a = 0; a < actions; ++a) {
    slots.policy[sym.action[a]] = view.policy[a];
    slots.mask[sym.action[a]] = view.mask[a];
  }
  // In the image game seat σ(q) plays q's part and gets q's return, and the viewer is
  // σ(player): value[j] is the return of image seat σ(player) + j, which is the return
  // of seat σ⁻¹(σ(player) + j) here. A rotation of the seats leaves the vector as it is;
  // a reflection reverses the order of the other seats; two seats do not notice.
  const Player viewer = sym.map_player(view.player);
  for (int j = 0; j < players; ++j) {
    const int image_seat = (viewer + j) % players;
    const int seat = inverse.empty() ? image_seat : inverse[image_seat];
    view.seat_of_slot[j] = seat;
    slots.value[j] = value_target(shape.type, g.returns[seat]);
  }
}

// Value slot 0 is the example's own seat under every symmetry, so its root value goes
// there; the other slots keep the result, unless the returns have a fixed sum and two
// seats, which gives the other seat's from the mover's.
void fill_root_value(const BatchShape& shape, const StoredGame& g, std::size_t t, const ExampleSlots& slots) {
  const int players = shape.players;
  const GameType& type = shape.type;
  std::copy(slots.value, slots.value + players, slots.root);
  if (g.root_value[t] == StoredGame::kNoRootValue) return;
  slots.root[0] = static_cast<float>(g.root_value[t]) / StoredGame::kRootValueScale;
  if (players == 2 && type.constant_sum())
    slots.root[1] = value_target(type, type.return_sum - value_from_network(type, slots.root[0]));
}

// A network with NetworkConfig::standings_baseline learns each seat's value less its
// standing return at the position (nn/train_batch.h's standing_shift), the search's root
// value as the result.
void shift_by_standings(const BatchShape& shape, const State& state, ExampleView& view, const ExampleSlots& slots) {
  state.standing_returns(view.standing);
  for (int j = 0; j < shape.players; ++j) {
    const float shift = standing_shift(shape.type, view.standing[view.seat_of_slot[j]]);
    slots.value[j] = std::clamp(slots.value[j] - shift, -1.0f, 1.0f);
    slots.root[j] = std::clamp(slots.root[j] - shift, -1.0f, 1.0f);
  }
}

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

void ReplayBuffer::sample(int batch, Rng& rng, bool augment, TrainBatch& out, bool standings) const {
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
  const BatchShape shape(*game_);
  size_batch(shape, batch, out);
  ExampleView view(shape);
  const bool shifted = standings && game_->traits().has_standings;
  for (int i = 0; i < batch; ++i) {
    const StoredGame& g = *picks[i].game;
    const std::size_t t = picks[i].target;
    const std::unique_ptr<State> state = g.state_at(*game_, g.target_ply(t));
    view.read(*game_, g, t, *state);
    const int choice = augment ? view.draw_symmetry(*game_, *state, rng) : -1;
    const ExampleSlots slots(out, shape, i);
    out.policy_weight[i] = view.total > 0 ? 1.0f : 0.0f;
    if (!out.score.empty()) out.score[i] = g.score_margin[view.player];
    out.phase[i] = static_cast<std::uint8_t>(game_phase(g.target_ply(t), static_cast<std::int64_t>(g.steps())));
    if (choice < 0) write_as_seen(shape, g, view, slots);
    else write_image(shape, g, view, game_->symmetries()[choice], inverse_players_[choice], slots);
    fill_root_value(shape, g, t, slots);
    if (shifted) shift_by_standings(shape, *state, view, slots);
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
