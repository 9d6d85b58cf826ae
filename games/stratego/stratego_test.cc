// Stratego's rules, views and hidden-state sampling, checked on constructed positions and random games.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "arena/ladder.h"
#include "core/errors.h"
#include "games/registry.h"
#include "games/stratego/stratego.h"
#include "mcts/bots.h"

namespace boardlab {
namespace {

using namespace stratego;

// A side's 40 setup characters from "cell:kind" pairs (the rest empty), for barrage positions.
std::string setup_of(Player p, const std::map<std::string, char>& pieces) {
  std::string s(40, '.');
  for (const auto& [cell, kind] : pieces) {
    const int c = StrategoGame::parse_cell(cell);
    for (int i = 0; i < 40; ++i)
      if (StrategoGame::setup_cell(p, i) == c) s[static_cast<std::size_t>(i)] = kind;
  }
  return s;
}

std::shared_ptr<const Game> barrage(const std::string& red, const std::string& blue, const std::string& extra = "") {
  return load_game("stratego(variant=barrage,red_setup=" + red + ",blue_setup=" + blue + extra + ")");
}

const std::string kRedBase = setup_of(0, {{"a1", 'F'}, {"b1", 'B'}, {"c1", '1'}, {"d1", '2'}, {"e1", '2'},
                                          {"f1", '3'}, {"g1", '9'}, {"h1", 'X'}});
const std::string kBlueBase = setup_of(1, {{"a10", 'F'}, {"b10", 'B'}, {"c10", '1'}, {"d10", '2'}, {"e10", '2'},
                                           {"f10", '3'}, {"g10", '9'}, {"h10", 'X'}});

void play(State& s, const std::string& moves) {
  std::istringstream in(moves);
  for (std::string m; in >> m;) s.apply(s.string_to_action(m));
}

bool has_move(const State& s, const std::string& move) {
  const std::vector<Action> legal = s.legal_actions();
  return std::binary_search(legal.begin(), legal.end(), s.string_to_action(move));
}

TEST(Stratego, EveryStrikeFollowsTheRanks) {
  for (int a = 0; a < kBomb; ++a)
    for (int d = 0; d < kKinds; ++d) {
      int expected;
      if (d == kFlag) expected = 1;
      else if (d == kBomb) expected = a == kMiner ? 1 : -1;
      else if (a == kSpy && d == kMarshal) expected = 1;
      else expected = a > d ? 1 : a < d ? -1 : 0;
      EXPECT_EQ(strike(a, d), expected) << kKindNames[a] << " strikes " << kKindNames[d];
    }
  EXPECT_EQ(strike(kMarshal, kSpy), 1);   // the Marshal attacking the Spy wins
  EXPECT_EQ(strike(kSpy, kMarshal), 1);   // the Spy attacking the Marshal wins
  EXPECT_EQ(strike(kGeneral, kBomb), -1);
  EXPECT_EQ(strike(kMiner, kBomb), 1);
}

// Red's piece on e4 walks up to e6 and strikes Blue's piece on e7.
struct Duel {
  std::unique_ptr<State> s;
  const StrategoState& st() const { return static_cast<const StrategoState&>(*s); }
};
Duel duel(char red_kind, char blue_kind, std::shared_ptr<const Game>& keep) {
  std::map<std::string, char> red = {{"a1", 'F'}, {"b1", 'B'}, {"c1", '1'}, {"d1", '2'}, {"e1", '2'},
                                     {"f1", '3'}, {"g1", '9'}, {"h1", 'X'}};
  std::map<std::string, char> blue = {{"a10", 'F'}, {"b10", 'B'}, {"c10", '1'}, {"d10", '2'}, {"e10", '2'},
                                      {"f10", '3'}, {"g10", '9'}, {"h10", 'X'}};
  // Swap the duelling kinds onto e4 and e7.
  for (auto& [cell, kind] : red)
    if (kind == red_kind) { red.erase(cell); break; }
  for (auto& [cell, kind] : blue)
    if (kind == blue_kind) { blue.erase(cell); break; }
  red["e4"] = red_kind;
  blue["e7"] = blue_kind;
  keep = barrage(setup_of(0, red), setup_of(1, blue));
  Duel d{keep->new_initial_state()};
  return d;
}

TEST(Stratego, StrikesOnTheBoardRemoveTheLoserAndRevealBoth) {
  const std::string kinds = "1239XBF";
  for (char a : std::string("1239X"))
    for (char b : kinds) {
      std::shared_ptr<const Game> g;
      Duel d = duel(a, b, g);
      StrategoState& s = static_cast<StrategoState&>(*d.s);
      // Blue needs a movable piece to answer with: its Scout on d10 or e10 shuttles.
      const std::string blue_shuttle = s.owner(StrategoGame::parse_cell("d10")) == 1 ? "d10-d9" : "e10-e9";
      const auto dash = blue_shuttle.find('-');
      const std::string back = blue_shuttle.substr(dash + 1) + "-" + blue_shuttle.substr(0, dash);
      if (a == '2') {
        play(s, "e4-e7");
      } else {
        play(s, "e4-e5 " + blue_shuttle + " e5-e6 " + back + " e6-e7");
      }
      const int e7 = StrategoGame::parse_cell("e7");
      const int result = strike(kind_of_char(a), kind_of_char(b));
      SCOPED_TRACE(std::string(1, a) + " strikes " + b);
      if (b == 'F') {
        EXPECT_TRUE(s.is_terminal());
        EXPECT_EQ(s.returns(), (std::vector<double>{1, -1}));
        continue;
      }
      if (result > 0) {
        EXPECT_EQ(s.owner(e7), 0);
        EXPECT_EQ(s.kind_at(e7), kind_of_char(a));
        EXPECT_TRUE(s.flags_at(e7) & StrategoState::kRevealed);
      } else if (result == 0) {
        EXPECT_EQ(s.owner(e7), -1);
      } else {
        EXPECT_EQ(s.owner(e7), 1);
        EXPECT_EQ(s.kind_at(e7), kind_of_char(b));
        EXPECT_TRUE(s.flags_at(e7) & StrategoState::kRevealed);
      }
      EXPECT_EQ(s.owner(StrategoGame::parse_cell("e6")), -1);
    }
}

TEST(Stratego, ScoutsAreBlockedByPiecesAndLakes) {
  auto g = barrage(setup_of(0, {{"a1", 'F'}, {"b1", 'B'}, {"c1", '1'}, {"c4", '2'}, {"e1", '2'}, {"f1", '3'},
                                {"g1", '9'}, {"e3", 'X'}}),
                   kBlueBase);
  auto s = g->new_initial_state();
  std::set<std::string> moves;
  for (Action a : s->legal_actions()) moves.insert(s->action_to_string(a));
  // c4 faces the lake c5: no northward move; it runs along rank 4 both ways.
  EXPECT_FALSE(moves.count("c4-c5"));
  EXPECT_TRUE(moves.count("c4-a4"));
  EXPECT_TRUE(moves.count("c4-k4"));
  // The Scout on e1 is blocked by the Marshal on e3: e2 only.
  EXPECT_TRUE(moves.count("e1-e2"));
  EXPECT_FALSE(moves.count("e1-e3"));
  EXPECT_FALSE(moves.count("e1-e4"));
  // Other pieces move one square.
  EXPECT_TRUE(moves.count("e3-e4"));
  EXPECT_FALSE(moves.count("e3-e5"));
  const auto before = s->hash();
  try {
    s->apply(s->string_to_action("e1-e4"));
    ADD_FAILURE() << "a Scout jumped a piece";
  } catch (const IllegalActionError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot pass over e3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s->hash(), before);
  EXPECT_THROW(s->apply(s->string_to_action("c4-c5")), IllegalActionError);
  EXPECT_THROW(s->apply(s->string_to_action("a1-a2")), IllegalActionError);  // the Flag
  EXPECT_THROW(s->apply(s->string_to_action("e3-e1")), IllegalActionError);  // not a Scout
  EXPECT_EQ(s->hash(), before);
}

TEST(Stratego, TheTwoSquareRuleForbidsTheFourthShuttle) {
  auto g = barrage(kRedBase, kBlueBase);
  auto s = g->new_initial_state();
  play(*s, "g1-g2 g10-g9 g2-g1 g9-g10 g1-g2");
  auto& st = static_cast<StrategoState&>(*s);
  play(*s, "g10-g9");
  EXPECT_NE(st.illegality(s->string_to_action("g2-g1")).find("two-square"), std::string::npos);
  EXPECT_EQ(st.illegality(s->string_to_action("g2-g3")), "");
  EXPECT_FALSE(has_move(*s, "g2-g1"));
  EXPECT_TRUE(has_move(*s, "g2-g3"));
  auto g5 = barrage(kRedBase, kBlueBase, ",two_square_limit=5");
  auto s5 = g5->new_initial_state();
  play(*s5, "g1-g2 g10-g9 g2-g1 g9-g10 g1-g2 g10-g9 g2-g1 g9-g10 g1-g2 g10-g9");
  EXPECT_THROW(play(*s5, "g2-g1"), IllegalActionError);
}

TEST(Stratego, TheTwoSquareRuleForbidsAScoutsLongShuttle) {
  auto g = barrage(kRedBase, kBlueBase);
  auto s = g->new_initial_state();
  // The Scout on d1 runs to d4 and back; Blue's General shuttles meanwhile.
  play(*s, "d1-d4 g10-g9 d4-d1 g9-g10 d1-d4 g10-g9");
  auto& st = static_cast<StrategoState&>(*s);
  EXPECT_NE(st.illegality(s->string_to_action("d4-d1")).find("two-square"), std::string::npos);
  EXPECT_FALSE(has_move(*s, "d4-d1"));
  EXPECT_TRUE(has_move(*s, "d4-d2"));  // stopping short is another pair of squares
  EXPECT_TRUE(has_move(*s, "d4-d3"));
  EXPECT_TRUE(has_move(*s, "d4-e4"));
}

TEST(Stratego, TheChasingRuleForbidsAScoutsLongChase) {
  const std::string red = setup_of(0, {{"a1", 'F'}, {"b1", 'B'}, {"c1", '1'}, {"d1", '3'}, {"e4", '2'}, {"k1", '2'},
                                       {"g1", '9'}, {"h1", 'X'}});
  const std::string blue = setup_of(1, {{"a10", 'F'}, {"b10", 'B'}, {"c10", '1'}, {"d10", '3'}, {"e7", '2'},
                                        {"k10", '2'}, {"g10", '9'}, {"h10", 'X'}});
  auto g = barrage(red, blue);
  auto s = g->new_initial_state();
  auto& st = static_cast<StrategoState&>(*s);
  // Blue's Scout comes next to Red's and flees along the file, then the rank; Red's Scout
  // follows with long moves that end next to it: two chases.
  play(*s, "e4-e5 e7-e6 k1-k2 e6-e9 e5-e8 e9-i9 e8-i8 i9-f9");
  // The third chase, i8-f8 (next to f9), is forbidden; the moves that end elsewhere are not.
  EXPECT_NE(st.illegality(s->string_to_action("i8-f8")).find("chasing rule"), std::string::npos);
  EXPECT_FALSE(has_move(*s, "i8-f8"));
  EXPECT_TRUE(has_move(*s, "i8-g8"));
  EXPECT_TRUE(has_move(*s, "i8-e8"));
  EXPECT_TRUE(has_move(*s, "i8-h8"));
}

TEST(Stratego, TheChasingRuleForbidsTheThirdChase) {
  const std::string red = setup_of(0, {{"a1", 'F'}, {"b1", 'B'}, {"c1", '1'}, {"d1", '2'}, {"k1", '2'}, {"f1", '3'},
                                       {"e4", '9'}, {"h1", 'X'}});
  const std::string blue = setup_of(1, {{"a10", 'F'}, {"b10", 'B'}, {"c10", '1'}, {"d10", '2'}, {"k10", '2'},
                                        {"e7", '3'}, {"g10", '9'}, {"h10", 'X'}});
  auto g = barrage(red, blue);
  auto s = g->new_initial_state();
  auto& st = static_cast<StrategoState&>(*s);
  // The General comes next to the Miner (no chase), then follows it twice as it flees.
  play(*s, "e4-e5 d10-d9 e5-e6 e7-e8 e6-e7 e8-f8 e7-f7 f8-f9");
  EXPECT_NE(st.illegality(s->string_to_action("f7-f8")).find("chasing rule"), std::string::npos);
  EXPECT_EQ(st.illegality(s->string_to_action("f7-e7")), "");
  EXPECT_FALSE(has_move(*s, "f7-f8"));
  EXPECT_TRUE(has_move(*s, "f7-e7"));
  EXPECT_THROW(play(*s, "f7-f8"), IllegalActionError);
  // Had the Miner not fled the last time, nothing is forbidden.
  auto t = g->new_initial_state();
  play(*t, "e4-e5 d10-d9 e5-e6 e7-e8 e6-e7 e8-f8 e7-f7 d9-d8 f7-e7 f8-f9");
  EXPECT_EQ(static_cast<StrategoState&>(*t).illegality(t->string_to_action("e7-e8")), "");
  // After one chase, the second is still legal.
  auto u = g->new_initial_state();
  play(*u, "e4-e5 d10-d9 e5-e6 e7-e8 e6-e7 e8-f8");
  EXPECT_EQ(static_cast<StrategoState&>(*u).illegality(u->string_to_action("e7-f7")), "");
  // With chasing_rule=false the third chase is a move like any other.
  auto off = barrage(red, blue, ",chasing_rule=false");
  auto v = off->new_initial_state();
  play(*v, "e4-e5 d10-d9 e5-e6 e7-e8 e6-e7 e8-f8 e7-f7 f8-f9");
  EXPECT_TRUE(has_move(*v, "f7-f8"));
  play(*v, "f7-f8");
}

// A classic setup whose Bombs close the six open squares of the front rank: nothing can move.
std::string walled_setup() {
  const std::string pieces = "1" "22222222" "33333" "4444" "5555" "6666" "777" "88" "9" "X" "F";
  return pieces.substr(0, 30) + "BB" + pieces.substr(30, 2) + "BB" + pieces.substr(32, 2) + "BB";
}

TEST(Stratego, NoMovesLosesAndBothStuckDraws) {
  const std::string open = "BBBBBB" "F" "1" "22222222" "33333" "4444" "5555" "6666" "777" "88" "9" "X";
  ASSERT_EQ(open.size(), 40u);
  auto one = load_game("stratego(red_setup=" + walled_setup() + ",blue_setup=" + open + ")");
  auto s = one->new_initial_state();
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(static_cast<StrategoState&>(*s).end_reason(), StrategoState::EndReason::kNoMoves);
  EXPECT_EQ(s->returns(), (std::vector<double>{-1, 1}));
  auto both = load_game("stratego(red_setup=" + walled_setup() + ",blue_setup=" + walled_setup() + ")");
  auto t = both->new_initial_state();
  ASSERT_TRUE(t->is_terminal());
  EXPECT_EQ(static_cast<StrategoState&>(*t).end_reason(), StrategoState::EndReason::kNeitherCanMove);
  EXPECT_EQ(t->returns(), (std::vector<double>{0, 0}));
  EXPECT_FALSE(t->is_truncated());
  // Played as actions, the same setups end the game as soon as Blue's last square is filled.
  auto g = load_game("stratego");
  auto a = g->new_initial_state();
  for (char c : walled_setup()) a->apply(a->string_to_action(std::string(1, c)));
  for (char c : open) a->apply(a->string_to_action(std::string(1, c)));
  EXPECT_TRUE(a->is_terminal());
  EXPECT_EQ(a->returns(), (std::vector<double>{-1, 1}));
}

TEST(Stratego, CapturingTheFlagWins) {
  auto g = barrage(kRedBase, setup_of(1, {{"e7", 'F'}, {"b10", 'B'}, {"c10", '1'}, {"d10", '2'}, {"e10", '2'},
                                          {"f10", '3'}, {"g10", '9'}, {"h10", 'X'}}));
  auto s = g->new_initial_state();
  play(*s, "e1-e6 d10-d9 e6-e7");
  auto& st = static_cast<StrategoState&>(*s);
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(st.end_reason(), StrategoState::EndReason::kFlagCaptured);
  EXPECT_EQ(s->returns(), (std::vector<double>{1, -1}));
  EXPECT_FALSE(s->is_truncated());
  EXPECT_THROW(s->apply(0), IllegalActionError);
}

TEST(Stratego, TheObservationShowsTheLastObservedMovesNewestFirst) {
  // Fixed setups: the first step is a move. Red's Scout runs e1-e6, Blue answers d10-d9,
  // Red's General steps g1-g2.
  auto g = barrage(kRedBase, kBlueBase, ",observed_moves=3");
  ASSERT_EQ(g->observation_shape().channels, 81 + 2 * 3 + 2);
  auto s = g->new_initial_state();
  std::vector<float> obs(static_cast<std::size_t>(g->observation_shape().size()));
  // Marked squares of plane k, by name, in the viewer's frame turned back to the board's.
  const auto marked = [&](Player viewer, int plane) {
    std::set<std::string> out;
    for (int cell = 0; cell < kCells; ++cell)
      if (obs[static_cast<std::size_t>(plane * kCells + (viewer == 0 ? cell : kCells - 1 - cell))] > 0)
        out.insert(StrategoGame::cell_name(cell));
    return out;
  };
  using Squares = std::set<std::string>;
  play(*s, "e1-e6");
  for (Player viewer : {0, 1}) {
    s->observation(viewer, obs);
    EXPECT_EQ(marked(viewer, 81), Squares{"e1"}) << viewer;
    EXPECT_EQ(marked(viewer, 82), Squares{"e6"}) << viewer;
    for (int plane = 83; plane < 87; ++plane) EXPECT_TRUE(marked(viewer, plane).empty()) << plane;  // none yet
    EXPECT_EQ(marked(viewer, 87).size(), viewer == 1 ? 100u : 0u);  // the viewer is to move
  }
  play(*s, "d10-d9 g1-g2 g10-g9");
  s->observation(1, obs);
  const std::vector<Squares> expected = {{"g10"}, {"g9"}, {"g1"}, {"g2"}, {"d10"}, {"d9"}};
  for (int k = 0; k < 6; ++k) EXPECT_EQ(marked(1, 81 + k), expected[static_cast<std::size_t>(k)]) << "plane " << 81 + k;
  EXPECT_NEAR(obs[88 * kCells], 4.0f / 1000.0f, 1e-7);  // plies / move cap
  // One move shown, as by default: the planes of the game without the parameter.
  auto one = barrage(kRedBase, kBlueBase);
  auto t = one->new_initial_state();
  play(*t, "e1-e6 d10-d9 g1-g2 g10-g9");
  std::vector<float> default_obs(static_cast<std::size_t>(one->observation_shape().size()));
  t->observation(1, default_obs);
  ASSERT_EQ(default_obs.size(), static_cast<std::size_t>(85 * kCells));
  for (int plane = 0; plane < 83; ++plane)
    for (int c = 0; c < kCells; ++c)
      ASSERT_EQ(default_obs[static_cast<std::size_t>(plane * kCells + c)], obs[static_cast<std::size_t>(plane * kCells + c)])
          << "plane " << plane;
}

TEST(Stratego, ObservedMovesChangeTheObservationNotTheRules) {
  auto shown = load_game("stratego(variant=barrage,observed_moves=8)");
  auto plain = load_game("stratego(variant=barrage)");
  EXPECT_NE(shown->to_string(), plain->to_string());
  EXPECT_EQ(shown->rules_string(), plain->rules_string());
  EXPECT_EQ(plain->rules_string(), "stratego(blue_setup=,chasing_rule=true,move_cap=0,red_setup=,setup=play,"
                                   "two_square_limit=3,variant=barrage)");
  EXPECT_EQ(load_game(shown->to_string())->to_string(), shown->to_string());
  // The stored ladder (games/stratego/ladder.yaml) serves every observation.
  const std::optional<Ladder> ladder = find_ladder(*shown);
  ASSERT_TRUE(ladder.has_value());
  EXPECT_EQ(ladder->game, plain->rules_string());
  EXPECT_THROW(load_game("stratego(observed_moves=0)"), GameParameterError);
  EXPECT_THROW(load_game("stratego(observed_moves=33)"), GameParameterError);
}

TEST(Stratego, TheMoveCapTruncates) {
  auto g = barrage(kRedBase, kBlueBase, ",move_cap=6");
  auto s = g->new_initial_state();
  play(*s, "g1-g2 g10-g9 g2-g3 g9-g8 g3-g2 g8-g9");
  EXPECT_TRUE(s->is_terminal());
  EXPECT_TRUE(s->is_truncated());
  EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
}

TEST(Stratego, UnreachableFlagsDraw) {
  // Both Flags walled by own Bombs... barrage has one Bomb, so the wall is the corner: a Flag on
  // a1 with the Bomb on b1 and a2 taken by... a lone Bomb cannot wall a corner; instead both
  // sides lose their Miners and each Flag sits behind the enemy-blocking Bomb in a corner pocket.
  auto g = barrage(setup_of(0, {{"a1", 'F'}, {"b1", 'B'}, {"a2", '1'}, {"d1", '2'}, {"e1", '2'}, {"f4", '3'},
                                {"g1", '9'}, {"h1", 'X'}}),
                   setup_of(1, {{"a10", 'F'}, {"b10", 'B'}, {"a9", '1'}, {"d10", '2'}, {"e10", '2'}, {"f7", '3'},
                                {"g10", '9'}, {"h10", 'X'}}));
  auto s = g->new_initial_state();
  auto& st = static_cast<StrategoState&>(*s);
  EXPECT_FALSE(st.flags_unreachable());
  play(*s, "f4-f5 f7-f6 f5-f6");  // the Miners strike each other: both fall
  EXPECT_EQ(st.alive(0, kMiner), 0);
  EXPECT_EQ(st.alive(1, kMiner), 0);
  // The Spies on a2 / a9 can still reach the Flags through a2 → a1: not unreachable yet.
  EXPECT_FALSE(s->is_terminal());
}

TEST(Stratego, IllegalActionsAreRefusedWithAReasonAndChangeNothing) {
  auto g = load_game("stratego");
  auto s = g->new_initial_state();
  const auto h = s->hash();
  try {
    s->apply(StrategoGame::move_action(0, 0, 1));
    ADD_FAILURE();
  } catch (const IllegalActionError& e) {
    EXPECT_NE(std::string(e.what()).find("setup is not finished"), std::string::npos);
  }
  EXPECT_THROW(s->apply(StrategoGame::kEmptyAction), IllegalActionError);  // classic fills every square
  EXPECT_EQ(s->hash(), h);
  for (int i = 0; i < 1; ++i) s->apply(kFlag);
  EXPECT_THROW(s->apply(kFlag), IllegalActionError);  // one Flag only
}

TEST(Stratego, NotationRoundTrips) {
  auto g = load_game("stratego(variant=barrage)");
  Rng rng(3);
  for (int n = 0; n < 50; ++n) {
    auto s = g->new_initial_state();
    while (!s->is_terminal()) {
      for (Action a : s->legal_actions()) ASSERT_EQ(s->string_to_action(s->action_to_string(a)), a);
      s->apply(s->random_legal_action(rng));
    }
    auto back = g->load_record(s->record());
    ASSERT_EQ(back->hash(), s->hash());
  }
  EXPECT_THROW(g->new_initial_state()->string_to_action("j4-j5"), NotationError);
  EXPECT_THROW(g->new_initial_state()->string_to_action("a4-b5"), NotationError);
  EXPECT_EQ(StrategoGame::parse_cell("k10"), 99);
  EXPECT_EQ(StrategoGame::cell_name(0), "a1");
}

// Two states that differ only in what p cannot see: same observation and key for p.
TEST(Stratego, NothingHiddenLeaks) {
  for (const char* name : {"stratego", "stratego(variant=barrage)"}) {
    auto g = load_game(name);
    Rng rng(11);
    std::vector<float> a(g->observation_shape().size()), b(a.size());
    int compared = 0;
    for (int n = 0; n < 300; ++n) {
      auto s = g->new_initial_state();
      const int stop = static_cast<int>(rng.below(400));
      while (!s->is_terminal() && static_cast<int>(s->history().size()) < 80 + stop)
        s->apply(s->random_legal_action(rng));
      for (Player p : {0, 1}) {
        for (int k = 0; k < 5; ++k) {
          auto other = s->sample_hidden(p, rng);
          s->observation(p, a);
          other->observation(p, b);
          ASSERT_EQ(a, b) << name << " player " << p;
          ASSERT_EQ(s->information_key(p), other->information_key(p));
          ++compared;
        }
      }
    }
    EXPECT_GT(compared, 2000);
  }
}

TEST(Stratego, SampledStatesAreConsistent) {
  auto g = load_game("stratego");
  Rng rng(5);
  for (int n = 0; n < 100; ++n) {
    auto s = g->new_initial_state();
    const int stop = 80 + static_cast<int>(rng.below(600));
    while (!s->is_terminal() && static_cast<int>(s->history().size()) < stop) s->apply(s->random_legal_action(rng));
    const auto& st = static_cast<const StrategoState&>(*s);
    for (Player p : {0, 1}) {
      auto other = s->sample_hidden(p, rng);
      const auto& ot = static_cast<const StrategoState&>(*other);
      for (int k = 0; k < kKinds; ++k) ASSERT_EQ(ot.alive(1 - p, k), st.alive(1 - p, k));
      for (int c = 0; c < kCells; ++c) {
        ASSERT_EQ(ot.owner(c), st.owner(c));
        if (st.owner(c) == p) { ASSERT_EQ(ot.kind_at(c), st.kind_at(c)); }
        if (st.owner(c) != 1 - p) continue;
        const auto f = st.flags_at(c);
        if (f & (StrategoState::kRevealed | StrategoState::kLongMoved)) { ASSERT_EQ(ot.kind_at(c), st.kind_at(c)); }
        if (f & StrategoState::kMoved) { ASSERT_TRUE(is_mobile(ot.kind_at(c))); }
      }
      ASSERT_EQ(other->record_for(p), s->record_for(p));
    }
  }
}

// Barrage after one move: every sampled deal is consistent, and each piece's kind has the
// frequency that the uniform distribution over all consistent deals (enumerated) gives it.
TEST(Stratego, SamplingIsUniformOverConsistentDeals) {
  auto g = load_game("stratego(variant=barrage)");
  Rng rng(17);
  auto s = g->new_initial_state();
  const std::string setup = "FB1223" "9X" + std::string(32, '.');
  for (char c : setup) s->apply(s->string_to_action(std::string(1, c)));
  for (char c : setup) s->apply(s->string_to_action(std::string(1, c)));
  play(*s, "c1-c2");  // Red's Spy moves: Blue now knows it is no Bomb or Flag
  const auto& st = static_cast<const StrategoState&>(*s);
  std::vector<int> cells;
  for (int c = 0; c < kCells; ++c)
    if (st.owner(c) == 0) cells.push_back(c);
  ASSERT_EQ(cells.size(), 8u);
  const int moved = StrategoGame::parse_cell("c2");
  std::string kinds = "FB1223" "9X";
  std::sort(kinds.begin(), kinds.end());
  std::set<std::string> consistent;
  std::map<std::pair<int, char>, double> expected;
  do {
    bool ok = true;
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (cells[i] == moved && (kinds[i] == 'B' || kinds[i] == 'F')) ok = false;
    if (!ok) continue;
    consistent.insert(kinds);
    for (std::size_t i = 0; i < cells.size(); ++i) expected[{cells[i], kinds[i]}] += 1;
  } while (std::next_permutation(kinds.begin(), kinds.end()));
  ASSERT_EQ(consistent.size(), 20160u * 6 / 8);
  const int draws = 60000;
  std::map<std::pair<int, char>, double> seen;
  std::set<std::string> drawn;
  for (int n = 0; n < draws; ++n) {
    auto o = s->sample_hidden(1, rng);
    const auto& ot = static_cast<const StrategoState&>(*o);
    std::string deal;
    for (int c : cells) deal += kKindChars[ot.kind_at(c)];
    ASSERT_TRUE(consistent.count(deal)) << deal;
    drawn.insert(deal);
    for (std::size_t i = 0; i < cells.size(); ++i) seen[{cells[i], deal[i]}] += 1;
  }
  for (const auto& [key, n] : expected) {
    const double p = n / static_cast<double>(consistent.size());
    EXPECT_NEAR(seen[key] / draws, p, 0.01) << StrategoGame::cell_name(key.first) << " as " << key.second;
  }
  // 60000 uniform draws from 15120 deals miss about e^-4 of them.
  EXPECT_GT(drawn.size(), consistent.size() * 95 / 100);
}

TEST(Stratego, RandomGamesKeepTheirInvariants) {
  for (const char* name : {"stratego", "stratego(variant=barrage)", "stratego(setup=random)"}) {
    auto g = load_game(name);
    Rng rng(23);
    std::map<int, int> reasons;
    for (int n = 0; n < 1000; ++n) {
      auto s = g->new_initial_state();
      while (!s->is_terminal()) {
        if (s->is_chance_node()) {
          s->apply(s->random_legal_action(rng));
          continue;
        }
        s->apply(s->random_legal_action(rng));
      }
      const auto& st = static_cast<const StrategoState&>(*s);
      ++reasons[static_cast<int>(st.end_reason())];
      int total = 0;
      for (Player p : {0, 1})
        for (int k = 0; k < kKinds; ++k) {
          ASSERT_GE(st.alive(p, k), 0);
          total += st.alive(p, k);
        }
      ASSERT_LE(total, 2 * static_cast<const StrategoGame&>(*g).pieces_per_side());
      const auto r = s->returns();
      ASSERT_EQ(r[0] + r[1], 0);
      ASSERT_LE(st.plies(), static_cast<const StrategoGame&>(*g).move_cap());
    }
    EXPECT_GT(reasons[static_cast<int>(StrategoState::EndReason::kFlagCaptured)], 0) << name;
  }
}

// The bitboard move generator (counts per direction and per Scout, the r-th move drawn
// without a list) against illegality(), which walks each move square by square.
TEST(Stratego, TheMoveGeneratorAgreesWithTheSquareBySquareRules) {
  for (const char* variant : {"classic", "barrage"}) {
    auto g = load_game(std::string("stratego(variant=") + variant + ")");
    Rng rng(29);
    int positions = 0, repetition_refusals = 0;
    for (int game = 0; game < 40; ++game) {
      auto s = g->new_initial_state();
      for (int ply = 0; !s->is_terminal(); ++ply) {
        const auto& st = static_cast<const StrategoState&>(*s);
        if (!st.setting_up() && ply % 23 == 0) {
          ++positions;
          const Player p = s->current_player();
          std::vector<Action> expected;
          for (Action a = StrategoGame::kMoveBase; a < StrategoGame::kNumActions; ++a) {
            const int from = (a - StrategoGame::kMoveBase) / (StrategoGame::kMaxDistance * kDirs);
            if (st.owner(from) != p) continue;  // refused first, and cheaply
            const std::string why = st.illegality(a);
            if (why.empty()) expected.push_back(a);
            repetition_refusals += why.find("rule:") != std::string::npos;
          }
          ASSERT_EQ(s->legal_actions(), expected) << s->to_string();
          // The draw is the r-th legal action, r drawn as State::random_legal_action draws it.
          Rng copy = rng;
          ASSERT_EQ(s->random_legal_action(copy), expected[rng.below(static_cast<std::uint32_t>(expected.size()))]);
        }
        s->apply(s->random_legal_action(rng));
      }
    }
    EXPECT_GT(positions, 500) << variant;
    EXPECT_GT(repetition_refusals, 0) << variant << ": no position had a move the repetition rules forbid";
  }
}

// Evaluations measure the players' own setups: no random opening turns where a side sets up,
// so the two games of a seat rotation, which would share a random opening, set up apart.
TEST(Stratego, EvaluationsPlayThePlayersOwnSetups) {
  EXPECT_EQ(load_game("stratego")->traits().arena_opening_turns, 0);
  EXPECT_EQ(load_game("stratego(variant=barrage)")->traits().arena_opening_turns, 0);
  EXPECT_EQ(load_game("stratego(variant=barrage,red_setup=" + kRedBase + ")")->traits().arena_opening_turns, 0);
  EXPECT_EQ(barrage(kRedBase, kBlueBase)->traits().arena_opening_turns, 2);  // no setup steps: random first moves
  EXPECT_EQ(load_game("stratego(setup=random)")->traits().arena_opening_turns, 2);
  const auto game = load_game("stratego(variant=barrage)");
  ArenaOptions options;
  options.games = 4;
  options.threads = 1;
  options.seed = 3;
  const ArenaReport report = run_arena(*game, {"random", "random"}, {{0, 1}}, make_search_bot, options);
  std::set<std::string> red_setups;
  for (const ArenaGame& g : report.games) red_setups.insert(g.record.substr(0, g.record.find(' ')));
  EXPECT_EQ(red_setups.size(), 4u);
}

}  // namespace
}  // namespace boardlab
