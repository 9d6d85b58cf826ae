// Tests for the replay buffer: examples equal to full replays for every kind of game, symmetries, snapshots, stored widths, threads, the window and the file format.
#include "core/steps.h"
#include "nn/replay_buffer.h"
#include "nn/replay_storage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <numeric>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "nn_test_games.h"
#include "nn_test_util.h"
#include "tests/toys/toys.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using nn_testing::CoinNimGame;
using nn_testing::CountGame;
using nn_testing::CountState;
using nn_testing::random_selfplay_game;
using nn_testing::TempDir;
using nn_testing::virus_war;
using nn_testing::VoteGame;

constexpr std::int64_t kHuge = std::int64_t{1} << 40;

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

// One training example as TrainBatch documents it, rebuilt here independently of the buffer.
struct Example {
  std::vector<float> obs, policy, mask, value;
  Player player = kInvalidPlayer;
  int ply = 0;
};

// The state after the first `ply` steps, replayed from the initial state.
std::unique_ptr<State> replay_from_start(const Game& game, const std::vector<Step>& steps, std::size_t ply) {
  std::unique_ptr<State> state = game.new_initial_state();
  std::vector<Action> joint;
  for (std::size_t i = 0; i < ply;) {
    if (state->is_simultaneous_node()) {
      joint.clear();
      for (int p = 0; p < game.num_players(); ++p) joint.push_back(steps[i++].action);
      state->apply_joint(joint);
    } else {
      state->apply(steps[i++].action);
    }
  }
  return state;
}

float scaled(const Game& game, double ret) {
  const GameType type = game.type();
  return static_cast<float>((ret - type.min_return) / (type.max_return - type.min_return) * 2 - 1);
}

// Every example of `record`, each position rebuilt by replaying the game from its start.
std::vector<Example> examples_of(const Game& game, const SelfPlayGame& record) {
  const int actions = game.num_distinct_actions();
  const int players = game.num_players();
  std::vector<Example> out;
  for (const auto& position : record.positions) {
    const std::unique_ptr<State> state = replay_from_start(game, record.steps, static_cast<std::size_t>(position.ply));
    for (const auto& target : position.targets) {
      Example e;
      e.player = target.player;
      e.ply = position.ply;
      e.obs.resize(static_cast<std::size_t>(game.observation_shape().size()));
      state->observation(target.player, e.obs);
      e.policy.assign(static_cast<std::size_t>(actions), 0.0f);
      e.mask.assign(static_cast<std::size_t>(actions), 0.0f);
      float total = 0;
      for (float p : target.policy) total += p;
      for (std::size_t k = 0; k < target.legal.size(); ++k)
        e.policy[game.action_to_view(target.player, target.legal[k])] = target.policy[k] / total;
      for (Action a : state->legal_actions(target.player)) e.mask[game.action_to_view(target.player, a)] = 1;
      for (int j = 0; j < players; ++j) e.value.push_back(scaled(game, record.returns[(target.player + j) % players]));
      out.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<float> row(const std::vector<float>& v, int i, int width) {
  return {v.begin() + static_cast<std::ptrdiff_t>(i) * width, v.begin() + static_cast<std::ptrdiff_t>(i + 1) * width};
}

// Sample i of `batch` is example `e`: the same observation, mask and value target, and the
// policy up to the stored 16-bit weights.
bool is_example(const TrainBatch& batch, int i, const Example& e) {
  const auto at = [i](const std::vector<float>& v, std::size_t width) { return v.begin() + static_cast<std::ptrdiff_t>(i * width); };
  const std::size_t actions = e.mask.size();
  if (!std::equal(e.obs.begin(), e.obs.end(), at(batch.obs, e.obs.size())) ||
      !std::equal(e.mask.begin(), e.mask.end(), at(batch.mask, actions)))
    return false;
  const auto close = [](float tolerance) { return [tolerance](float a, float b) { return std::fabs(a - b) <= tolerance; }; };
  return std::equal(e.value.begin(), e.value.end(), at(batch.value, e.value.size()), close(1e-6f)) &&
         std::equal(e.policy.begin(), e.policy.end(), at(batch.policy, actions), close(2e-4f));
}

std::shared_ptr<const Game> any_game(const std::string& name) {
  if (name == "test_vote") return std::make_shared<VoteGame>();
  if (name == "test_coin_nim") return std::make_shared<CoinNimGame>();
  if (name.starts_with("toy_")) return load_toy(name);
  return load_game(name);
}

// Returns within the game's range, one per seat and all different, so a value target shows its rotation.
std::vector<double> distinct_returns(const Game& game, int salt) {
  const GameType type = game.type();
  std::vector<double> out;
  for (int p = 0; p < game.num_players(); ++p)
    out.push_back(type.min_return + (type.max_return - type.min_return) * (p + 1 + 0.1 * salt) / (game.num_players() + 2));
  return out;
}

// ---------------------------------------------------------------------------- every kind of game

class EveryKind : public testing::TestWithParam<const char*> {};

TEST_P(EveryKind, SamplesAreExamplesRebuiltFromTheStartInTheTargetPlayersView) {
  const std::shared_ptr<const Game> game = any_game(GetParam());
  const bool big = game->name() == "virus_war" || game->name() == "morabaraba";
  Rng rng(11);
  // Sparse snapshots so that most samples start from one.
  ReplayBuffer replay(*game, kHuge, 3);
  std::vector<Example> expected;
  std::int64_t positions = 0;
  int longest = 0;
  for (int g = 0; g < (big ? 2 : 12); ++g) {
    SelfPlayGame record = random_selfplay_game(*game, rng);
    record.returns = distinct_returns(*game, g);
    replay.add(record);
    positions += static_cast<std::int64_t>(record.positions.size());
    longest = std::max(longest, record.positions.back().ply);
    for (Example& e : examples_of(*game, record)) expected.push_back(std::move(e));
  }
  ASSERT_EQ(replay.positions(), positions);
  ASSERT_EQ(replay.targets(), static_cast<std::int64_t>(expected.size()));
  if (longest >= 6) {
    EXPECT_GT(replay.snapshots(), 0);  // a node boundary between steps 3 and 6
  }

  TrainBatch batch;
  replay.sample(big ? 600 : 1500, rng, /*augment=*/false, batch);
  std::vector<bool> seen(expected.size());
  std::set<Player> players;
  for (int i = 0; i < batch.size; ++i) {
    bool found = false;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      if (!is_example(batch, i, expected[k])) continue;
      found = true;
      seen[k] = true;  // identical examples (the same information state twice) are all seen
      players.insert(expected[k].player);
    }
    ASSERT_TRUE(found) << GetParam() << ": sample " << i << " is none of the stored examples";
  }
  // Drawn uniformly over (position, target) pairs: with ~20 draws each, every toy example shows up.
  if (!big) {
    EXPECT_EQ(std::count(seen.begin(), seen.end(), false), 0) << GetParam();
  } else {
    EXPECT_GT(std::count(seen.begin(), seen.end(), true), static_cast<std::ptrdiff_t>(expected.size() / 2));
  }
  EXPECT_EQ(static_cast<int>(players.size()), game->num_players()) << "every seat's examples are drawn";
}

INSTANTIATE_TEST_SUITE_P(ReplayBuffer, EveryKind,
                         testing::Values("virus_war", "toy_race", "toy_race(players=4,tokens=9)", "kuhn_poker", "biased_rps",
                                         "test_vote", "test_coin_nim", "morabaraba(move_cap=40)"));

TEST(ReplayBuffer, ValueTargetsStartAtTheTargetPlayerForThreePlayers) {
  const std::shared_ptr<const Game> game = load_toy("toy_race");
  Rng rng(5);
  ReplayBuffer replay(*game, kHuge);
  for (int g = 0; g < 4; ++g) {
    SelfPlayGame record = random_selfplay_game(*game, rng);
    record.returns = {0.5, 0.0, -0.5};
    replay.add(record);
  }
  TrainBatch batch;
  replay.sample(300, rng, false, batch);
  std::set<std::vector<float>> rows;
  for (int i = 0; i < batch.size; ++i) rows.insert(row(batch.value, i, 3));
  // Seat 0's examples, seat 1's (its own return first, then seat 2's, then seat 0's), seat 2's.
  const std::set<std::vector<float>> expected = {{0.5f, 0.0f, -0.5f}, {0.0f, -0.5f, 0.5f}, {-0.5f, 0.5f, 0.0f}};
  EXPECT_EQ(rows, expected);
}

TEST(ReplayBuffer, ValueTargetsMapTheGamesReturnRangeOntoTheNetworks) {
  // Kuhn poker returns lie in [-2, 2]; the value head ends in tanh.
  const GameType kuhn = load_game("kuhn_poker")->type();
  EXPECT_FLOAT_EQ(value_target(kuhn, 2.0), 1.0f);
  EXPECT_FLOAT_EQ(value_target(kuhn, -1.0), -0.5f);
  EXPECT_FLOAT_EQ(value_from_network(kuhn, -0.5f), -1.0f);
  const GameType virus = virus_war().type();
  for (double r : {-1.0, 0.0, 0.25, 1.0}) EXPECT_FLOAT_EQ(value_target(virus, r), static_cast<float>(r));
}

// War on 10x10, played from the text of its sub-moves: A's knights kill B on A's first turn,
// C's kill D on C's, A and C pass: a draw between them. Each position trains its mover, with
// the root value 0.2.
SelfPlayGame war_kills_record(const Game& game) {
  SelfPlayGame record;
  std::unique_ptr<State> state = game.new_initial_state();
  for (const char* sub : {"Kc4", "Kd6", "Ke8", "Kc7", "Kb9", "Kh7", "Kg5", "Kf3", "Kh4", "Ki2", "pass", "pass"}) {
    const Player mover = state->current_player();
    const Action action = state->string_to_action(sub);
    const std::vector<Action> legal = state->legal_actions();
    record.positions.push_back({static_cast<int>(record.steps.size()),
                                {{mover, legal, std::vector<float>(legal.size(), 1.0f), 0.2f}}});
    record.steps.push_back({mover, action});
    state->apply(action);
  }
  EXPECT_TRUE(state->is_terminal());
  record.returns = state->returns();
  return record;
}

TEST(ReplayBuffer, AStandingsNetworkLearnsEachReturnLessTheDrawsReturnsAtThePosition) {
  const std::shared_ptr<const Game> game = load_game("war(players=4,width=10,height=10)");
  const SelfPlayGame record = war_kills_record(*game);
  const double third = 1.0 / 3;
  const std::vector<double> returns = {2 * third, -1.0, 2 * third, -third};
  for (int p = 0; p < 4; ++p) ASSERT_NEAR(record.returns[p], returns[p], 1e-12) << p;
  ReplayBuffer replay(*game, kHuge);
  replay.add(record);
  Rng rng(3);
  // Rows as sampled: a standings network learns, after each kill, only what may still change.
  const auto rows = [&](bool standings) {
    TrainBatch batch;
    replay.sample(400, rng, false, batch, standings);
    std::set<std::vector<int>> out;  // values and the root's, in 1/6ths
    for (int i = 0; i < batch.size; ++i) {
      std::vector<int> r;
      for (int j = 0; j < 4; ++j) r.push_back(static_cast<int>(std::lround(6 * batch.value[4 * i + j])));
      r.push_back(static_cast<int>(std::lround(30 * batch.root_value[4 * i])));
      out.insert(r);
    }
    return out;
  };
  // A's first turn (nobody out), C's turn (B out: a draw now gives A, C, D a third each), the
  // passes (both out: the returns already). Slot j is the mover's seat + j; the root value
  // 0.2 is 6 in 1/30ths, less the mover's standing return after a kill.
  const std::set<std::vector<int>> shifted = {{4, -6, 4, -2, 6}, {2, -4, 2, 0, -4}, {0, 0, 0, 0, -14}};
  EXPECT_EQ(rows(true), shifted);
  const std::set<std::vector<int>> whole = {{4, -6, 4, -2, 6}, {4, -2, 4, -6, 6}};
  EXPECT_EQ(rows(false), whole);
}

// ---------------------------------------------------------------------------- symmetries

TEST(ReplayBuffer, AugmentationMapsPlanesActionsSeatsAndValueTargetsWhereASymmetryHolds) {
  const VoteGame game;
  const auto& symmetries = game.symmetries();
  Rng rng(21);
  ReplayBuffer replay(game, kHuge);
  // Per target: the identity example, and its image under each symmetry that holds there,
  // built from the image game (Game::apply_symmetry) seen by the image of the player.
  struct Variants {
    Example identity;
    std::vector<std::pair<int, Example>> images;
    int round = 0;
  };
  std::vector<Variants> expected;
  for (int g = 0; g < 6; ++g) {
    const SelfPlayGame record = random_selfplay_game(game, rng);
    replay.add(record);
    const std::vector<Example> identities = examples_of(game, record);
    const std::unique_ptr<State> final_state = replay_from_start(game, record.steps, record.steps.size());
    std::size_t k = 0;
    for (const auto& position : record.positions) {
      const std::unique_ptr<State> state = replay_from_start(game, record.steps, static_cast<std::size_t>(position.ply));
      for (const auto& target : position.targets) {
        Variants v{identities[k++], {}, position.ply / 3};
        for (int s = 0; s < static_cast<int>(symmetries.size()); ++s) {
          if (!game.symmetry_holds(*state, s)) continue;
          const Symmetry& sym = symmetries[s];
          const Player viewer = sym.map_player(target.player);
          const std::unique_ptr<State> image = game.apply_symmetry(*state, s);
          const std::vector<double> image_returns = game.apply_symmetry(*final_state, s)->returns();
          Example e;
          e.player = viewer;
          e.obs.resize(4);
          image->observation(viewer, e.obs);
          e.mask.assign(3, 0.0f);
          for (Action a : image->legal_actions(viewer)) e.mask[a] = 1;
          e.policy.assign(3, 0.0f);
          for (int a = 0; a < 3; ++a) e.policy[sym.action[a]] = v.identity.policy[a];
          for (int j = 0; j < 3; ++j) e.value.push_back(static_cast<float>(image_returns[(viewer + j) % 3]));
          v.images.emplace_back(s, std::move(e));
        }
        expected.push_back(std::move(v));
      }
    }
  }

  TrainBatch batch;
  replay.sample(3000, rng, /*augment=*/true, batch);
  int mirrored = 0, mirrored_values_moved = 0, plain = 0, second_round = 0;
  for (int i = 0; i < batch.size; ++i) {
    bool found = false;
    for (const Variants& v : expected) {
      const bool as_identity = is_example(batch, i, v.identity);
      bool as_mirror = false;
      for (const auto& [s, image] : v.images) {
        if (!is_example(batch, i, image)) continue;
        found = true;
        if (symmetries[s].name == "mirror" && !as_identity) {
          as_mirror = true;
          // The mirror swaps seats 1 and 2: seen from any seat the other two change places.
          const std::vector<float> value = row(batch.value, i, 3);
          EXPECT_EQ(value, (std::vector<float>{v.identity.value[0], v.identity.value[2], v.identity.value[1]}));
          mirrored_values_moved += v.identity.value[1] != v.identity.value[2];
        }
      }
      found = found || as_identity;
      if (as_identity) ++plain;
      if (as_mirror) ++mirrored;
      // A second-round position has no mirror image among its variants: a sample drawn
      // with the mirror there would match nothing.
      if (as_identity && v.round == 1) ++second_round;
    }
    ASSERT_TRUE(found) << "sample " << i << " is no example nor the image of one under a symmetry that holds there";
  }
  EXPECT_GT(mirrored, 300);
  EXPECT_GT(mirrored_values_moved, 100);
  EXPECT_GT(plain, 300);
  EXPECT_GT(second_round, 300);
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

// ---------------------------------------------------------------------------- snapshots

TEST(ReplayBuffer, SnapshotsGiveTheSameExamplesAsReplaysFromTheStart) {
  for (const char* name : {"virus_war", "test_vote", "kuhn_poker", "morabaraba(move_cap=60)"}) {
    const std::shared_ptr<const Game> game = any_game(name);
    Rng rng(31);
    std::vector<SelfPlayGame> records;
    for (int g = 0; g < 4; ++g) records.push_back(random_selfplay_game(*game, rng));
    ReplayBuffer every_step(*game, kHuge, 1), every_seven(*game, kHuge, 7), none(*game, kHuge, 1 << 30);
    std::int64_t expected_every_step = 0, expected_every_seven = 0;
    for (const auto& record : records) {
      every_step.add(record);
      every_seven.add(record);
      none.add(record);
      // A snapshot at each node boundary after the start, up to the last target's position.
      const int last = record.positions.back().ply;
      const int rounds = game->type().simultaneous() ? game->num_players() : 1;
      expected_every_step += last / rounds;
      if (!game->type().simultaneous()) expected_every_seven += last / 7;
    }
    EXPECT_EQ(none.snapshots(), 0) << name;
    EXPECT_EQ(every_step.snapshots(), expected_every_step) << name;
    if (!game->type().simultaneous()) {
      EXPECT_EQ(every_seven.snapshots(), expected_every_seven) << name;
    }
    for (const bool augment : {false, true}) {
      Rng a(9), b(9), c(9);
      TrainBatch x, y, z;
      every_step.sample(400, a, augment, x);
      every_seven.sample(400, b, augment, y);
      none.sample(400, c, augment, z);
      EXPECT_EQ(x.obs, z.obs) << name;
      EXPECT_EQ(y.obs, z.obs) << name;
      EXPECT_EQ(x.policy, z.policy) << name;
      EXPECT_EQ(y.policy, z.policy) << name;
      EXPECT_EQ(x.mask, z.mask) << name;
      EXPECT_EQ(y.mask, z.mask) << name;
      EXPECT_EQ(x.value, z.value) << name;
      EXPECT_EQ(y.value, z.value) << name;
    }
  }
}

TEST(ReplayBuffer, SamplingReplaysFewerStepsThanTheSnapshotSpacing) {
  const CountGame game(2, 2, 1000, 1000);
  Rng rng(3);
  for (const int every : {1, 10, 64}) {
    ReplayBuffer replay(game, kHuge, every);
    replay.add(random_selfplay_game(game, rng));
    TrainBatch batch;
    for (int k = 0; k < 50; ++k) {
      const long before = CountState::applied;
      replay.sample(1, rng, false, batch);
      EXPECT_LT(CountState::applied - before, every) << "ply " << batch.obs[0];
    }
  }
}

// ---------------------------------------------------------------------------- stored widths

TEST(ReplayBuffer, TargetsOfManySeatsAreStoredWideAndThoseBeyondThirtyTwoBitsRefused) {
  // A target is stored as ply × players + seat: 401 plies × 200 seats need 32 bits.
  const CountGame crowd(200, 2, 400, 400);
  Rng rng(2);
  ReplayBuffer replay(crowd, kHuge);
  const SelfPlayGame record = random_selfplay_game(crowd, rng);
  replay.add(record);
  const std::vector<Example> expected = examples_of(crowd, record);
  TrainBatch batch;
  replay.sample(300, rng, false, batch);
  std::set<Player> seats;
  for (int i = 0; i < batch.size; ++i) {
    const Example& e = expected[static_cast<std::size_t>(batch.obs[static_cast<std::size_t>(i)])];  // observation = ply
    EXPECT_TRUE(is_example(batch, i, e)) << "sample " << i;
    seats.insert(e.player);
  }
  EXPECT_GT(*seats.rbegin(), 127);
  // Steps, returns, the flag, targets and their root values.
  EXPECT_EQ(replay.bytes_without_policy(), 400 * 2 + 200 * 4 + 1 + 400 * 4 + 400 * 2);

  const CountGame endless(100, 2, 10, 50000000);
  EXPECT_EQ(error_of<InputError>([&] { ReplayBuffer(endless, 100); }),
            "replay: test_count declares games of up to 50000000 steps for 100 players; a target's ply and seat are "
            "stored in 32 bits, which hold (max_game_length + 1) x players up to 2^32");
}

TEST(ReplayBuffer, ActionsBeyondSixteenBitsAreStoredWide) {
  const CountGame game(2, 70000, 30, 30);  // legal actions 69998 and 69999
  Rng rng(4);
  ReplayBuffer replay(game, kHuge);
  const SelfPlayGame record = random_selfplay_game(game, rng);
  replay.add(record);
  const std::vector<Example> expected = examples_of(game, record);
  TrainBatch batch;
  replay.sample(100, rng, false, batch);
  for (int i = 0; i < batch.size; ++i) {
    const auto& e = expected[static_cast<std::size_t>(batch.obs[static_cast<std::size_t>(i)])];  // observation = ply
    EXPECT_TRUE(is_example(batch, i, e)) << "sample " << i;
    EXPECT_EQ(batch.mask[static_cast<std::size_t>(i) * 70000 + 69999], 1.0f);
  }
  // Two more bytes for each action and each policy entry.
  EXPECT_EQ(replay.bytes_without_policy(), 30 * 4 + 2 * 4 + 1 + 30 * 2 + 30 * 2);
  TempDir dir;
  replay.save(dir / "wide.bin");
  ReplayBuffer loaded(game, kHuge);
  loaded.load(dir / "wide.bin");
  EXPECT_EQ(loaded.bytes(), replay.bytes());
  Rng a(2), b(2);
  TrainBatch x, y;
  replay.sample(50, a, false, x);
  loaded.sample(50, b, false, y);
  EXPECT_EQ(x.policy, y.policy);
}

TEST(ReplayBuffer, PliesBeyondSixteenBitsAreStoredWideWhereTheGameDeclaresThem) {
  // A game whose cap allows 100,000 steps, played for 70,000.
  const CountGame game(2, 2, 70000, 100000);
  Rng rng(6);
  ReplayBuffer replay(game, kHuge);
  replay.add(random_selfplay_game(game, rng));
  EXPECT_EQ(replay.positions(), 70000);
  TrainBatch batch;
  replay.sample(400, rng, false, batch);
  int beyond = 0;
  for (int i = 0; i < batch.size; ++i) {
    // The observation is the number of steps replayed: the stored ply, whole.
    const float ply = batch.obs[static_cast<std::size_t>(i)];
    beyond += ply > 65535;
    EXPECT_NEAR(batch.policy[2 * static_cast<std::size_t>(i)] + batch.policy[2 * static_cast<std::size_t>(i) + 1], 1.0f, 1e-6f);
  }
  EXPECT_GT(beyond, 0);
  EXPECT_EQ(replay.bytes_without_policy(), 70000 * 2 + 2 * 4 + 1 + 70000 * 4 + 70000 * 2);

  // A game that declares 1,000 steps at most has its targets in 16 bits (plies up to
  // 32,767 for two seats), and one that plays on beyond is refused.
  const CountGame liar(2, 2, 70000, 1000);
  ReplayBuffer narrow(liar, kHuge);
  const std::string message = error_of<InputError>([&] { narrow.add(random_selfplay_game(liar, rng)); });
  EXPECT_NE(message.find("it has 70000 steps; targets are stored up to ply 32767 for test_count, whose max_game_length is 1000"),
            std::string::npos)
      << message;
  EXPECT_EQ(narrow.games(), 0);
}

// ---------------------------------------------------------------------------- refused games

TEST(ReplayBuffer, MalformedGamesAreRefusedWithTheReason) {
  const Game& game = virus_war();
  Rng rng(12);
  const SelfPlayGame good = random_selfplay_game(game, rng);
  ReplayBuffer replay(game, kHuge);
  replay.add(good);
  const std::int64_t before = replay.positions();
  auto refusal = [&](const std::function<void(SelfPlayGame&)>& spoil) {
    SelfPlayGame bad = good;
    spoil(bad);
    const std::string message = error_of<InputError>([&] { replay.add(bad); });
    EXPECT_EQ(message.rfind("replay: a self-play game of virus_war(strict=false) is refused: ", 0), 0u) << message;
    EXPECT_EQ(replay.positions(), before);
    return message;
  };
  const auto has = [](const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
  };
  std::string m = refusal([](SelfPlayGame& g) { g.steps[0].player = 1; });
  EXPECT_TRUE(has(m, "step 1 names O (seat 1) but X (seat 0) acts there")) << m;
  m = refusal([](SelfPlayGame& g) { g.steps[3].action = 100000; });
  EXPECT_TRUE(has(m, "step 4 has action 100000, outside 0..100")) << m;
  m = refusal([](SelfPlayGame& g) { g.steps[1].action = 55; });
  EXPECT_TRUE(has(m, "step 2 does not replay: ")) << m;
  m = refusal([](SelfPlayGame& g) { g.returns.pop_back(); });
  EXPECT_TRUE(has(m, "it has 1 returns for 2 players")) << m;
  m = refusal([](SelfPlayGame& g) { g.steps.pop_back(); });
  EXPECT_TRUE(has(m, "it does not end")) << m;
  m = refusal([](SelfPlayGame& g) { g.truncated = true; });
  EXPECT_TRUE(has(m, "it claims to be truncated, but its final state ended by the rules")) << m;
  m = refusal([](SelfPlayGame& g) { std::swap(g.positions[2], g.positions[3]); });
  EXPECT_TRUE(has(m, "is out of order")) << m;
  m = refusal([](SelfPlayGame& g) { g.positions[2].targets[0].player = 1 - g.positions[2].targets[0].player; });
  EXPECT_TRUE(has(m, "acts there, not")) << m;
  m = refusal([](SelfPlayGame& g) { g.positions[2].targets[0].player = 2; });
  EXPECT_TRUE(has(m, "has a target for player 2, not a seat 0..1")) << m;
  m = refusal([](SelfPlayGame& g) { g.positions[2].targets[0].policy.pop_back(); });
  EXPECT_TRUE(has(m, "policy values for")) << m;
  {
    // The most weighted action of a target swapped for one that is illegal there.
    const auto& target = good.positions[2].targets[0];
    const std::vector<Action> legal = replay_from_start(game, good.steps, static_cast<std::size_t>(good.positions[2].ply))
                                          ->legal_actions(target.player);
    Action illegal = 0;
    while (std::find(legal.begin(), legal.end(), illegal) != legal.end()) ++illegal;
    const auto top = std::max_element(target.policy.begin(), target.policy.end()) - target.policy.begin();
    m = refusal([&](SelfPlayGame& g) { g.positions[2].targets[0].legal[static_cast<std::size_t>(top)] = illegal; });
    EXPECT_TRUE(has(m, "its policy weighs action " + std::to_string(illegal) + ", which is not legal there")) << m;
  }
  m = refusal([](SelfPlayGame& g) { std::fill(g.positions[2].targets[0].policy.begin(), g.positions[2].targets[0].policy.end(), 0.0f); });
  EXPECT_TRUE(has(m, "has no positive policy value")) << m;

  // A truncated game must say so.
  const std::shared_ptr<const Game> capped = load_game("morabaraba(move_cap=10)");
  ReplayBuffer capped_replay(*capped, kHuge);
  SelfPlayGame truncated = random_selfplay_game(*capped, rng);
  ASSERT_TRUE(truncated.truncated);
  capped_replay.add(truncated);
  truncated.truncated = false;
  m = error_of<InputError>([&] { capped_replay.add(truncated); });
  EXPECT_TRUE(has(m, "its final state is truncated (by a cap that is not a rule), but it does not say so")) << m;
}

TEST(ReplayBuffer, ApplyStepsPlaysEveryKindOfStepAndChecksWhoActs) {
  Rng rng(8);
  for (const char* name : {"kuhn_poker", "biased_rps", "toy_race"}) {
    const std::shared_ptr<const Game> game = any_game(name);
    const SelfPlayGame record = random_selfplay_game(*game, rng);
    const std::unique_ptr<State> state = game->new_initial_state();
    apply_steps(*state, record.steps);
    EXPECT_EQ(state->history(), record.steps) << name;
    EXPECT_TRUE(state->is_terminal()) << name;
  }
  const std::shared_ptr<const Game> matrix = load_game("biased_rps");
  const std::unique_ptr<State> state = matrix->new_initial_state();
  const std::vector<Step> swapped = {{1, 0}, {0, 2}};
  EXPECT_EQ(error_of<InputError>([&] { apply_steps(*state, swapped); }), "step 1 names P1 (seat 1) but P0 (seat 0) acts there");
}

// ---------------------------------------------------------------------------- threads

TEST(ReplayBuffer, SamplingWhileAnotherThreadAddsIsSafe) {
  const Game& game = virus_war();
  const std::vector<SelfPlayGame> games = labelled_games(60, 14);
  ReplayBuffer replay(game, 2000);  // small: the adder evicts games while the sampler reads them
  replay.add(games[0]);
  std::atomic<bool> done{false};
  std::thread adder([&] {
    for (std::size_t i = 1; i < games.size(); ++i) replay.add(games[i]);
    done = true;
  });
  Rng rng(3);
  TrainBatch batch;
  int batches = 0;
  const int actions = game.num_distinct_actions();
  while (!done || batches < 5) {
    replay.sample(32, rng, /*augment=*/true, batch);
    ++batches;
    for (int i = 0; i < batch.size; ++i) {
      // Each value names a game that was added, seen from either seat.
      const float label = std::fabs(batch.value[2 * static_cast<std::size_t>(i)]) - 0.5f;
      EXPECT_EQ(label, std::round(label));
      EXPECT_EQ(batch.value[2 * static_cast<std::size_t>(i)], -batch.value[2 * static_cast<std::size_t>(i) + 1]);
      double total = 0;
      for (int a = 0; a < actions; ++a) total += batch.policy[static_cast<std::size_t>(i) * actions + a];
      EXPECT_NEAR(total, 1.0, 1e-5);
    }
  }
  adder.join();
  EXPECT_EQ(replay.games_added(), 60);
  EXPECT_GT(batches, 5);
}

// ---------------------------------------------------------------------------- the window

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
    EXPECT_EQ(replay.targets(), newest);  // one target per position in a sequential game
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

TEST(ReplayBuffer, RejectsAnEmptyWindowAndAnEmptySample) {
  EXPECT_THROW(ReplayBuffer(virus_war(), 0), InputError);
  EXPECT_THROW(ReplayBuffer(virus_war(), 10, 0), InputError);
  ReplayBuffer replay(virus_war(), 10);
  Rng rng(1);
  TrainBatch batch;
  EXPECT_THROW(replay.sample(4, rng, false, batch), InputError);
}

// ---------------------------------------------------------------------------- the file

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
  EXPECT_EQ(loaded.targets(), replay.targets());
  EXPECT_EQ(loaded.games(), replay.games());
  EXPECT_EQ(loaded.snapshots(), replay.snapshots());
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

TEST(ReplayBuffer, SaveLoadRoundTripForEveryKindOfGame) {
  // Chance and hidden cards, simultaneous rounds with a target per seat, truncated games.
  for (const char* name : {"kuhn_poker", "biased_rps", "test_vote", "toy_race", "morabaraba(move_cap=12)"}) {
    const std::shared_ptr<const Game> game = any_game(name);
    Rng rng(17);
    ReplayBuffer replay(*game, kHuge, 2);
    for (int g = 0; g < 8; ++g) replay.add(random_selfplay_game(*game, rng));
    TempDir dir;
    const std::string path = dir / "replay.bin";
    replay.save(path);
    ReplayBuffer loaded(*game, kHuge, 2);
    loaded.load(path);  // replays every game: a truncation flag that did not survive would fail here
    EXPECT_EQ(loaded.targets(), replay.targets()) << name;
    EXPECT_EQ(loaded.snapshots(), replay.snapshots()) << name;
    Rng a(9), b(9);
    TrainBatch x, y;
    replay.sample(200, a, true, x);
    loaded.sample(200, b, true, y);
    EXPECT_EQ(x.obs, y.obs) << name;
    EXPECT_EQ(x.policy, y.policy) << name;
    EXPECT_EQ(x.value, y.value) << name;
    loaded.save(dir / "again.bin");
    EXPECT_EQ(nn_testing::file_text(dir / "again.bin"), nn_testing::file_text(path)) << name;
  }
}

TEST(ReplayBuffer, FilesOfTheOldFormatAreRefusedAsSuch) {
  // The first format: magic BLRPLAY1, the game, the counters, no games, the end marker.
  const std::string name = virus_war().to_string();
  std::string old = "BLRPLAY1";
  const auto name_size = static_cast<std::uint32_t>(name.size());
  old.append(reinterpret_cast<const char*>(&name_size), 4);
  old += name;
  old.append(std::string(24, '\0'));
  old += "END!";
  TempDir dir;
  const std::string path = dir / "old.bin";
  nn_testing::write_text(path, old);
  ReplayBuffer replay(virus_war(), 100);
  const std::string message = error_of<InputError>([&] { replay.load(path); });
  EXPECT_EQ(message.rfind("replay file '" + path + "' is in the old format (BLRPLAY1", 0), 0u) << message;
  EXPECT_NE(message.find("reads BLRPLAY2"), std::string::npos) << message;
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
  const std::size_t first_action = 8 + 4 + name.size() + 2 + 8 + 8 + 8 + 4;
  bad_action[first_action] = static_cast<char>(0xff);
  bad_action[first_action + 1] = static_cast<char>(0x7f);
  EXPECT_NE(load_error("illegal.bin", bad_action).find("game 1 does not replay"), std::string::npos);
  // A truncation flag that is not 0 or 1.
  std::string bad_flag = bytes;
  const std::size_t steps = static_cast<unsigned char>(bytes[first_action - 4]) + 256u * static_cast<unsigned char>(bytes[first_action - 3]);
  bad_flag[first_action + 2 * steps + 4 + 8] = 7;
  EXPECT_NE(load_error("flag.bin", bad_flag).find("game 1 has a truncation flag that is neither 0 nor 1"), std::string::npos);

  const std::shared_ptr<const Game> strict = load_game("virus_war(strict=true)");
  ReplayBuffer strict_buffer(*strict, 100000);
  Rng rng(8);
  strict_buffer.add(random_selfplay_game(*strict, rng));
  const std::string strict_path = dir / "strict.bin";
  strict_buffer.save(strict_path);
  const std::string message = error_of<InputError>([&] { target.load(strict_path); });
  EXPECT_EQ(message, "replay file '" + strict_path + "' holds games of virus_war(strict=true), not virus_war(strict=false)");
  EXPECT_EQ(target.positions(), before);
}

// ---------------------------------------------------------------------------- fast searches, root values, phases

// A test_count game (two seats, observation = ply) whose positions at plies divisible by 3
// were searched in full, each with the root value root_of(ply) for its mover.
float root_of(int ply) { return static_cast<float>(ply % 7) / 10.0f - 0.3f; }
SelfPlayGame fast_and_full_game(const CountGame& game, Rng& rng) {
  SelfPlayGame record = random_selfplay_game(game, rng);
  record.returns = {0.5, -0.5};
  for (SelfPlayGame::Position& position : record.positions) {
    position.full_search = position.ply % 3 == 0;
    position.targets[0].root_value = root_of(position.ply);
  }
  return record;
}

TEST(ReplayBuffer, FastSearchesKeepNoPolicyAndEveryExampleCarriesItsRootValueAndPhase) {
  const CountGame game(2, 2, 30, 30);
  Rng rng(3);
  ReplayBuffer replay(game, kHuge);
  const SelfPlayGame record = fast_and_full_game(game, rng);
  replay.add(record);
  // A fast position stores no policy entries: 20 of the 30 targets have none of their two
  // entries (an action and a weight, two bytes each).
  ReplayBuffer full_only(game, kHuge);
  SelfPlayGame all_full = record;
  for (SelfPlayGame::Position& position : all_full.positions) position.full_search = true;
  full_only.add(all_full);
  EXPECT_EQ(full_only.bytes() - replay.bytes(), 20 * 2 * (2 + 2));

  for (const bool augment : {false, true}) {
    TrainBatch batch;
    replay.sample(300, rng, augment, batch);
    ASSERT_EQ(batch.policy_weight.size(), 300u);
    ASSERT_EQ(batch.root_value.size(), 600u);
    ASSERT_EQ(batch.phase.size(), 300u);
    for (int i = 0; i < batch.size; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const int ply = static_cast<int>(batch.obs[k]);
      const bool full = ply % 3 == 0;
      EXPECT_EQ(batch.policy_weight[k], full ? 1.0f : 0.0f) << "ply " << ply;
      EXPECT_NEAR(batch.policy[2 * k] + batch.policy[2 * k + 1], full ? 1.0f : 0.0f, 1e-6f);
      EXPECT_EQ(batch.mask[2 * k] + batch.mask[2 * k + 1], 2.0f);
      // Seat 0 moves at even plies: its result is +0.5, seat 1's -0.5.
      const float own = ply % 2 == 0 ? 0.5f : -0.5f;
      EXPECT_EQ(batch.value[2 * k], own);
      EXPECT_EQ(batch.value[2 * k + 1], -own);
      // Zero-sum with two seats: the other seat's root value is minus the mover's.
      EXPECT_NEAR(batch.root_value[2 * k], root_of(ply), 1.0f / 32767);
      EXPECT_NEAR(batch.root_value[2 * k + 1], -root_of(ply), 1.0f / 32767);
      EXPECT_EQ(batch.phase[k], ply < 10 ? 0 : ply < 20 ? 1 : 2) << "ply " << ply;
    }
  }
}

TEST(ReplayBuffer, RootValuesMapOntoTheNetworksScaleAndMissingOnesKeepTheResult) {
  // kuhn_poker's returns lie in [-2, 2] and sum to 0: a root value of -0.8 maps to -0.4 and
  // the other seat's, 0.8, to 0.4. A target without a root value repeats the result.
  const std::shared_ptr<const Game> game = any_game("kuhn_poker");
  const GameType type = game->type();
  ASSERT_EQ(game->num_players(), 2);
  ASSERT_TRUE(type.constant_sum());
  Rng rng(5);
  SelfPlayGame record = random_selfplay_game(*game, rng);
  for (std::size_t k = 0; k < record.positions.size(); ++k)
    for (SelfPlayGame::Target& t : record.positions[k].targets)
      if (k % 2 == 0) t.root_value = static_cast<float>(type.min_return + 0.3 * (type.max_return - type.min_return));
  ReplayBuffer replay(*game, kHuge);
  replay.add(record);
  TrainBatch batch;
  replay.sample(200, rng, false, batch);
  int with = 0, without = 0;
  for (int i = 0; i < batch.size; ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (batch.root_value[2 * k] == batch.value[2 * k] && batch.root_value[2 * k + 1] == batch.value[2 * k + 1]) {
      ++without;
      continue;
    }
    ++with;
    EXPECT_NEAR(batch.root_value[2 * k], -0.4f, 1e-4f);
    EXPECT_NEAR(batch.root_value[2 * k + 1], 0.4f, 1e-4f);
  }
  EXPECT_GT(with, 0);
  EXPECT_GT(without, 0);
}

// A buffer's games written in the previous format (BLRPLAY2) field by field as that
// version wrote them: no root values, a policy for every target.
std::string version_two_file(const Game& game, const std::vector<SelfPlayGame>& games) {
  std::string out = "BLRPLAY2";
  const auto put = [&](const auto& value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); };
  const auto put_vector = [&](const auto& values) {
    out.append(reinterpret_cast<const char*>(values.data()), sizeof values[0] * values.size());
  };
  const auto put_column = [&](const PackedColumn& column) {
    put_vector(column.low());
    put_vector(column.high());
  };
  const std::string name = game.to_string();
  put(static_cast<std::uint32_t>(name.size()));
  out += name;
  const ReplayLayout layout = ReplayLayout::of(game);
  put(static_cast<std::uint8_t>(layout.wide_actions));
  put(static_cast<std::uint8_t>(layout.wide_targets));
  std::int64_t positions = 0;
  for (const SelfPlayGame& g : games) positions += static_cast<std::int64_t>(g.positions.size());
  put(static_cast<std::int64_t>(games.size()));
  put(positions);
  put(static_cast<std::uint64_t>(games.size()));
  for (const SelfPlayGame& record : games) {
    const StoredGame g = encode_game(game, record);
    put(static_cast<std::uint32_t>(g.steps()));
    put_column(g.actions);
    put(static_cast<std::uint32_t>(g.returns.size()));
    put_vector(g.returns);
    put(static_cast<std::uint8_t>(g.truncated));
    put(static_cast<std::uint32_t>(g.targets()));
    put_column(g.target);
    put_vector(g.policy_offset);
    put_column(g.policy_action);
    put_vector(g.policy_weight);
  }
  out += "END!";
  return out;
}

TEST(ReplayBuffer, FilesOfVersionTwoStillLoadWithoutRootValues) {
  const Game& game = virus_war();
  const std::vector<SelfPlayGame> games = labelled_games(6, 12);
  ReplayBuffer added(game, 100000);
  for (const SelfPlayGame& g : games) added.add(g);
  TempDir dir;
  const std::string path = dir / "v2.bin";
  nn_testing::write_text(path, version_two_file(game, games));
  ReplayBuffer loaded(game, 100000);
  loaded.load(path);
  EXPECT_EQ(loaded.games(), 6);
  EXPECT_EQ(loaded.targets(), added.targets());
  EXPECT_EQ(loaded.games_added(), 6);
  EXPECT_EQ(loaded.bytes(), added.bytes());
  // The same examples as the games added now (they have no root values either).
  Rng a(4), b(4);
  TrainBatch x, y;
  added.sample(200, a, true, x);
  loaded.sample(200, b, true, y);
  EXPECT_EQ(x.obs, y.obs);
  EXPECT_EQ(x.policy, y.policy);
  EXPECT_EQ(x.value, y.value);
  EXPECT_EQ(y.root_value, y.value);
  EXPECT_EQ(x.policy_weight, std::vector<float>(200, 1.0f));
  EXPECT_EQ(y.policy_weight, x.policy_weight);
  // Saved again, it is a version 3 file, equal to the one of the games added now.
  loaded.save(dir / "v3.bin");
  added.save(dir / "added.bin");
  EXPECT_EQ(nn_testing::file_text(dir / "v3.bin").substr(0, 8), "BLRPLAY3");
  EXPECT_EQ(nn_testing::file_text(dir / "v3.bin"), nn_testing::file_text(dir / "added.bin"));

  // Version 2 has a policy for every target: one without is corrupt there.
  SelfPlayGame fast = games[0];
  fast.positions[1].full_search = false;
  nn_testing::write_text(path, version_two_file(game, {fast}));
  EXPECT_NE(error_of<InputError>([&] { loaded.load(path); }).find("game 1 has policy offsets out of order or a target without policy"),
            std::string::npos);
}

TEST(ReplayBuffer, FastSearchesAndRootValuesSurviveTheFile) {
  const CountGame game(2, 2, 30, 30);
  Rng rng(8);
  ReplayBuffer replay(game, kHuge);
  for (int g = 0; g < 4; ++g) replay.add(fast_and_full_game(game, rng));
  TempDir dir;
  replay.save(dir / "replay.bin");
  ReplayBuffer loaded(game, kHuge);
  loaded.load(dir / "replay.bin");
  EXPECT_EQ(loaded.bytes(), replay.bytes());
  Rng a(1), b(1);
  TrainBatch x, y;
  replay.sample(200, a, false, x);
  loaded.sample(200, b, false, y);
  EXPECT_EQ(x.obs, y.obs);
  EXPECT_EQ(x.policy, y.policy);
  EXPECT_EQ(x.policy_weight, y.policy_weight);
  EXPECT_EQ(x.root_value, y.root_value);
  EXPECT_EQ(x.phase, y.phase);
}

// ---------------------------------------------------------------------------- auxiliary targets

// `values` (planes of the game's cells) mapped by symmetry `s` as sampling maps observations.
std::vector<float> mapped(const Symmetry& s, const std::vector<float>& values, int cells, bool planes) {
  std::vector<float> out(values.size());
  const int channels = static_cast<int>(values.size()) / cells;
  for (int c = 0; c < channels; ++c) {
    const int image = planes ? s.map_plane(c) : c;
    for (int cell = 0; cell < cells; ++cell)
      out[static_cast<std::size_t>(image * cells + s.cell[static_cast<std::size_t>(cell)])] =
          values[static_cast<std::size_t>(c * cells + cell)];
  }
  return out;
}

TEST(ReplayBuffer, OwnershipIsTheFinalStatesInTheExamplesViewAndMovesWithItsSymmetry) {
  const Game& game = virus_war();
  const int cells = game.observation_shape().cells();
  Rng rng(31);
  const SelfPlayGame record = random_selfplay_game(game, rng);
  const std::unique_ptr<State> final = replay_from_start(game, record.steps, record.steps.size());
  std::vector<std::vector<float>> owner(2, std::vector<float>(static_cast<std::size_t>(cells)));
  for (Player p : {0, 1}) final->ownership(p, owner[static_cast<std::size_t>(p)]);
  ASSERT_NE(std::count(owner[0].begin(), owner[0].end(), 1.0f), 0);
  ASSERT_NE(std::count(owner[0].begin(), owner[0].end(), -1.0f), 0);
  const std::vector<Example> examples = examples_of(game, record);
  ReplayBuffer replay(game, kHuge);
  replay.add(record);
  ASSERT_EQ(game.symmetries().size(), 1u);
  const Symmetry identity{"identity", [&] {
                            std::vector<int> cell(static_cast<std::size_t>(cells));
                            std::iota(cell.begin(), cell.end(), 0);
                            return cell;
                          }(), {}, {}, {}};
  TrainBatch batch;
  replay.sample(300, rng, /*augment=*/true, batch);
  ASSERT_EQ(batch.ownership.size(), static_cast<std::size_t>(300 * cells));
  EXPECT_TRUE(batch.score.empty()) << "Virus War has no score";
  int moved = 0;
  for (int i = 0; i < batch.size; ++i) {
    const auto begin = batch.obs.begin() + static_cast<std::ptrdiff_t>(i) * static_cast<std::ptrdiff_t>(examples[0].obs.size());
    const std::vector<float> obs(begin, begin + static_cast<std::ptrdiff_t>(examples[0].obs.size()));
    const auto own_begin = batch.ownership.begin() + static_cast<std::ptrdiff_t>(i) * cells;
    const std::vector<float> ownership(own_begin, own_begin + cells);
    // Find the example and the symmetry the sample came from by its observation; its
    // ownership must be the example player's final ownership under the same symmetry. A
    // position that the symmetry leaves unchanged matches both: either will do there.
    std::vector<std::vector<float>> candidates;
    bool transposed = false;
    for (const Example& e : examples) {
      for (const Symmetry* s : {&identity, &game.symmetries()[0]}) {
        if (mapped(*s, e.obs, cells, true) != obs) continue;
        candidates.push_back(mapped(*s, owner[static_cast<std::size_t>(e.player)], cells, false));
        transposed = s != &identity && candidates.back() != owner[static_cast<std::size_t>(e.player)];
      }
    }
    ASSERT_FALSE(candidates.empty()) << "sample " << i;
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), ownership), candidates.end()) << "sample " << i;
    moved += candidates.size() == 1 && transposed;
  }
  EXPECT_GT(moved, 50) << "the transposition moved the ownership of many samples";
}

TEST(ReplayBuffer, ScoreMarginIsThePlayersFinalScoreOverTheBestOtherSeats) {
  // toy_race scores the tokens held, so margins are (own - best other) / tokens.
  const std::shared_ptr<const Game> game = any_game("toy_race(players=3,tokens=9)");
  ASSERT_EQ(game->traits().max_score_margin, 9);
  Rng rng(2);
  ReplayBuffer replay(*game, kHuge);
  std::vector<Example> expected;
  std::vector<std::vector<double>> margins;
  for (int g = 0; g < 6; ++g) {
    SelfPlayGame record = random_selfplay_game(*game, rng);
    record.returns = distinct_returns(*game, g);  // so that a value target tells its game
    replay.add(record);
    const std::unique_ptr<State> final = replay_from_start(*game, record.steps, record.steps.size());
    std::vector<double> held(3);
    final->scores(held);
    EXPECT_EQ(held[0] + held[1] + held[2], 9);
    std::vector<double> margin;
    for (int p = 0; p < 3; ++p)
      margin.push_back((held[static_cast<std::size_t>(p)] -
                        std::max(held[static_cast<std::size_t>((p + 1) % 3)], held[static_cast<std::size_t>((p + 2) % 3)])) /
                       9);
    for (Example& e : examples_of(*game, record)) {
      expected.push_back(std::move(e));
      margins.push_back(margin);
    }
  }
  TrainBatch batch;
  replay.sample(300, rng, false, batch);
  ASSERT_EQ(batch.score.size(), 300u);
  EXPECT_TRUE(batch.ownership.empty()) << "toy_race declares no ownership";
  std::set<float> seen;
  for (int i = 0; i < batch.size; ++i) {
    bool found = false;
    for (std::size_t k = 0; k < expected.size() && !found; ++k) {
      if (!is_example(batch, i, expected[k])) continue;
      found = true;
      EXPECT_FLOAT_EQ(batch.score[static_cast<std::size_t>(i)],
                      static_cast<float>(margins[k][static_cast<std::size_t>(expected[k].player)]));
    }
    ASSERT_TRUE(found) << "sample " << i;
    seen.insert(batch.score[static_cast<std::size_t>(i)]);
  }
  EXPECT_GT(seen.size(), 2u);
  std::vector<double> unfinished(3);
  EXPECT_EQ(error_of<InputError>([&] { game->new_initial_state()->scores(unfinished); }),
            "scores: the race is not over");
}

// ---------------------------------------------------------------------------- size

TEST(ReplayBuffer, BytesPerPosition) {
  const Game& game = virus_war();
  ReplayBuffer replay(game, 1000000);
  for (const auto& g : labelled_games(20, 10)) replay.add(g);
  const double positions = static_cast<double>(replay.positions());
  const double without_policy = static_cast<double>(replay.bytes_without_policy()) / positions;
  const double with_policy = static_cast<double>(replay.bytes()) / positions;
  std::printf("Virus War random play, %lld positions: %.2f bytes/position without policy, %.2f with; %lld snapshots\n",
              static_cast<long long>(replay.positions()), without_policy, with_policy,
              static_cast<long long>(replay.snapshots()));
  RecordProperty("bytes_per_position_without_policy", std::to_string(without_policy));
  RecordProperty("bytes_per_position", std::to_string(with_policy));
  // Steps, plies, seats and root values: a few bytes, far below the 3,600 bytes of an observation.
  EXPECT_LT(without_policy, 8.0);
  EXPECT_GT(with_policy, without_policy);
  EXPECT_LT(with_policy, 110.0);
}


TEST(ReplayBuffer, VirusWarMasksAgreeWithTheObservationsTargetPlane) {
  // At the first sub-move of a turn the legal cells are exactly the viewer's targets
  // (plane 4), in the same frame as the policy and mask, with augmentation or without.
  const Game& game = nn_testing::virus_war();
  Rng rng(31);
  ReplayBuffer replay(game, kHuge);
  for (int g = 0; g < 20; ++g) replay.add(nn_testing::random_selfplay_game(game, rng));
  const int cells = 100, actions = game.num_distinct_actions(), obs_size = game.observation_shape().size();
  for (bool augment : {false, true}) {
    TrainBatch batch;
    replay.sample(400, rng, augment, batch);
    int checked = 0;
    for (int i = 0; i < batch.size; ++i) {
      const float* obs = batch.obs.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(obs_size);
      if (obs[6 * cells] == 0 && std::count(obs + 6 * cells, obs + 7 * cells, 1.0f) == 0) continue;  // not sub-move 1 (plane 6)
      ++checked;
      for (int c = 0; c < cells; ++c)
        ASSERT_EQ(batch.mask[static_cast<std::size_t>(i) * actions + c], obs[4 * cells + c])
            << "sample " << i << " cell " << c << (augment ? " (augmented)" : "");
    }
    EXPECT_GT(checked, 50);
  }
}

}  // namespace
}  // namespace boardlab
