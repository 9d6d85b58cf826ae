// Tests for reading records back: records stopped in the middle of a turn, and sample_record on records far longer than a search's recursion could follow.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/errors.h"
#include "core/random_play.h"
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

// The reason load_record gives for refusing `record`, or "(read)".
std::string refusal(const Game& game, const std::string& record) {
  try {
    game.load_record(record);
  } catch (const NotationError& e) {
    return e.what();
  }
  return "(read)";
}

// Issue 36: a record saved in the middle of a Virus War or Klopodavka turn (the web app's
// download, its Analyse button, State.record() in Python) failed with "the turn is
// incomplete". It now ends with kTurnGoesOn and reads back to the same state: its history,
// move number, player to move and the sub-moves still to make.
TEST(RecordMidTurn, EveryStepOfSubMoveGamesReadsBack) {
  for (const char* name : {"virus_war", "virus_war(strict=true)", "klopodavka",
                           "klopodavka(players=4,width=10,height=10)", "war(players=3,width=11,height=11)",
                           "morabaraba", "stratego(variant=barrage)"}) {
    const auto game = load_game(name);
    Rng rng(36);
    std::vector<Action> joint;
    int mid_turn = 0;
    for (int g = 0; g < 3; ++g) {
      auto s = game->new_initial_state();
      for (int step = 0; step < 60 && !s->is_terminal(); ++step) {
        const int number = s->move_number();
        apply_random_step(*s, rng, joint);
        const std::string record = s->record();
        const auto back = game->load_record(record);
        ASSERT_EQ(back->history(), s->history()) << name << ": " << record;
        ASSERT_EQ(back->move_number(), s->move_number()) << name << ": " << record;
        ASSERT_EQ(back->current_player(), s->current_player()) << name << ": " << record;
        ASSERT_EQ(back->legal_actions(), s->legal_actions()) << name << ": " << record;
        ASSERT_EQ(back->hash(), s->hash()) << name << ": " << record;
        ASSERT_EQ(back->record(), record);
        mid_turn += !s->is_terminal() && s->move_number() == number;
      }
    }
    EXPECT_GT(mid_turn, 0) << name << " never stopped in the middle of a turn";
  }
}

TEST(RecordMidTurn, TheMarkIsNeededAndOnlyAtTheEnd) {
  const auto game = load_game("virus_war");
  const auto s = game->load_record("a1-a2-a3 k10-i10-h9 b1 +");
  EXPECT_EQ(s->move_number(), 2);
  EXPECT_EQ(s->current_player(), 0);
  EXPECT_EQ(s->history().size(), 7u);
  EXPECT_EQ(s->record(), "a1-a2-a3 k10-i10-h9 b1 +");
  // A record cut short (without the mark) is still refused, saying how to write a stop mid-turn.
  EXPECT_EQ(refusal(*game, "a1-a2-a3 k10-i10-h9 b1"),
            "record turn 3 'b1': the turn is incomplete, X (player 0) must still move (a record that stops in the "
            "middle of a turn ends with '+')");
  EXPECT_EQ(refusal(*game, "a1-a2-a3 +"),
            "record turn 1 'a1-a2-a3': the record ends with '+' (the turn goes on), but this turn is over");
  EXPECT_EQ(refusal(*game, "a1 + a2"),
            "record turn 2 '+': '+' may only end a record (it marks the last turn as going on)");
  EXPECT_EQ(refusal(*game, "+"), "record: '+' (a turn that goes on) follows no turn");
  EXPECT_EQ(refusal(*game, "a1-a2-a3-a4 +"),
            "record turn 1 'a1-a2-a3-a4', part 4 'a4': the turn already ended after 3 part(s)");
  // A simultaneous round is a whole turn: it never goes on.
  EXPECT_TRUE(refusal(*load_game("squares"), "4c5/2m7 +").ends_with("but this turn is over"));
}

// The players' views of a record stopped mid-turn read back too: a Stratego setup half placed,
// as each side and a spectator saw it, draws a game that reads the same to them.
TEST(RecordMidTurn, HiddenSetupsStoppedHalfwayAreSampledForEachViewer) {
  const auto game = load_game("stratego(variant=barrage)");
  Rng rng(5);
  auto s = game->new_initial_state();
  for (int step = 0; step < 40 + 13; ++step) s->apply(s->random_legal_action(rng));
  ASSERT_TRUE(s->record().ends_with(" +")) << s->record();
  for (Player viewer : {Player{0}, Player{1}, kPublicViewer}) {
    const std::string seen = s->record_for(viewer);
    const auto drawn = game->sample_record(seen, viewer, rng);
    EXPECT_EQ(drawn->record_for(viewer), seen);
    EXPECT_EQ(drawn->history().size(), s->history().size());
    EXPECT_EQ(drawn->current_player(), s->current_player());
  }
}

}  // namespace
}  // namespace boardlab
