// Tests for reading records back: sample_record on records far longer than a search's recursion could follow.
#include <gtest/gtest.h>

#include <string>

#include "core/rng.h"
#include "games/registry.h"

namespace boardlab {
namespace {

// A Morabaraba game that shuffles two cows back and forth for 80,000 turns after a real
// opening (the move cap allows it): sample_record searched it by recursion, one call per
// step, and overflowed the stack (found by fuzz/record); it now keeps its own stack, and one
// state where each step has one reading.
TEST(SampleRecord, FollowsARecordOfTensOfThousandsOfSteps) {
  const auto game = load_game("morabaraba(move_cap=200000)");
  std::string record =
      "c5 f4 d2 b6 d5 g7 d7 d6 d3 b2 c4 c3 e3 f2 a4 e4 a7 a1xa7 a7 d1 f6 b4xf6 g1 g4xd2 d3-d2 e4-e5 e3-d3 g7-f6xc4 "
      "c5-c4 f6-g7";
  for (int i = 0; i < 20000; ++i) record += " d5-c5 f4-e4 c5-d5 e4-f4";
  Rng rng(1);
  const auto sampled = game->sample_record(record, kPublicViewer, rng);
  EXPECT_EQ(sampled->record(), record);
  EXPECT_EQ(sampled->hash(), game->load_record(record)->hash());
}

}  // namespace
}  // namespace boardlab
