// Storing self-play games compactly, sampling training batches from them, and their file format.
#include "nn/replay_buffer.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/atomic_file.h"
#include "core/errors.h"

namespace boardlab {
namespace {

constexpr char kMagic[8] = {'B', 'L', 'R', 'P', 'L', 'A', 'Y', '1'};
constexpr char kEnd[4] = {'E', 'N', 'D', '!'};

class Writer {
 public:
  template <typename T>
  void put(const T& value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <typename T>
  void put_vector(const std::vector<T>& values) {
    out_.append(reinterpret_cast<const char*>(values.data()), sizeof(T) * values.size());
  }
  void put_bytes(const char* data, std::size_t n) { out_.append(data, n); }
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const std::string& bytes, const std::string& path) : bytes_(bytes), path_(path) {}
  template <typename T>
  T get(const char* what) {
    T value;
    take(&value, sizeof value, what);
    return value;
  }
  template <typename T>
  void get_vector(std::vector<T>& values, std::size_t n, const char* what) {
    if (n > (bytes_.size() - pos_) / sizeof(T)) fail(std::string("truncated in ") + what);
    values.resize(n);
    take(values.data(), sizeof(T) * n, what);
  }
  void take(void* out, std::size_t n, const std::string& what) {
    if (bytes_.size() - pos_ < n) fail("truncated in " + what);
    std::memcpy(out, bytes_.data() + pos_, n);
    pos_ += n;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("replay file '" + path_ + "' is corrupt: " + why + " (at byte " + std::to_string(pos_) + ")");
  }
  bool at_end() const { return pos_ == bytes_.size(); }

 private:
  const std::string& bytes_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

}  // namespace

ReplayBuffer::ReplayBuffer(const Game& game, std::int64_t window) : game_(&game), window_(window) {
  if (window < 1) throw InputError("replay window must be at least 1 position, got " + std::to_string(window));
  if (game.num_distinct_actions() > 65535) throw InputError("replay: more than 65535 actions do not fit 16 bits");
}

void ReplayBuffer::add(const SelfPlayGame& game) {
  StoredGame g;
  g.actions.assign(game.actions.begin(), game.actions.end());
  g.returns.assign(game.returns.begin(), game.returns.end());
  g.policy_offset.push_back(0);
  for (const auto& pos : game.positions) {
    g.ply.push_back(static_cast<std::uint16_t>(pos.ply));
    float total = 0;
    for (float p : pos.policy) total += std::max(p, 0.0f);
    for (std::size_t k = 0; k < pos.legal.size(); ++k) {
      const float p = total > 0 ? std::max(pos.policy[k], 0.0f) / total : 0.0f;
      const auto weight = static_cast<std::uint16_t>(std::lround(p * 65535.0f));
      if (weight == 0) continue;  // sparse: actions the search gave (almost) nothing
      g.policy_action.push_back(static_cast<std::uint16_t>(pos.legal[k]));
      g.policy_weight.push_back(weight);
    }
    g.policy_offset.push_back(static_cast<std::uint32_t>(g.policy_action.size()));
  }
  std::lock_guard lock(mutex_);
  ++games_added_;
  positions_added_ += static_cast<std::int64_t>(game.positions.size());
  push(std::move(g));
}

void ReplayBuffer::push(StoredGame&& g) {
  positions_ += static_cast<std::int64_t>(g.ply.size());
  games_.push_back(std::move(g));
  while (games_.size() > 1 && positions_ - static_cast<std::int64_t>(games_.front().ply.size()) >= window_) {
    positions_ -= static_cast<std::int64_t>(games_.front().ply.size());
    games_.pop_front();
  }
  prefix_stale_ = true;
}

std::int64_t ReplayBuffer::positions() const {
  std::lock_guard lock(mutex_);
  return positions_;
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

std::size_t ReplayBuffer::game_bytes(const StoredGame& g, bool with_policy) {
  std::size_t bytes = g.actions.size() * 2 + g.returns.size() * 4 + g.ply.size() * 2;
  if (with_policy) bytes += g.policy_offset.size() * 4 + g.policy_action.size() * 4;
  return bytes;
}

std::size_t ReplayBuffer::bytes() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& g : games_) total += game_bytes(g, true);
  return total;
}

std::size_t ReplayBuffer::bytes_without_policy() const {
  std::lock_guard lock(mutex_);
  std::size_t total = 0;
  for (const auto& g : games_) total += game_bytes(g, false);
  return total;
}

void ReplayBuffer::sample(int batch, Rng& rng, bool augment, TrainBatch& out) const {
  std::lock_guard lock(mutex_);
  if (positions_ == 0) throw InputError("replay: cannot sample from an empty buffer");
  if (prefix_stale_) {
    prefix_.assign(1, 0);
    for (const auto& g : games_) prefix_.push_back(prefix_.back() + static_cast<std::int64_t>(g.ply.size()));
    prefix_stale_ = false;
  }
  const ObservationShape shape = game_->observation_shape();
  const int actions = game_->num_distinct_actions();
  const int players = game_->num_players();
  const auto& symmetries = game_->symmetries();
  out.size = batch;
  out.obs.assign(static_cast<std::size_t>(batch) * shape.size(), 0.0f);
  out.policy.assign(static_cast<std::size_t>(batch) * actions, 0.0f);
  out.mask.assign(static_cast<std::size_t>(batch) * actions, 0.0f);
  out.value.assign(static_cast<std::size_t>(batch) * players, 0.0f);
  std::vector<float> obs(shape.size()), policy(actions), mask(actions);
  std::vector<Action> legal;
  for (int i = 0; i < batch; ++i) {
    const auto r = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(positions_));
    const auto game_index = static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), r) - prefix_.begin() - 1);
    const StoredGame& g = games_[game_index];
    const auto p = static_cast<std::size_t>(r - prefix_[game_index]);
    std::unique_ptr<State> state = game_->new_initial_state();
    for (int k = 0; k < g.ply[p]; ++k) state->apply(g.actions[k]);
    const Player mover = state->current_player();
    state->observation(mover, obs);
    std::fill(policy.begin(), policy.end(), 0.0f);
    std::fill(mask.begin(), mask.end(), 0.0f);
    float total = 0;
    for (std::uint32_t e = g.policy_offset[p]; e < g.policy_offset[p + 1]; ++e) total += g.policy_weight[e];
    for (std::uint32_t e = g.policy_offset[p]; e < g.policy_offset[p + 1]; ++e)
      policy[game_->action_to_view(mover, g.policy_action[e])] = static_cast<float>(g.policy_weight[e]) / total;
    state->legal_actions(legal);
    for (Action a : legal) mask[game_->action_to_view(mover, a)] = 1.0f;

    const int choice = augment ? static_cast<int>(rng.below(static_cast<std::uint32_t>(symmetries.size() + 1))) : 0;
    float* obs_out = out.obs.data() + static_cast<std::size_t>(i) * shape.size();
    float* policy_out = out.policy.data() + static_cast<std::size_t>(i) * actions;
    float* mask_out = out.mask.data() + static_cast<std::size_t>(i) * actions;
    if (choice == 0) {
      std::copy(obs.begin(), obs.end(), obs_out);
      std::copy(policy.begin(), policy.end(), policy_out);
      std::copy(mask.begin(), mask.end(), mask_out);
    } else {
      // Symmetries act on the viewer's frame too (they commute with every view transform).
      const Symmetry& sym = symmetries[choice - 1];
      const int cells = shape.cells();
      for (int c = 0; c < shape.channels; ++c)
        for (int cell = 0; cell < cells; ++cell) obs_out[c * cells + sym.cell[cell]] = obs[c * cells + cell];
      for (int a = 0; a < actions; ++a) {
        policy_out[sym.action[a]] = policy[a];
        mask_out[sym.action[a]] = mask[a];
      }
    }
    for (int j = 0; j < players; ++j)
      out.value[static_cast<std::size_t>(i) * players + j] = g.returns[(mover + j) % players];
  }
}

void ReplayBuffer::save(const std::string& path) const {
  Writer w;
  w.put_bytes(kMagic, sizeof kMagic);
  const std::string name = game_->to_string();
  w.put(static_cast<std::uint32_t>(name.size()));
  w.put_bytes(name.data(), name.size());
  std::lock_guard lock(mutex_);
  w.put(games_added_);
  w.put(positions_added_);
  w.put(static_cast<std::uint64_t>(games_.size()));
  for (const auto& g : games_) {
    w.put(static_cast<std::uint32_t>(g.actions.size()));
    w.put_vector(g.actions);
    w.put(static_cast<std::uint32_t>(g.returns.size()));
    w.put_vector(g.returns);
    w.put(static_cast<std::uint32_t>(g.ply.size()));
    w.put_vector(g.ply);
    w.put_vector(g.policy_offset);
    w.put_vector(g.policy_action);
    w.put_vector(g.policy_weight);
  }
  w.put_bytes(kEnd, sizeof kEnd);
  write_file_atomically(path, w.bytes());
}

void ReplayBuffer::load(const std::string& path) {
  const std::string bytes = read_file(path);
  Reader r(bytes, path);
  char magic[sizeof kMagic];
  r.take(magic, sizeof magic, "the header");
  if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) r.fail("not a boardlab replay file");
  const auto name_size = r.get<std::uint32_t>("the game name");
  if (name_size > 4096) r.fail("implausible game name length");
  std::string name(name_size, '\0');
  r.take(name.data(), name_size, "the game name");
  if (name != game_->to_string())
    throw InputError("replay file '" + path + "' holds games of " + name + ", not " + game_->to_string());
  const auto games_added = r.get<std::int64_t>("the counters");
  const auto positions_added = r.get<std::int64_t>("the counters");
  const auto count = r.get<std::uint64_t>("the game count");
  std::deque<StoredGame> loaded;
  const int players = game_->num_players();
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::string where = "game " + std::to_string(i + 1);
    StoredGame g;
    r.get_vector(g.actions, r.get<std::uint32_t>(where.c_str()), where.c_str());
    r.get_vector(g.returns, r.get<std::uint32_t>(where.c_str()), where.c_str());
    const auto positions = r.get<std::uint32_t>(where.c_str());
    r.get_vector(g.ply, positions, where.c_str());
    r.get_vector(g.policy_offset, positions + std::size_t{1}, where.c_str());
    const std::uint32_t entries = g.policy_offset.back();
    r.get_vector(g.policy_action, entries, where.c_str());
    r.get_vector(g.policy_weight, entries, where.c_str());
    if (static_cast<int>(g.returns.size()) != players) r.fail(where + " has returns for the wrong number of players");
    if (!std::is_sorted(g.policy_offset.begin(), g.policy_offset.end()) || g.policy_offset.front() != 0)
      r.fail(where + " has policy offsets out of order");
    for (std::uint16_t ply : g.ply)
      if (ply > g.actions.size()) r.fail(where + " has a position beyond its last action");
    for (std::uint16_t a : g.policy_action)
      if (a >= game_->num_distinct_actions()) r.fail(where + " has a policy action out of range");
    // Replaying proves every action legal, so sampling can never meet a bad one.
    std::unique_ptr<State> state = game_->new_initial_state();
    try {
      for (std::uint16_t a : g.actions) state->apply(a);
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
  positions_ = 0;
  for (auto& g : loaded) push(std::move(g));
  games_added_ = games_added;
  positions_added_ = positions_added;
}

}  // namespace boardlab
