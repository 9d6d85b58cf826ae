// Denormals flushed while a network computes, and the caller's floating-point mode left as it was.
#include "nn/denormals.h"

#include <gtest/gtest.h>

#include <vector>

#include "games/registry.h"
#include "nn/model.h"
#include "nn_test_util.h"

namespace boardlab {
namespace {

// volatile: the products must happen at run time, in the thread's current mode.
float times(float a, float b) {
  const volatile float x = a, y = b;
  return x * y;
}

constexpr float kDenormal = 1e-39f;  // below FLT_MIN (1.18e-38)

TEST(FlushDenormals, InsideItDenormalsReadAndComeOutAsZeroAndOutsideArithmeticIsIeeeAgain) {
  ASSERT_TRUE(FlushDenormals::kSupported) << "the machines boardlab runs on are x86-64";
  EXPECT_GT(times(kDenormal, 1.0f), 0.0f);
  {
    const FlushDenormals flush;
    EXPECT_EQ(times(kDenormal, 1.0f), 0.0f);  // a denormal input reads as zero
    EXPECT_EQ(times(1e-30f, 1e-9f), 0.0f);    // a denormal result is written as zero
    EXPECT_GT(times(1e-30f, 1e-7f), 0.0f);    // FLT_MIN (1.18e-38) and above are untouched
  }
  EXPECT_GT(times(kDenormal, 1.0f), 0.0f);
  EXPECT_GT(times(1e-30f, 1e-9f), 0.0f);
}

TEST(FlushDenormals, NestedGuardsRestoreTheModeEachFound) {
  const FlushDenormals outer;
  { const FlushDenormals inner; }
  EXPECT_EQ(times(kDenormal, 1.0f), 0.0f);  // the inner guard put back the outer one's mode
}

TEST(FlushDenormals, APredictionLeavesTheCallersArithmeticAsItFoundIt) {
  const auto game = load_game("virus_war");
  const Model model(nn_testing::tiny_network(1, 4), *game, 1);
  std::vector<float> obs(static_cast<std::size_t>(model.input_shape().size()), 0.5f);
  std::vector<float> logits(static_cast<std::size_t>(model.num_actions())), values(2);
  model.predict(obs.data(), 1, logits.data(), values.data());
  EXPECT_GT(times(kDenormal, 1.0f), 0.0f);  // the network's flush ended with the call
  const FlushDenormals flush;
  model.predict(obs.data(), 1, logits.data(), values.data());
  EXPECT_EQ(times(kDenormal, 1.0f), 0.0f);  // and did not switch off a flush the caller had set
}

}  // namespace
}  // namespace boardlab
