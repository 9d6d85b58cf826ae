// The residual network's geometry: a grid whose columns wrap is padded circularly, others with zeros.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/rng.h"
#include "games/registry.h"
#include "nn/model.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

using nn_testing::tiny_network;

// Random observations, and the same with every row's columns turned one place (column c to c + 1).
struct TurnedPair {
  std::vector<float> obs, turned;
};

TurnedPair random_turned_pair(const ObservationShape& shape, Rng& rng) {
  TurnedPair out{std::vector<float>(static_cast<std::size_t>(shape.size())), {}};
  for (float& v : out.obs) v = static_cast<float>(rng.uniform());
  out.turned = out.obs;
  for (int row = 0; row < shape.channels * shape.height; ++row)
    for (int c = 0; c < shape.width; ++c)
      out.turned[static_cast<std::size_t>(row * shape.width + (c + 1) % shape.width)] =
          out.obs[static_cast<std::size_t>(row * shape.width + c)];
  return out;
}

// The largest difference between the values of a pair, over a few random pairs.
float value_change_when_turned(const Game& game, std::uint64_t seed) {
  const Model model(tiny_network(2, 8), game, seed);
  Rng rng(seed);
  std::vector<float> logits(static_cast<std::size_t>(model.num_actions()));
  std::vector<float> value(static_cast<std::size_t>(model.num_players())), turned_value(value.size());
  float change = 0;
  for (int i = 0; i < 4; ++i) {
    const TurnedPair pair = random_turned_pair(model.input_shape(), rng);
    model.predict(pair.obs.data(), 1, logits.data(), value.data());
    model.predict(pair.turned.data(), 1, logits.data(), turned_value.data());
    for (std::size_t p = 0; p < value.size(); ++p) change = std::max(change, std::abs(value[p] - turned_value[p]));
  }
  return change;
}

// Morabaraba's rows are rings: every convolution is equivariant under turning them and the value
// head pools over all cells, so the value cannot change. Zero padding would make the two
// columns at the seam edges and change it, as it does on Virus War's board.
TEST(Network, OnWrappingColumnsTurningEveryRowLeavesTheValueUnchanged) {
  const auto morabaraba = load_game("morabaraba");
  ASSERT_TRUE(morabaraba->observation_shape().wrap_columns);
  EXPECT_LT(value_change_when_turned(*morabaraba, 3), 1e-5f);
  ASSERT_FALSE(nn_testing::virus_war().observation_shape().wrap_columns);
  EXPECT_GT(value_change_when_turned(nn_testing::virus_war(), 3), 1e-4f);
}

}  // namespace
}  // namespace boardlab
