// Tests for what crosses the wire between MPI ranks: game messages as the replay stores them, and a network's weights.
#include "nn/game_message.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/errors.h"
#include "nn/model.h"
#include "tests/error_of.h"
#include "nn_test_util.h"
#include "tests/toys/toys.h"

namespace boardlab {
namespace {

using namespace nn_testing;

std::shared_ptr<const Game> game_named(const std::string& name) {
  return name.starts_with("toy_") ? load_toy(name) : load_game(name);
}

constexpr ActorReport kReport{.network_version = 40, .searches = 1234, .simulations = 56789,
                              .inference_batches = 17, .inference_positions = 900};

TEST(GameMessage, CarriesEveryKindOfGameAsTheReplayStoresIt) {
  // Chance, hidden cards, simultaneous rounds with a target per seat, truncation, root values, fast searches.
  for (const char* name : {"virus_war", "kuhn_poker", "biased_rps", "toy_race", "morabaraba(move_cap=12)"}) {
    const std::shared_ptr<const Game> game = game_named(name);
    Rng rng(5);
    ReplayBuffer sent(*game, 1 << 20), received(*game, 1 << 20);
    for (int g = 0; g < 6; ++g) {
      SelfPlayGame record = random_selfplay_game(*game, rng);
      if (!record.positions.empty()) {
        record.positions.front().targets.front().root_value = 0.25f;
        if (g % 2 == 1) record.positions.back().full_search = false;
      }
      const std::string bytes = encode_game_message(*game, kReport, &record);
      const GameMessage message = decode_game_message(*game, bytes, "actor rank 1");
      ASSERT_TRUE(message.game.has_value()) << name;
      EXPECT_EQ(message.report.network_version, 40);
      EXPECT_EQ(message.report.searches, 1234u);
      EXPECT_EQ(message.report.inference_positions, 900u);
      EXPECT_EQ(message.game->steps, record.steps) << name;  // the players are rebuilt by replay
      EXPECT_EQ(message.game->positions.size(), record.positions.size()) << name;
      sent.add(record);
      received.add(*message.game);
    }
    TempDir dir;
    sent.save(dir / "sent.bin");
    received.save(dir / "received.bin");
    EXPECT_EQ(nn_testing::file_text(dir / "received.bin"), nn_testing::file_text(dir / "sent.bin")) << name;
  }
}

TEST(GameMessage, AGameIsFewerBytesThanItsObservationsAndTheLastMessageCarriesNone) {
  Rng rng(8);
  const SelfPlayGame record = random_selfplay_game(virus_war(), rng);
  const std::string bytes = encode_game_message(virus_war(), kReport, &record);
  // Even with weight on every legal move (a search's is sparser), a position costs fewer
  // bytes than its observation has floats.
  EXPECT_LT(bytes.size(), record.positions.size() * static_cast<std::size_t>(virus_war().observation_shape().size()));
  const GameMessage last = decode_game_message(virus_war(), encode_game_message(virus_war(), kReport, nullptr), "actor rank 3");
  EXPECT_FALSE(last.game.has_value());
  EXPECT_EQ(last.report.simulations, 56789u);
}

TEST(GameMessage, MalformedMessagesAreRefusedNamingTheSender) {
  Rng rng(3);
  const SelfPlayGame record = random_selfplay_game(virus_war(), rng);
  const std::string good = encode_game_message(virus_war(), kReport, &record);
  auto refused = [&](const std::string& bytes) { return error_of([&] { decode_game_message(virus_war(), bytes, "actor rank 2"); }); };
  for (std::size_t cut : {std::size_t{0}, std::size_t{3}, std::size_t{20}, good.size() / 2, good.size() - 1})
    EXPECT_NE(refused(good.substr(0, cut)).find("a message from actor rank 2 is corrupt"), std::string::npos) << cut;
  EXPECT_NE(refused("XXXX" + good.substr(4)).find("not a boardlab game message"), std::string::npos);
  std::string kind = good;
  kind[4] = 'Q';
  EXPECT_NE(refused(kind).find("unknown message kind"), std::string::npos);
  EXPECT_NE(refused(good + "x").find("bytes after the end"), std::string::npos);
  // A game whose first step is no action of the game: its low half lies after the header
  // (4 + 1 + 5 x 8 bytes) and the step count.
  std::string illegal = good;
  const std::uint16_t action = 0xffff;
  std::memcpy(illegal.data() + 4 + 1 + 5 * 8 + 4, &action, 2);
  EXPECT_NE(refused(illegal).find("does not replay"), std::string::npos) << refused(illegal);
  // A negative network version.
  std::string version = good;
  const std::int64_t negative = -5;
  std::memcpy(version.data() + 5, &negative, sizeof negative);
  EXPECT_NE(refused(version).find("negative network version"), std::string::npos);
}

TEST(ModelWeights, ANetworkTakesAnothersWeightsAndPredictsAsItDoes) {
  for (const NetworkConfig& config : {tiny_network(1, 8), tiny_network(2, 16)}) {
    const Model source(config, virus_war(), 1);
    Model target(config, virus_war(), 2);
    const std::string weights = source.weights();
    EXPECT_EQ(weights.size(), source.weights_size());
    EXPECT_EQ(weights.size(), target.weights_size());
    // Parameters are float32; BatchNorm adds its statistics and an int64 counter per layer.
    EXPECT_GT(weights.size(), 4 * static_cast<std::size_t>(source.num_parameters()));
    const nn_testing::Positions positions = random_positions(virus_war(), 6, 4);
    const std::vector<float> obs = positions.observations(virus_war());
    EXPECT_NE(predict_all(target, obs, 6), predict_all(source, obs, 6));
    target.set_weights(weights, "a test");
    EXPECT_EQ(predict_all(target, obs, 6), predict_all(source, obs, 6));
    EXPECT_EQ(target.weights(), weights);
  }
}

TEST(ModelWeights, WrongSizesAndNonFiniteWeightsAreRefusedAndChangeNothing) {
  const Model source(tiny_network(1, 8), virus_war(), 1);
  Model target(tiny_network(1, 8), virus_war(), 2);
  const std::string before = target.weights();
  const std::string short_weights = source.weights().substr(1);
  EXPECT_NE(error_of([&] { target.set_weights(short_weights, "actor rank 9's test"); }).find("actor rank 9's test"),
            std::string::npos);
  std::string nan_weights = source.weights();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(nan_weights.data() + 8, &nan, sizeof nan);
  EXPECT_NE(error_of([&] { target.set_weights(nan_weights, "the learner"); }).find("NaN or infinity"), std::string::npos);
  EXPECT_EQ(target.weights(), before);
  const Model wider(tiny_network(1, 16), virus_war(), 1);
  EXPECT_THROW(target.set_weights(wider.weights(), "a wider network"), InputError);
}

}  // namespace
}  // namespace boardlab
