// Shared helpers for the LibTorch-layer tests: Virus War games, small networks, temporary folders.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/rng.h"
#include "games/registry.h"
#include "mcts/evaluator.h"
#include "nn/model.h"
#include "nn/network_config.h"
#include "nn/replay_buffer.h"
#include "nn/trainer.h"

namespace boardlab::nn_testing {

inline const Game& virus_war() {
  static const std::shared_ptr<const Game> game = load_game("virus_war");
  return *game;
}

inline NetworkConfig tiny_network(int blocks = 1, int channels = 8) {
  NetworkConfig config;
  config.blocks = blocks;
  config.channels = channels;
  config.policy_channels = 2;
  config.value_hidden = 16;
  return config;
}

// A peaked random policy over `size` actions (most mass on one of them), so that a
// network can fit it: a flat target's cross-entropy cannot fall much below its start.
inline std::vector<float> peaked_policy(std::size_t size, Rng& rng) {
  std::vector<float> policy(size);
  for (float& p : policy) p = 0.02f * static_cast<float>(rng.uniform());
  policy[rng.below(static_cast<std::uint32_t>(size))] += 1.0f;
  return policy;
}

// One random game recorded as self-play would record it, at every kind of node: chance
// drawn with its probabilities (a step without a position), a position with one target
// for the mover where it has a choice, and at a simultaneous round a position with one
// target per seat that has a choice. Forced steps have no position.
inline SelfPlayGame random_selfplay_game(const Game& game, Rng& rng) {
  SelfPlayGame record;
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> legal, joint;
  while (!state->is_terminal()) {
    const Player actor = state->current_player();
    const int ply = static_cast<int>(record.steps.size());
    if (actor == kChancePlayer) {
      const Action outcome = state->random_legal_action(rng);
      record.steps.push_back({actor, outcome});
      state->apply(outcome);
    } else if (actor == kSimultaneousPlayer) {
      SelfPlayGame::Position position{ply, {}};
      joint.assign(static_cast<std::size_t>(game.num_players()), kInvalidAction);
      for (Player p = 0; p < game.num_players(); ++p) {
        state->legal_actions(p, legal);
        if (legal.size() > 1) position.targets.push_back({p, legal, peaked_policy(legal.size(), rng)});
        joint[static_cast<std::size_t>(p)] = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
        record.steps.push_back({p, joint[static_cast<std::size_t>(p)]});
      }
      if (!position.targets.empty()) record.positions.push_back(std::move(position));
      state->apply_joint(joint);
    } else {
      state->legal_actions(actor, legal);
      if (legal.size() > 1) record.positions.push_back({ply, {{actor, legal, peaked_policy(legal.size(), rng)}}});
      const Action action = legal[rng.below(static_cast<std::uint32_t>(legal.size()))];
      record.steps.push_back({actor, action});
      state->apply(action);
    }
  }
  record.returns = state->returns();
  record.truncated = state->is_truncated();
  return record;
}

// Random non-terminal positions (and their legal actions) for inference comparisons.
struct Positions {
  std::vector<std::unique_ptr<State>> states;
  std::vector<std::vector<Action>> legal;

  std::vector<EvalRequest> requests(std::size_t begin, std::size_t end) const {
    std::vector<EvalRequest> out;
    for (std::size_t i = begin; i < end; ++i) out.push_back({states[i].get(), states[i]->current_player(), legal[i]});
    return out;
  }
  std::vector<float> observations(const Game& game) const {
    const auto size = static_cast<std::size_t>(game.observation_shape().size());
    std::vector<float> obs(states.size() * size);
    for (std::size_t i = 0; i < states.size(); ++i)
      states[i]->observation(states[i]->current_player(), std::span<float>(obs.data() + i * size, size));
    return obs;
  }
};

inline Positions random_positions(const Game& game, int count, std::uint64_t seed) {
  Positions out;
  Rng rng(seed);
  std::vector<Action> legal;
  while (static_cast<int>(out.states.size()) < count) {
    std::unique_ptr<State> state = game.new_initial_state();
    const int plies = static_cast<int>(rng.below(60));
    for (int k = 0; k < plies && !state->is_terminal(); ++k) {
      state->legal_actions(legal);
      state->apply(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]);
    }
    if (state->is_terminal()) continue;
    state->legal_actions(legal);
    out.legal.push_back(legal);
    out.states.push_back(std::move(state));
  }
  return out;
}

// Raw network outputs for `obs` (batch positions), logits then values, for exact comparisons.
inline std::vector<float> predict_all(const Model& model, const std::vector<float>& obs, int batch) {
  std::vector<float> out(static_cast<std::size_t>(batch) * (model.num_actions() + model.num_players()));
  model.predict(obs.data(), batch, out.data(), out.data() + static_cast<std::size_t>(batch) * model.num_actions());
  return out;
}

// A fresh folder under the system's temporary directory, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "boardlab_nn_test_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A full disk without filling one: while alive, no file this process writes may grow past
// `bytes` (RLIMIT_FSIZE), and a write past it fails with EFBIG ("File too large") instead of
// raising SIGXFSZ, just as a full disk fails a write with ENOSPC.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    if (::getrlimit(RLIMIT_FSIZE, &saved_) != 0) throw std::runtime_error("getrlimit failed");
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) throw std::runtime_error("setrlimit failed");
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  rlimit saved_{};
  sighandler_t old_handler_ = SIG_DFL;
};

// The files under `dir` whose names temporary_path_for makes: what a failed or killed writer left.
inline std::vector<std::string> temporary_files(const std::filesystem::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir))
    if (entry.path().filename().string().find(".tmp.") != std::string::npos) found.push_back(entry.path().string());
  return found;
}

inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(float) * a.size()) == 0;
}

// The largest relative difference between two networks' Model::weights(), read as floats
// word by word; equal words (the batch norms' 64-bit step counters among them) count as 0.
inline double largest_weight_difference(const std::string& a, const std::string& b) {
  EXPECT_EQ(a.size(), b.size());
  double out = 0;
  for (std::size_t i = 0; i + 4 <= std::min(a.size(), b.size()); i += 4) {
    if (std::memcmp(a.data() + i, b.data() + i, 4) == 0) continue;
    float x, y;
    std::memcpy(&x, a.data() + i, 4);
    std::memcpy(&y, b.data() + i, 4);
    out = std::max(out, static_cast<double>(std::fabs(x - y)) / (1e-3 + std::fabs(y)));
  }
  return out;
}

}  // namespace boardlab::nn_testing
