// draw_index: draws in proportion to the weights, never a zero weight, and one uniform draw each.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "core/rng.h"

namespace boardlab {
namespace {

TEST(DrawIndex, DrawsEachIndexInProportionToItsWeight) {
  const std::vector<double> weights = {0.5, 0, 3, 1.5};  // total 5
  std::array<int, 4> counts{};
  Rng rng(7);
  constexpr int kDraws = 50000;
  for (int i = 0; i < kDraws; ++i) ++counts.at(draw_index(rng, weights, 5.0));
  EXPECT_EQ(counts[1], 0);
  for (std::size_t i : {0u, 2u, 3u}) {
    const double p = weights[i] / 5;
    EXPECT_NEAR(counts[i], kDraws * p, 4 * std::sqrt(kDraws * p * (1 - p))) << "index " << i;
  }
}

TEST(DrawIndex, ADrawPastTheRunningSumsTakesTheLastPositiveWeight) {
  // Weights that sum to less than the total given (rounding, at worst): a draw past their sum
  // lands on the last index that can be drawn, never on a trailing zero.
  const std::vector<float> weights = {0.25f, 0.25f, 0.0f};
  Rng rng(3);
  int last = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::size_t k = draw_index(rng, weights, 1.0);
    ASSERT_LT(k, 2u);
    last += k == 1;
  }
  EXPECT_GT(last, 600);  // index 1 takes its own quarter and the missing half
}

TEST(DrawIndex, TakesOneUniformDrawAndReadsWeightsByIndex) {
  Rng a(11), b(11);
  const std::size_t k = draw_index(a, 3, [](std::size_t i) { return static_cast<double>(i + 1); }, 6.0);
  const double u = b.uniform() * 6.0;
  EXPECT_EQ(k, u < 1 ? 0u : u < 3 ? 1u : 2u);
  EXPECT_EQ(a(), b());  // the same stream afterwards
}

}  // namespace
}  // namespace boardlab
