// Tests for the replay buffer: positions rebuilt by replay, the sliding window, the file format and its errors.
#include "nn/replay_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::error_of;
using nn_testing::random_selfplay_game;
using nn_testing::TempDir;
using nn_testing::virus_war;

// Random games whose returns name the game ({i + 0.5, -(i + 0.5)}), so a sampled value target tells its game.
std::vector<SelfPlayGame> labelled_games(int count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<SelfPlayGame> games;
  for (int i = 0; i < count; ++i) {
    games.push_back(random_selfplay_game(virus_war(), rng));
    games.back().returns = {i + 0.5, -(i + 0.5)};
  }
  return games;
}

TEST(ReplayBuffer, SamplesRebuildTheStoredPositionsInTheMoversView) {
  const Game& game = virus_war();
  Rng rng(3);
  const SelfPlayGame record = random_selfplay_game(game, rng);
  ReplayBuffer replay(game, 100000);
  replay.add(record);
  ASSERT_EQ(replay.positions(), static_cast<std::int64_t>(record.positions.size()));

  // Every searched position's observation, legal mask and policy, computed here by replaying.
  const ObservationShape shape = game.observation_shape();
  const int actions = game.num_distinct_actions();
  struct Expected {
    std::vector<float> obs, policy, mask;
    Player mover;
  };
  std::vector<Expected> expected;
  std::unique_ptr<State> state = game.new_initial_state();
  std::size_t next = 0;
  for (std::size_t ply = 0; ply <= record.actions.size() && next < record.positions.size(); ++ply) {
    if (record.positions[next].ply == static_cast<int>(ply)) {
      const auto& pos = record.positions[next++];
      Expected e{std::vector<float>(shape.size()), std::vector<float>(actions), std::vector<float>(actions),
                 state->current_player()};
      state->observation(e.mover, e.obs);
      float total = 0;
      for (float p : pos.policy) total += p;
      for (std::size_t k = 0; k < pos.legal.size(); ++k) {
        e.policy[game.action_to_view(e.mover, pos.legal[k])] = pos.policy[k] / total;
        e.mask[game.action_to_view(e.mover, pos.legal[k])] = 1;
      }
      expected.push_back(std::move(e));
    }
    if (ply < record.actions.size()) state->apply(record.actions[ply]);
  }
  ASSERT_EQ(expected.size(), record.positions.size());

  TrainBatch batch;
  replay.sample(200, rng, /*augment=*/false, batch);
  ASSERT_EQ(batch.size, 200);
  std::set<std::size_t> seen;
  for (int i = 0; i < batch.size; ++i) {
    const auto row = [&](const std::vector<float>& v, int width) {
      return std::vector<float>(v.begin() + static_cast<std::ptrdiff_t>(i) * width, v.begin() + static_cast<std::ptrdiff_t>(i + 1) * width);
    };
    const std::vector<float> obs = row(batch.obs, shape.size());
    const std::vector<float> policy = row(batch.policy, actions);
    const std::vector<float> mask = row(batch.mask, actions);
    // The position is found by its policy: each draws its peak on a random action (and the
    // observation alone can repeat across plies of the same turn only if the board did too).
    std::size_t match = expected.size();
    for (std::size_t k = 0; k < expected.size(); ++k) {
      if (expected[k].obs != obs || expected[k].mask != mask) continue;
      bool close = true;
      for (int a = 0; a < actions && close; ++a) close = std::fabs(expected[k].policy[a] - policy[a]) < 2e-4f;
      if (close) match = k;
    }
    ASSERT_LT(match, expected.size()) << "sample " << i << " is none of the stored positions";
    seen.insert(match);
    // Value targets are the returns seen from the mover: seat 0 is the mover.
    const Player mover = expected[match].mover;
    EXPECT_FLOAT_EQ(batch.value[2 * i], static_cast<float>(record.returns[mover]));
    EXPECT_FLOAT_EQ(batch.value[2 * i + 1], static_cast<float>(record.returns[1 - mover]));
  }
  EXPECT_GT(seen.size(), 1u);
}

TEST(ReplayBuffer, AugmentedSamplesKeepPolicyInsideTheLegalMask) {
  const Game& game = virus_war();
  ReplayBuffer replay(game, 100000);
  for (const auto& g : labelled_games(5, 8)) replay.add(g);
  Rng rng(1);
  TrainBatch batch;
  replay.sample(300, rng, /*augment=*/true, batch);
  const int actions = game.num_distinct_actions();
  for (int i = 0; i < batch.size; ++i) {
    double total = 0;
    for (int a = 0; a < actions; ++a) {
      const float p = batch.policy[static_cast<std::size_t>(i) * actions + a];
      total += p;
      if (p > 0) {
        EXPECT_EQ(batch.mask[static_cast<std::size_t>(i) * actions + a], 1.0f) << "sample " << i << " action " << a;
      }
    }
    EXPECT_NEAR(total, 1.0, 1e-5) << "sample " << i;
  }
}

TEST(ReplayBuffer, WindowEvictsTheOldestGames) {
  const Game& game = virus_war();
  const auto games = labelled_games(12, 4);
  const std::int64_t window = 150;
  ReplayBuffer replay(game, window);
  std::int64_t added_positions = 0;
  for (std::size_t i = 0; i < games.size(); ++i) {
    replay.add(games[i]);
    added_positions += static_cast<std::int64_t>(games[i].positions.size());
    // The newest games() games are held: together at least a window, without the oldest of them less.
    const auto held = static_cast<std::size_t>(replay.games());
    ASSERT_GE(held, 1u);
    ASSERT_LE(held, i + 1);
    std::int64_t newest = 0;
    for (std::size_t k = i + 1 - held; k <= i; ++k) newest += static_cast<std::int64_t>(games[k].positions.size());
    EXPECT_EQ(replay.positions(), newest);
    const std::int64_t oldest_held = static_cast<std::int64_t>(games[i + 1 - held].positions.size());
    if (held < i + 1) {
      EXPECT_GE(replay.positions(), window);
    }
    if (held > 1) {
      EXPECT_LT(replay.positions() - oldest_held, window);
    }
  }
  EXPECT_EQ(replay.games_added(), 12);
  EXPECT_EQ(replay.positions_added(), added_positions);
  ASSERT_LT(replay.games(), 12) << "the games are too short to test eviction";

  // Only held games are sampled: their value targets name them.
  const int first_held = 12 - static_cast<int>(replay.games());
  Rng rng(2);
  TrainBatch batch;
  replay.sample(500, rng, false, batch);
  std::set<int> sampled;
  for (int i = 0; i < batch.size; ++i) sampled.insert(static_cast<int>(std::fabs(batch.value[2 * i])));
  EXPECT_GE(*sampled.begin(), first_held);
  EXPECT_EQ(*sampled.rbegin(), 11);
}

TEST(ReplayBuffer, SaveLoadRoundTrip) {
  const Game& game = virus_war();
  ReplayBuffer replay(game, 400);
  for (const auto& g : labelled_games(10, 5)) replay.add(g);
  TempDir dir;
  const std::string path = dir / "replay.bin";
  replay.save(path);

  ReplayBuffer loaded(game, 400);
  loaded.load(path);
  EXPECT_EQ(loaded.positions(), replay.positions());
  EXPECT_EQ(loaded.games(), replay.games());
  EXPECT_EQ(loaded.games_added(), 10);
  EXPECT_EQ(loaded.positions_added(), replay.positions_added());
  EXPECT_EQ(loaded.bytes(), replay.bytes());
  EXPECT_EQ(loaded.bytes_without_policy(), replay.bytes_without_policy());
  // The same random stream draws the same batches from both.
  for (const bool augment : {false, true}) {
    Rng a(9), b(9);
    TrainBatch x, y;
    replay.sample(128, a, augment, x);
    loaded.sample(128, b, augment, y);
    EXPECT_EQ(x.obs, y.obs);
    EXPECT_EQ(x.policy, y.policy);
    EXPECT_EQ(x.mask, y.mask);
    EXPECT_EQ(x.value, y.value);
  }
  // Saving what was loaded gives the same bytes.
  const std::string again = dir / "again.bin";
  loaded.save(again);
  EXPECT_EQ(nn_testing::file_text(again), nn_testing::file_text(path));

  // A smaller window keeps only the newest games of the file, and the file's counters.
  ReplayBuffer small(game, 50);
  small.load(path);
  EXPECT_LT(small.games(), replay.games());
  EXPECT_EQ(small.games_added(), 10);
}

TEST(ReplayBuffer, CorruptFilesAreRejectedWithTheFileAndTheProblem) {
  const Game& game = virus_war();
  ReplayBuffer replay(game, 100000);
  for (const auto& g : labelled_games(3, 6)) replay.add(g);
  TempDir dir;
  const std::string good = dir / "good.bin";
  replay.save(good);
  const std::string bytes = nn_testing::file_text(good);

  ReplayBuffer target(game, 100000);
  target.add(labelled_games(1, 7)[0]);
  const std::int64_t before = target.positions();
  auto load_error = [&](const std::string& name, const std::string& content) {
    const std::string path = dir / name;
    nn_testing::write_text(path, content);
    const std::string message = error_of<InputError>([&] { target.load(path); });
    EXPECT_NE(message.find("replay file '" + path + "'"), std::string::npos) << message;
    // A failed load leaves the buffer as it was.
    EXPECT_EQ(target.positions(), before);
    EXPECT_EQ(target.games_added(), 1);
    return message;
  };

  for (const std::size_t size : {std::size_t{4}, std::size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    const std::string message = load_error("truncated.bin", bytes.substr(0, size));
    EXPECT_NE(message.find("is corrupt: truncated in"), std::string::npos) << size << ": " << message;
  }
  std::string wrong_magic = bytes;
  wrong_magic[0] = 'X';
  EXPECT_NE(load_error("magic.bin", wrong_magic).find("not a boardlab replay file"), std::string::npos);
  EXPECT_NE(load_error("trailing.bin", bytes + "more").find("bad end marker"), std::string::npos);
  // An action outside the game's action space: the file is read whole, so replay catches it.
  std::string bad_action = bytes;
  const std::string name = game.to_string();
  const std::size_t first_action = 8 + 4 + name.size() + 8 + 8 + 8 + 4;
  bad_action[first_action] = static_cast<char>(0xff);
  bad_action[first_action + 1] = static_cast<char>(0x7f);
  EXPECT_NE(load_error("illegal.bin", bad_action).find("game 1 does not replay"), std::string::npos);

  const std::shared_ptr<const Game> strict = load_game("virus_war(strict=true)");
  ReplayBuffer strict_buffer(*strict, 100000);
  strict_buffer.add(labelled_games(1, 8)[0]);
  const std::string strict_path = dir / "strict.bin";
  strict_buffer.save(strict_path);
  const std::string message = error_of<InputError>([&] { target.load(strict_path); });
  EXPECT_EQ(message, "replay file '" + strict_path + "' holds games of virus_war(strict=true), not virus_war(strict=false)");
  EXPECT_EQ(target.positions(), before);
}

TEST(ReplayBuffer, BytesPerPosition) {
  const Game& game = virus_war();
  ReplayBuffer replay(game, 1000000);
  for (const auto& g : labelled_games(20, 10)) replay.add(g);
  const double positions = static_cast<double>(replay.positions());
  const double without_policy = static_cast<double>(replay.bytes_without_policy()) / positions;
  const double with_policy = static_cast<double>(replay.bytes()) / positions;
  std::printf("Virus War random play, %lld positions: %.2f bytes/position without policy, %.2f with\n",
              static_cast<long long>(replay.positions()), without_policy, with_policy);
  RecordProperty("bytes_per_position_without_policy", std::to_string(without_policy));
  RecordProperty("bytes_per_position", std::to_string(with_policy));
  // Actions and plies: a few bytes, far below the 3,600 bytes of an observation.
  EXPECT_LT(without_policy, 8.0);
  EXPECT_GT(with_policy, without_policy);
  EXPECT_LT(with_policy, 100.0);
}

TEST(ReplayBuffer, RejectsAnEmptyWindowAndAnEmptySample) {
  EXPECT_THROW(ReplayBuffer(virus_war(), 0), InputError);
  ReplayBuffer replay(virus_war(), 10);
  Rng rng(1);
  TrainBatch batch;
  EXPECT_THROW(replay.sample(4, rng, false, batch), InputError);
}

}  // namespace
}  // namespace boardlab
