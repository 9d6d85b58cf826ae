// Tests for Squares against shared/rules/squares.md, with an independent model of the rules on coordinates, not bitmasks.
#include "games/squares/squares.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/random_play.h"
#include "core/rng.h"
#include "games/registry.h"

namespace boardlab {
namespace {

constexpr Action kPass = SquaresGame::kPass;

const SquaresGame& game() {
  // Loaded through the registry so the tests exercise the same path as every user.
  static const auto loaded = load_game("squares");
  return dynamic_cast<const SquaresGame&>(*loaded);
}

std::unique_ptr<SquaresState> as_squares(std::unique_ptr<State> state) {
  return std::unique_ptr<SquaresState>(&dynamic_cast<SquaresState&>(*state.release()));
}

std::unique_ptr<SquaresState> initial() { return as_squares(game().new_initial_state()); }
std::unique_ptr<SquaresState> from_record(const std::string& record) { return as_squares(game().load_record(record)); }

// The action of a square written in the tests' own reading of the notation (side, file, rank).
Action sq(int size, char file, int rank) {
  const std::string files = "abcdefghiklmnopqrstuv";
  const int x0 = static_cast<int>(files.find(file)), y0 = rank - 1;
  // Ordered by side, each side's corners row-major: the rule file's action order.
  int offset = 0;
  for (int s = 2; s < size; s += 2) offset += (21 - s) * (21 - s);
  return offset + (21 - size) * y0 + x0;
}

void play(SquaresState& s, Action red, Action blue) {
  const std::vector<Action> joint = {red, blue};
  s.apply_joint(joint);
}

std::vector<Action> legal_of(const State& s, Player p) { return s.legal_actions(p); }
bool legal(const State& s, Player p, Action a) {
  const std::vector<Action> all = legal_of(s, p);
  return std::binary_search(all.begin(), all.end(), a);
}

// ------------------------------------------------------------------ the reference model

// A rectangle of the field in point coordinates: [x0, x1] × [y0, y1].
struct Rect {
  int x0, y0, x1, y1;
};
Rect rect_of(Action a) {
  const Placement p = placement_of(a);
  return {p.x0, p.y0, p.x0 + p.size, p.y0 + p.size};
}
// Interiors intersect: both ranges overlap with positive length.
bool overlap(const Rect& a, const Rect& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }
// Closed sets intersect (a shared corner point is enough) but interiors do not.
bool touch(const Rect& a, const Rect& b) {
  return a.x0 <= b.x1 && b.x0 <= a.x1 && a.y0 <= b.y1 && b.y0 <= a.y1 && !overlap(a, b);
}
Rect intersection(const Rect& a, const Rect& b) {
  return {std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
}

// The rule file's legality, literally: against every square on the field and every green zone
// (the intersection of two overlapping squares of different players).
std::vector<Action> reference_legal(const SquaresState& s, Player p) {
  if (s.is_terminal()) return {};
  std::vector<Rect> all, own, green;
  const auto squares = s.squares();
  for (const auto& a : squares) {
    all.push_back(rect_of(a.action));
    if (a.owner == p) own.push_back(rect_of(a.action));
    for (const auto& b : squares)
      if (a.owner == 0 && b.owner == 1 && overlap(rect_of(a.action), rect_of(b.action)))
        green.push_back(intersection(rect_of(a.action), rect_of(b.action)));
  }
  std::vector<Action> out;
  for (Action a = 0; a < SquaresGame::kNumPlacements; ++a) {
    const Rect r = rect_of(a);
    if (std::any_of(all.begin(), all.end(), [&](const Rect& q) { return overlap(r, q); })) continue;
    const bool touches = std::any_of(own.begin(), own.end(), [&](const Rect& q) { return touch(r, q); }) ||
                         std::any_of(green.begin(), green.end(), [&](const Rect& q) { return touch(r, q); });
    if (own.empty() || touches) out.push_back(a);
  }
  out.push_back(kPass);
  return out;
}

// A random round that often makes the two squares collide (equal or different sides), so
// that green zones and removed squares are common.
void colliding_round(SquaresState& s, Rng& rng) {
  const Action red = s.random_legal_action(0, rng);
  Action blue = s.random_legal_action(1, rng);
  if (red != kPass && rng.below(2) == 0) {
    std::vector<Action> hits;
    for (Action a : legal_of(s, 1))
      if (a != kPass && overlap(rect_of(a), rect_of(red))) hits.push_back(a);
    if (!hits.empty()) blue = hits[rng.below(static_cast<std::uint32_t>(hits.size()))];
  }
  play(s, red, blue);
}

// ------------------------------------------------------------------ actions and notation

TEST(SquaresActions, OrderedBySideThenCornerRowMajorFromA1) {
  auto s = initial();
  EXPECT_EQ(s->action_to_string(0, 0), "2a1");
  EXPECT_EQ(s->action_to_string(0, 1), "2b1");
  EXPECT_EQ(s->action_to_string(0, 19), "2a2");
  EXPECT_EQ(s->action_to_string(0, 360), "2t19");
  EXPECT_EQ(s->action_to_string(0, 361), "4a1");
  EXPECT_EQ(s->action_to_string(0, 1044), "10a1");
  EXPECT_EQ(s->action_to_string(0, 1164), "10l11");
  EXPECT_EQ(s->action_to_string(0, 1165), "pass");
  for (Action a = 0; a < SquaresGame::kNumActions; ++a) {
    const std::string text = s->action_to_string(1, a);
    ASSERT_EQ(s->string_to_action(0, text), a) << text;
    if (a < kPass) { ASSERT_EQ(sq(placement_of(a).size, text[text.find_first_not_of("0123456789")], placement_of(a).y0 + 1), a); }
  }
  EXPECT_EQ(s->string_to_action(0, "4C5"), sq(4, 'c', 5));
}

TEST(SquaresActions, BadTextIsRefusedWithTheReason) {
  auto s = initial();
  const auto why = [&](const std::string& text) {
    try {
      s->string_to_action(0, text);
    } catch (const NotationError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("3c5").find("the side must be 2, 4, 6, 8 or 10"), std::string::npos);
  EXPECT_NE(why("12a1").find("the side must be 2, 4, 6, 8 or 10"), std::string::npos);
  EXPECT_NE(why("04a1").find("the side must be"), std::string::npos);
  EXPECT_NE(why("4j5").find("there is no j"), std::string::npos);
  EXPECT_NE(why("4w5").find("files are a to v"), std::string::npos);
  EXPECT_NE(why("4c0").find("rank must be a number 1..21"), std::string::npos);
  EXPECT_NE(why("4c22").find("rank must be a number 1..21"), std::string::npos);
  EXPECT_NE(why("4c05").find("rank must be a number 1..21"), std::string::npos);
  EXPECT_NE(why("4c").find("rank must be a number 1..21"), std::string::npos);
  EXPECT_NE(why("c5").find("like 4c5"), std::string::npos);
  EXPECT_NE(why("").find("like 4c5"), std::string::npos);
  EXPECT_NE(why("10m1").find("does not fit in the field there: its lower-left corner must lie on files a..l and ranks 1..11"),
            std::string::npos);
  EXPECT_NE(why("2a20").find("does not fit"), std::string::npos);
  EXPECT_NE(why("Pass").find("is not a Squares action"), std::string::npos);
  EXPECT_NO_THROW(s->string_to_action(0, "2t19"));
  EXPECT_NO_THROW(s->string_to_action(0, "10l11"));
}

TEST(SquaresActions, RoundsReadAndWriteAsRedSlashBlue) {
  auto s = from_record("4c5/2m7 pass/pass");
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->record(), "4c5/2m7 pass/pass");
  EXPECT_EQ(s->history(), (std::vector<Step>{{0, sq(4, 'c', 5)}, {1, sq(2, 'm', 7)}, {0, kPass}, {1, kPass}}));
  EXPECT_EQ(from_record("pass/pass")->record(), "pass/pass");
  const auto refused = [](const std::string& record) {
    try {
      game().load_record(record);
    } catch (const NotationError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refused("4c5").find("one action per player (2)"), std::string::npos);
  EXPECT_NE(refused("4c5/2m7/2a1").find("one action per player (2)"), std::string::npos);
  EXPECT_NE(refused("4c5/3m7").find("the side must be"), std::string::npos);
  EXPECT_NE(refused("pass/pass 2a1/2c1").find("the game is already over"), std::string::npos);
  // Blue's 2a1 overlaps nothing at round one, but at round two Red's 2a1 is on the field.
  EXPECT_NE(refused("2a1/2m7 2m7/2c3").find("overlaps a square on the field"), std::string::npos);
}

TEST(SquaresActions, RecordsOfRandomGamesReadBack) {
  Rng rng(5);
  std::vector<Action> joint;
  for (int g = 0; g < 50; ++g) {
    auto s = initial();
    const int stop = static_cast<int>(rng.below(60));
    while (!s->is_terminal() && s->move_number() < stop) apply_random_step(*s, rng, joint);
    const auto back = from_record(s->record());
    ASSERT_EQ(back->history(), s->history());
    ASSERT_EQ(back->hash(), s->hash());
    ASSERT_EQ(back->to_string(), s->to_string());
  }
}

// ------------------------------------------------------------------ geometry

TEST(SquaresGeometry, CornerAndEdgeContactTouchASharedCellOverlapsAGapIsNeither) {
  auto s = initial();
  play(*s, sq(2, 'a', 1), sq(2, 's', 19));  // Red covers the cells of a1..c3, Blue the top right
  EXPECT_TRUE(legal(*s, 0, sq(2, 'c', 3))) << "a shared corner point is a touch";
  EXPECT_TRUE(legal(*s, 0, sq(2, 'c', 1))) << "a shared edge is a touch";
  EXPECT_TRUE(legal(*s, 0, sq(4, 'a', 3))) << "a shared edge is a touch";
  EXPECT_TRUE(legal(*s, 0, sq(4, 'b', 3))) << "part of an edge is a touch";
  EXPECT_FALSE(legal(*s, 0, sq(2, 'b', 2))) << "one shared cell is an overlap";
  EXPECT_FALSE(legal(*s, 0, sq(2, 'd', 1))) << "a gap of one cell is no touch";
  EXPECT_FALSE(legal(*s, 0, sq(2, 'd', 4))) << "a gap of one cell diagonally is no touch";
  EXPECT_FALSE(legal(*s, 1, sq(2, 'c', 3))) << "Red's squares do not count for Blue";
  EXPECT_TRUE(legal(*s, 1, sq(2, 'q', 17))) << "Blue's corner touch";
  EXPECT_EQ(s->illegality(0, sq(2, 'b', 2)), "it overlaps a square on the field (the cell at b2 is covered)");
  EXPECT_EQ(s->illegality(0, sq(2, 'd', 1)), "it touches no square of Red and no green zone");
  EXPECT_EQ(s->illegality(0, sq(2, 'c', 3)), "");
}

TEST(SquaresGeometry, FirstSquareGoesAnywhereAndTheFieldBoundsTheCorners) {
  auto s = initial();
  for (Player p : {0, 1}) {
    const std::vector<Action> all = legal_of(*s, p);
    ASSERT_EQ(all.size(), 1166u);
    EXPECT_EQ(s->num_legal(p), 1166);
  }
}

TEST(SquaresGeometry, BitmaskLegalSetsEqualTheReferenceOnRandomPositions) {
  Rng rng(11);
  int positions = 0, with_green = 0, with_removal = 0;
  for (int g = 0; positions < 3000; ++g) {
    auto s = initial();
    while (!s->is_terminal()) {
      for (Player p : {0, 1}) ASSERT_EQ(legal_of(*s, p), reference_legal(*s, p)) << "player " << p << "\n" << s->to_string();
      ++positions;
      with_green += !s->green().empty();
      const int before = static_cast<int>(s->squares().size());
      colliding_round(*s, rng);
      const auto& h = s->history();
      const int placed = (h[h.size() - 2].action != kPass) + (h.back().action != kPass);
      with_removal += static_cast<int>(s->squares().size()) - before < placed;
    }
    ASSERT_EQ(legal_of(*s, 0), std::vector<Action>{});
    ASSERT_EQ(legal_of(*s, 1), std::vector<Action>{});
  }
  EXPECT_GT(with_green, 300) << "green zones must be common in these games";
  EXPECT_GT(with_removal, 100) << "removed squares must be common in these games";
}

// ------------------------------------------------------------------ collisions

TEST(SquaresCollision, NoOverlapBothStay) {
  auto s = initial();
  play(*s, sq(4, 'c', 3), sq(2, 'g', 7));  // Red's cells c..f × 3..6 and Blue's g..h × 7..8 touch at g7
  EXPECT_EQ(s->squares().size(), 2u);
  EXPECT_EQ(s->score(0), 16);
  EXPECT_EQ(s->score(1), 4);
  EXPECT_TRUE(s->green().empty());
  EXPECT_EQ(s->cells(0), Field::square(4, 2, 2));
  EXPECT_EQ(s->cells(1), Field::square(2, 6, 6));
}

TEST(SquaresCollision, DifferentSidesTheSmallerStays) {
  for (const bool red_smaller : {false, true}) {
    auto s = initial();
    const Action big = sq(4, 'c', 3), small = sq(2, 'e', 5);
    if (red_smaller) play(*s, small, big);
    else play(*s, big, small);
    const Player winner = red_smaller ? 0 : 1, loser = 1 - winner;
    ASSERT_EQ(s->squares().size(), 1u);
    EXPECT_EQ(s->squares()[0].owner, winner);
    EXPECT_EQ(s->squares()[0].action, small);
    EXPECT_EQ(s->score(winner), 4);
    EXPECT_EQ(s->score(loser), 0);
    EXPECT_TRUE(s->cells(loser).empty());
    EXPECT_TRUE(s->green().empty());
    // The loser has no square on the field: it may place anywhere free, far from everything.
    EXPECT_TRUE(legal(*s, loser, sq(10, 'l', 11)));
    EXPECT_TRUE(legal(*s, loser, sq(2, 'a', 1)));
    EXPECT_FALSE(legal(*s, loser, sq(2, 'e', 5))) << "but not over the square that stayed";
    EXPECT_FALSE(legal(*s, winner, sq(10, 'l', 11))) << "the winner must touch its square";
    EXPECT_EQ(static_cast<int>(legal_of(*s, loser).size()), static_cast<int>(reference_legal(*s, loser).size()));
  }
}

TEST(SquaresCollision, EqualSidesBothStayAndTheirIntersectionTurnsGreen) {
  auto s = initial();
  play(*s, sq(4, 'c', 3), sq(4, 'e', 4));  // cells x 2..5 × y 2..5 and x 4..7 × y 3..6
  ASSERT_EQ(s->squares().size(), 2u);
  Field expected;
  for (int y = 3; y <= 5; ++y)
    for (int x = 4; x <= 5; ++x) expected.row[y] |= 1u << x;
  EXPECT_EQ(s->green(), expected) << "the green zone is exactly the 2×3 intersection e4..g7";
  EXPECT_EQ(s->green().count(), 6);
  EXPECT_EQ(s->score(0), 16) << "the green zone counts for Red";
  EXPECT_EQ(s->score(1), 16) << "and for Blue";
  // Nobody may place over the green zone, and it counts as both players' cells.
  EXPECT_FALSE(legal(*s, 0, sq(2, 'e', 4)));
  EXPECT_FALSE(legal(*s, 1, sq(2, 'e', 4)));
  play(*s, kPass, kPass);
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
  std::vector<double> score(2);
  s->scores(score);
  EXPECT_EQ(score, (std::vector<double>{16, 16}));
  std::vector<float> owner(kFieldCells);
  s->ownership(0, owner);
  EXPECT_EQ(owner[20 * 4 + 4], 0.0f) << "green: both own it";
  EXPECT_EQ(owner[20 * 2 + 2], 1.0f) << "Red's alone";
  EXPECT_EQ(owner[20 * 6 + 7], -1.0f) << "Blue's alone";
  EXPECT_EQ(owner[20 * 19 + 19], 0.0f) << "empty";
  EXPECT_EQ(std::count(owner.begin(), owner.end(), 1.0f), 10);
  EXPECT_EQ(std::count(owner.begin(), owner.end(), -1.0f), 10);
  s->ownership(1, owner);
  EXPECT_EQ(owner[20 * 2 + 2], -1.0f);
  EXPECT_EQ(owner[20 * 6 + 7], 1.0f);
}

TEST(SquaresCollision, IdenticalSquaresAreAllGreenAndTouchingTheGreenZoneIsLegalForBoth) {
  auto s = initial();
  play(*s, sq(2, 'h', 8), sq(2, 'h', 8));
  EXPECT_EQ(s->green(), Field::square(2, 7, 7));
  EXPECT_EQ(s->score(0), 4);
  EXPECT_EQ(s->score(1), 4);
  for (Player p : {0, 1}) {
    EXPECT_TRUE(legal(*s, p, sq(2, 'k', 8))) << "edge contact with the green zone, player " << p;
    EXPECT_TRUE(legal(*s, p, sq(4, 'd', 4))) << "corner contact with the green zone, player " << p;
    EXPECT_FALSE(legal(*s, p, sq(2, 'l', 8))) << "a gap of one cell, player " << p;
    EXPECT_FALSE(legal(*s, p, sq(2, 'a', 1))) << "a player with a square on the field must touch, player " << p;
  }
}

TEST(SquaresCollision, AGreenZoneBelongsToBothButTheSquaresAroundItDoNot) {
  // Red's 4a1 and Blue's 4c1 make the green zone c1..e5 (cells c..d × 1..4).
  auto s = initial();
  play(*s, sq(4, 'a', 1), sq(4, 'c', 1));
  EXPECT_EQ(s->green(), (Field::square(4, 0, 0) & Field::square(4, 2, 0)));
  EXPECT_EQ(s->green().count(), 8);
  for (Player p : {0, 1}) EXPECT_TRUE(legal(*s, p, sq(2, 'c', 5))) << "on top of the green zone, player " << p;
  EXPECT_FALSE(legal(*s, 0, sq(2, 'g', 1))) << "touching only Blue's square is not enough for Red";
  EXPECT_TRUE(legal(*s, 1, sq(2, 'g', 1)));
  EXPECT_FALSE(legal(*s, 0, sq(2, 'g', 5))) << "nor is Blue's corner";
}

// ------------------------------------------------------------------ refusals and the end

TEST(SquaresRules, IllegalRoundsAreRefusedWithTheReasonAndChangeNothing) {
  auto s = initial();
  play(*s, sq(2, 'a', 1), sq(2, 's', 19));
  const auto refused = [&](std::vector<Action> joint) {
    const std::string text = s->to_string();
    const auto history = s->history();
    const auto hash = s->hash();
    const auto legal0 = legal_of(*s, 0), legal1 = legal_of(*s, 1);
    std::string message = "accepted";
    try {
      s->apply_joint(joint);
    } catch (const IllegalActionError& e) {
      message = e.what();
    }
    EXPECT_EQ(s->to_string(), text);
    EXPECT_EQ(s->history(), history);
    EXPECT_EQ(s->hash(), hash);
    EXPECT_EQ(legal_of(*s, 0), legal0);
    EXPECT_EQ(legal_of(*s, 1), legal1);
    return message;
  };
  EXPECT_EQ(refused({sq(2, 'b', 2), kPass}),
            "illegal action 2b2 of Red: it overlaps a square on the field (the cell at b2 is covered)");
  EXPECT_EQ(refused({kPass, sq(2, 'a', 1)}),
            "illegal action 2a1 of Blue: it overlaps a square on the field (the cell at a1 is covered)");
  EXPECT_EQ(refused({sq(2, 'd', 1), kPass}), "illegal action 2d1 of Red: it touches no square of Red and no green zone");
  EXPECT_EQ(refused({sq(2, 'c', 3), sq(2, 'c', 3)}),
            "illegal action 2c3 of Blue: it touches no square of Blue and no green zone");
  EXPECT_EQ(refused({-1, kPass}), "illegal action -1 of Red: action -1 is outside 0..1165");
  EXPECT_EQ(refused({kPass, 1166}), "illegal action 1166 of Blue: action 1166 is outside 0..1165");
  EXPECT_EQ(refused({kPass}), "illegal round: one action per player (2: Red, Blue), got 1");
  EXPECT_EQ(refused({kPass, kPass, kPass}), "illegal round: one action per player (2: Red, Blue), got 3");
  // A single action is never a round.
  EXPECT_THROW(s->apply(kPass), IllegalActionError);
  play(*s, kPass, kPass);
  EXPECT_EQ(refused({kPass, kPass}), "illegal round: the game is over");
}

TEST(SquaresRules, TheGameEndsOnADoublePassOnly) {
  auto s = initial();
  play(*s, kPass, sq(2, 'a', 1));
  EXPECT_FALSE(s->is_terminal());
  play(*s, sq(2, 'k', 10), kPass);
  EXPECT_FALSE(s->is_terminal());
  play(*s, kPass, kPass);
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->move_number(), 3);
  EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
  EXPECT_EQ(s->to_string().substr(s->to_string().rfind('\n') + 1), "draw");
}

TEST(SquaresRules, APlayerWithoutPlacementMustPassAndTheFullFieldEnds) {
  auto s = initial();
  play(*s, sq(10, 'a', 1), sq(10, 'l', 1));
  EXPECT_GT(legal_of(*s, 0).size(), 1u);
  play(*s, sq(10, 'a', 11), sq(10, 'l', 11));
  EXPECT_EQ(legal_of(*s, 0), std::vector<Action>{kPass});
  EXPECT_EQ(legal_of(*s, 1), std::vector<Action>{kPass});
  EXPECT_FALSE(s->is_terminal()) << "the game ends when both pass, not when the field is full";
  play(*s, kPass, kPass);
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->score(0), 200);
  EXPECT_EQ(s->score(1), 200);
}

TEST(SquaresRules, LargerAreaWinsAndScoresAreReported) {
  auto s = from_record("4c3/2m7 pass/2o7 pass/pass");
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{1, -1}));
  std::vector<double> score(2);
  s->scores(score);
  EXPECT_EQ(score, (std::vector<double>{16, 8}));
  EXPECT_EQ(s->to_string().substr(s->to_string().rfind('\n') + 1), "Red wins");
  EXPECT_NE(s->to_string().find("Blue 8: 2m7 2o7\n"), std::string::npos);
  auto t = from_record("2a1/4m7 pass/pass");
  EXPECT_EQ(t->returns(), (std::vector<double>{-1, 1}));
  EXPECT_THROW(initial()->scores(score), InputError);
  EXPECT_EQ(game().traits().max_score_margin, 400);
}

TEST(SquaresRules, GameFacts) {
  const SquaresGame& g = game();
  EXPECT_EQ(g.num_distinct_actions(), 1166);
  EXPECT_EQ(g.traits().pass_action, 1165);
  EXPECT_TRUE(g.type().simultaneous());
  EXPECT_EQ(g.max_game_length(), 202);
  EXPECT_TRUE(g.traits().has_ownership);
  EXPECT_EQ(g.observation_shape().channels, 18);
  EXPECT_EQ(g.observation_shape().cells(), 400);
  EXPECT_EQ(g.symmetries().size(), 7u);
  EXPECT_EQ(initial()->current_player(), kSimultaneousPlayer);
}

TEST(SquaresRules, EqualFieldsHashEquallyWhateverTheOrder) {
  // The cells decide the future (legality, scores), not the order the squares came in.
  const auto a = from_record("2a1/2k10 2c1/2m10");
  const auto b = from_record("2c1/2m10 2a1/2k10");
  EXPECT_EQ(a->cells(0), b->cells(0));
  EXPECT_EQ(a->hash(), b->hash());
  EXPECT_NE(a->hash(), from_record("2a1/2k10 2c1/2k12")->hash());
  EXPECT_NE(a->hash(), from_record("2a1/2k10 2c1/2m10 pass/pass")->hash()) << "the end is part of the state";
  // Red's square where Blue's was, and Blue's where Red's was: another state.
  EXPECT_NE(from_record("2a1/2k10")->hash(), from_record("2k10/2a1")->hash());
  // A green zone against the same cells as two separate squares of different players.
  EXPECT_NE(from_record("2a1/2a1")->hash(), from_record("2a1/pass")->hash());
}

// ------------------------------------------------------------------ observation

TEST(SquaresObservation, PlanesFromTheViewersSide) {
  auto s = from_record("4c3/4e4 2a1/pass");  // green e4..f6; Red also owns a1..b2
  std::vector<float> obs(18 * 400);
  const auto plane = [&](int c, int x, int y) { return obs[c * 400 + 20 * y + x]; };
  for (Player p : {0, 1}) {
    s->observation(p, obs);
    const Player q = 1 - p;
    for (int y = 0; y < 20; ++y)
      for (int x = 0; x < 20; ++x) {
        ASSERT_EQ(plane(0, x, y), s->cells(p).has(x, y) ? 1.0f : 0.0f);
        ASSERT_EQ(plane(1, x, y), s->cells(q).has(x, y) ? 1.0f : 0.0f);
        ASSERT_EQ(plane(2, x, y), s->green().has(x, y) ? 1.0f : 0.0f);
        ASSERT_EQ(plane(13, x, y), 1.0f);
        ASSERT_EQ(plane(14, x, y), 1.0f);
        ASSERT_EQ(plane(15, x, y), 1.0f);
        ASSERT_FLOAT_EQ(plane(16, x, y), p == 0 ? 20.0f / 400 : 16.0f / 400);
        ASSERT_FLOAT_EQ(plane(17, x, y), p == 0 ? 16.0f / 400 : 20.0f / 400);
      }
    // Coverage planes: a cell is marked when some legal square of that side covers it.
    Corners corners;
    for (int side = 0; side < 2; ++side) {
      s->legal_corners(side == 0 ? p : q, corners);
      for (int k = 0; k < kNumSizes; ++k)
        for (int y = 0; y < 20; ++y)
          for (int x = 0; x < 20; ++x) {
            bool any = false;
            const int n = size_of(k);
            for (int y0 = std::max(0, y - n + 1); y0 <= y; ++y0)
              for (int x0 = std::max(0, x - n + 1); x0 <= x; ++x0) any = any || corners[k].has(x0, y0);
            ASSERT_EQ(plane(3 + 5 * side + k, x, y), any ? 1.0f : 0.0f) << p << " " << side << " " << k;
          }
    }
  }
  // Red's frontier: the 2-square a3 touches both Red squares and covers the cell a3.
  s->observation(0, obs);
  EXPECT_EQ(plane(3, 0, 2), 1.0f);
  EXPECT_EQ(plane(3, 2, 2), 0.0f) << "Red's own cell";
  EXPECT_EQ(plane(8, 0, 19), 0.0f) << "Blue cannot reach the top left corner";
  EXPECT_EQ(plane(3, 0, 19), 0.0f);
  // Before anyone placed: nothing owned, every cell reachable.
  initial()->observation(1, obs);
  EXPECT_EQ(plane(13, 5, 5), 0.0f);
  EXPECT_EQ(plane(7, 19, 19), 1.0f);
}

// ------------------------------------------------------------------ symmetries

TEST(SquaresSymmetry, LegalSetsObservationsAndOwnershipMapOntoTheImage) {
  const SquaresGame& g = game();
  Rng rng(3);
  std::vector<float> obs(18 * 400), image_obs(18 * 400), own(400), image_own(400);
  for (int n = 0; n < 60; ++n) {
    auto s = initial();
    const int stop = static_cast<int>(rng.below(30));
    while (!s->is_terminal() && s->move_number() < stop) colliding_round(*s, rng);
    for (int k = 0; k < static_cast<int>(g.symmetries().size()); ++k) {
      const Symmetry& sym = g.symmetries()[k];
      const auto image = as_squares(g.apply_symmetry(*s, k));
      for (Player p : {0, 1}) {
        std::set<Action> expected, actual;
        for (Action a : legal_of(*s, p)) expected.insert(sym.action[a]);
        for (Action a : legal_of(*image, p)) actual.insert(a);
        ASSERT_EQ(actual, expected) << sym.name;
        s->observation(p, obs);
        image->observation(p, image_obs);
        for (float v : obs) ASSERT_TRUE(v >= 0.0f && v <= 1.0f) << "observations lie in [0, 1]";
        for (int c = 0; c < 18; ++c)
          for (int i = 0; i < 400; ++i) ASSERT_EQ(image_obs[c * 400 + sym.cell[i]], obs[c * 400 + i]) << sym.name;
        s->ownership(p, own);
        image->ownership(p, image_own);
        for (int i = 0; i < 400; ++i) ASSERT_EQ(image_own[sym.cell[i]], own[i]) << sym.name;
      }
      EXPECT_EQ(image->score(0), s->score(0));
      EXPECT_EQ(image->score(1), s->score(1));
    }
  }
  // A known image: mirroring left-right sends 4a1 (cells a..d) to 4r1 (cells r..u).
  const auto& mirror = g.symmetries()[0];
  EXPECT_EQ(mirror.name, "mirror left-right");
  EXPECT_EQ(mirror.action[sq(4, 'a', 1)], sq(4, 'r', 1));
  EXPECT_EQ(mirror.cell[0], 19);
  EXPECT_EQ(mirror.action[kPass], kPass);
}

// ------------------------------------------------------------------ random play

TEST(SquaresRandomGames, InvariantsHoldOverTenThousandGames) {
  Rng rng(2024);
  std::vector<Action> joint;
  int longest = 0, draws = 0, red_wins = 0;
  for (int g = 0; g < 10000; ++g) {
    auto s = initial();
    while (!s->is_terminal()) {
      const int covered = s->occupied().count();
      const int squares_before = static_cast<int>(s->squares().size());
      apply_random_step(*s, rng, joint);
      const bool double_pass = joint[0] == kPass && joint[1] == kPass;
      ASSERT_EQ(s->is_terminal(), double_pass) << "the game ends at a double pass, and only there";
      if (!double_pass) { ASSERT_GE(s->occupied().count(), covered + 4) << "a round covers at least 4 new cells"; }
      ASSERT_GE(static_cast<int>(s->squares().size()), squares_before);
      for (Player p : {0, 1}) ASSERT_EQ(s->score(p), s->cells(p).count());
    }
    const int length = static_cast<int>(s->history().size());
    ASSERT_LE(length, game().max_game_length());
    longest = std::max(longest, length);
    // At the end: scores are the sum of the squares' areas; squares of one player never
    // overlap; squares of different players overlap only in a green zone, and the green
    // cells are exactly those intersections; each player's cells are the union of its squares.
    int area[2] = {0, 0};
    Field cells[2], green;
    const auto squares = s->squares();
    for (std::size_t i = 0; i < squares.size(); ++i) {
      const Placement a = placement_of(squares[i].action);
      area[squares[i].owner] += a.size * a.size;
      cells[squares[i].owner] |= a.cells();
      for (std::size_t j = i + 1; j < squares.size(); ++j) {
        const Placement b = placement_of(squares[j].action);
        if (!a.cells().intersects(b.cells())) continue;
        ASSERT_NE(squares[i].owner, squares[j].owner) << "two squares of one player overlap";
        ASSERT_EQ(a.size, b.size) << "overlapping squares of different sides both stayed";
        green |= a.cells() & b.cells();
      }
    }
    ASSERT_EQ(s->green(), green);
    for (Player p : {0, 1}) {
      ASSERT_EQ(s->score(p), area[p]);
      ASSERT_EQ(s->cells(p), cells[p]);
    }
    const std::vector<double> r = s->returns();
    ASSERT_EQ(r[0], area[0] > area[1] ? 1 : area[0] < area[1] ? -1 : 0);
    ASSERT_EQ(r[0] + r[1], 0);
    draws += r[0] == 0;
    red_wins += r[0] == 1;
  }
  EXPECT_GT(longest, 40);
  EXPECT_GT(red_wins, 3000);
  EXPECT_LT(red_wins, 7000);
  RecordProperty("draws", draws);
}

TEST(SquaresRandomGames, RandomActionIsUniformOverTheLegalSet) {
  auto s = from_record("10f6/2a1");
  Rng rng(9);
  const std::vector<Action> legal = legal_of(*s, 1);
  std::vector<int> seen(SquaresGame::kNumActions);
  const int draws = 200 * static_cast<int>(legal.size());
  for (int i = 0; i < draws; ++i) ++seen[s->random_legal_action(1, rng)];
  for (Action a = 0; a < SquaresGame::kNumActions; ++a) {
    if (std::binary_search(legal.begin(), legal.end(), a)) {
      ASSERT_GT(seen[a], 120) << a;
      ASSERT_LT(seen[a], 290) << a;
    } else {
      ASSERT_EQ(seen[a], 0) << a;
    }
  }
}

}  // namespace
}  // namespace boardlab
