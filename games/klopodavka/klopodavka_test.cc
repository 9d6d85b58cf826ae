// Tests for Klopodavka against shared/rules/klopodavka.md, with an independent reference model of its reach, turns and ends.
#include "games/klopodavka/klopodavka.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "core/errors.h"
#include "core/rng.h"
#include "games/registry.h"
#include "tests/games/game_test_util.h"
#include "tests/test_scale.h"

namespace boardlab {
namespace {

using Content = KlopodavkaState::Content;
using CellView = KlopodavkaState::CellView;

std::shared_ptr<const KlopodavkaGame> klopodavka(const std::string& text) {
  // Through the registry, as every user gets it.
  return std::dynamic_pointer_cast<const KlopodavkaGame>(load_game(text));
}

std::unique_ptr<KlopodavkaState> as_klopodavka(std::unique_ptr<State> state) {
  return std::unique_ptr<KlopodavkaState>(&dynamic_cast<KlopodavkaState&>(*state.release()));
}

// The cell a name gives, worked out here from the rule file (files a..z without j, then aa ..).
int at(const KlopodavkaGame& g, std::string_view name) {
  constexpr std::string_view kLetters = "abcdefghiklmnopqrstuvwxyz";
  std::size_t i = 0;
  int file = 0;
  for (; i < name.size() && name[i] >= 'a' && name[i] <= 'z'; ++i)
    file = file * 25 + static_cast<int>(kLetters.find(name[i])) + 1;
  return (std::stoi(std::string(name.substr(i))) - 1) * g.width() + file - 1;
}

std::vector<Action> legal_of(const State& s) { return s.legal_actions(); }
std::vector<double> returns_of(const State& s) { return s.returns(); }

std::vector<std::string> texts_of(const State& s, const std::vector<Action>& actions) {
  std::vector<std::string> out;
  for (Action a : actions) out.push_back(s.action_to_string(a));
  return out;
}

bool mentions(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }
template <typename T>
bool has(const std::vector<T>& items, T item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// Plays a turn written `a1-b2-*c3`.
void play_turn(State& s, const std::string& turn) {
  for (const std::string& part : s.game().split_turn(turn, false)) s.apply(s.string_to_action(part));
}

std::string error_of_record(const Game& g, const std::string& record) {
  try {
    g.load_record(record);
  } catch (const NotationError& e) {
    return e.what();
  }
  return "(accepted)";
}

// ------------------------------------------------------------------------------------------------
// Reference rules: per-cell arrays and a breadth-first flood, written from the rule text and
// sharing no code with the engine's bitboards.

namespace ref {

enum Kind : std::int8_t { kEmpty, kBug, kMain, kKilled };

struct Board {
  int width = 0;
  int height = 0;
  int players = 0;
  bool revolution = true;
  std::vector<Kind> kind;
  std::vector<int> owner;  // a bug's player, or the player that killed the cell

  int cells() const { return width * height; }
  bool live(int c, int p) const { return (kind[c] == kBug || kind[c] == kMain) && owner[c] == p; }
  bool in(int p) const {
    for (int c = 0; c < cells(); ++c)
      if (kind[c] == kMain && owner[c] == p) return true;
    return false;
  }
  int players_in() const {
    int count = 0;
    for (int p = 0; p < players; ++p) count += in(p);
    return count;
  }
};

std::vector<int> around(const Board& b, int c) {
  std::vector<int> out;
  const int rank = c / b.width, file = c % b.width;
  for (int dr = -1; dr <= 1; ++dr)
    for (int df = -1; df <= 1; ++df) {
      const int r = rank + dr, f = file + df;
      if ((dr != 0 || df != 0) && r >= 0 && r < b.height && f >= 0 && f < b.width) out.push_back(r * b.width + f);
    }
  return out;
}

// The rule: the 8-neighbourhood of p's live bugs and of the chains of cells p killed that touch them.
std::vector<bool> reach(const Board& b, int p) {
  std::vector<bool> conductor(static_cast<std::size_t>(b.cells())), out(conductor.size());
  std::vector<int> queue;
  for (int c = 0; c < b.cells(); ++c)
    if (b.live(c, p)) {
      conductor[c] = true;
      queue.push_back(c);
    }
  while (!queue.empty()) {
    const int c = queue.back();
    queue.pop_back();
    for (int n : around(b, c))
      if (!conductor[n] && b.kind[n] == kKilled && b.owner[n] == p) {
        conductor[n] = true;
        queue.push_back(n);
      }
  }
  for (int c = 0; c < b.cells(); ++c)
    if (conductor[c])
      for (int n : around(b, c)) out[n] = true;
  return out;
}

std::vector<int> targets(const Board& b, int p) {
  std::vector<int> out;
  if (!b.in(p)) return out;
  const std::vector<bool> r = reach(b, p);
  for (int c = 0; c < b.cells(); ++c)
    if (r[c] && (b.kind[c] == kEmpty || ((b.kind[c] == kBug || b.kind[c] == kMain) && b.owner[c] != p)))
      out.push_back(c);
  return out;
}

std::vector<int> crowns(const Board& b, int p) {
  std::vector<int> out;
  if (!b.revolution || !b.in(p)) return out;
  for (int c = 0; c < b.cells(); ++c) {
    const std::vector<int> ring = around(b, c);
    if (b.kind[c] == kEmpty && ring.size() == 8 &&
        std::all_of(ring.begin(), ring.end(), [&](int n) { return b.live(n, p); }))
      out.push_back(c);
  }
  return out;
}

// Every sub-move p may choose among on b: cells, then crowns, as actions.
std::vector<Action> sub_moves(const Board& b, int p) {
  std::vector<Action> out;
  for (int c : targets(b, p)) out.push_back(c);
  for (int c : crowns(b, p)) out.push_back(b.cells() + c);
  return out;
}

Board play(Board b, int p, Action a) {
  const int c = a % b.cells();
  if (a >= b.cells()) {
    for (int d = 0; d < b.cells(); ++d)
      if (b.kind[d] == kMain && b.owner[d] == p) b.kind[d] = kBug;
    b.kind[c] = kMain;
  } else if (b.kind[c] == kEmpty) {
    b.kind[c] = kBug;
  } else {
    b.kind[c] = kKilled;  // a main bug killed: its player is out, its bugs stay
  }
  b.owner[c] = p;
  return b;
}

Board from_state(const KlopodavkaState& s) {
  const KlopodavkaGame& g = s.klopodavka();
  Board b{g.width(), g.height(), g.num_players(), g.revolution(), {}, {}};
  for (int c = 0; c < g.cells(); ++c) {
    const CellView v = s.cell(c);
    b.kind.push_back(v.content == Content::kBug       ? kBug
                     : v.content == Content::kMainBug ? kMain
                     : v.content == Content::kKilled  ? kKilled
                                                      : kEmpty);
    b.owner.push_back(v.owner);
  }
  return b;
}

int next_in(const Board& b, int p) {
  do p = (p + 1) % b.players;
  while (!b.in(p));
  return p;
}

}  // namespace ref

// The legal actions the rules give at the start of a turn or after m sub-moves, assuming
// the turn can always go on while a target is left (checked by the brute force below).
std::vector<Action> expected_legal(const ref::Board& b, int p, int m) {
  std::vector<Action> out = ref::sub_moves(b, p);
  if (m == 0) out.push_back(2 * b.cells());
  return out;
}

// ------------------------------------------------------------------------------------------------
// The start and the parameters.

TEST(KlopodavkaStart, BlocksSitFlushWithTheirSlotsAndAMovesFirst) {
  const auto g = klopodavka("klopodavka");  // 4 players, 20×20
  auto s = as_klopodavka(g->new_initial_state());
  EXPECT_EQ(s->current_player(), 0);
  const std::vector<std::string> centres = {"b2", "b19", "t19", "t2"};  // BL TL TR BR, clockwise
  for (Player p = 0; p < 4; ++p) {
    EXPECT_EQ(s->main_bug(p), at(*g, centres[p])) << p;
    for (int n : ref::around(ref::from_state(*s), s->main_bug(p))) EXPECT_EQ(s->cell(n), (CellView{Content::kBug, p}));
  }
  // 4·9 bugs; A reaches the 7 free cells around its block, 5 sub-moves a turn.
  int bugs = 0;
  for (int c = 0; c < g->cells(); ++c) bugs += s->cell(c).content != Content::kEmpty;
  EXPECT_EQ(bugs, 36);
  EXPECT_EQ(texts_of(*s, legal_of(*s)), (std::vector<std::string>{"d1", "d2", "d3", "a4", "b4", "c4", "d4", "pass"}));
  EXPECT_EQ(g->observation_shape().channels, 5 * 4 + 5 + 4);
  EXPECT_EQ(g->num_distinct_actions(), 801);
  EXPECT_EQ(g->to_string(), "klopodavka(board=custom,height=20,max_turns=1000,players=4,revolution=true,submoves=5,width=20)");
}

TEST(KlopodavkaStart, EachPlayerCountTakesItsSlots) {
  // Centres: BL b2, TL b<h-1>, TM (middle file), TR, BR, BM; on an even width the top middle is
  // left of the centre and the bottom middle right of it.
  const std::map<int, std::vector<std::string>> expected = {
      {2, {"b2", "l9"}},
      {3, {"b2", "f9", "l2"}},
      {4, {"b2", "b9", "l9", "l2"}},
      {5, {"b2", "b9", "f9", "l9", "l2"}},
      {6, {"b2", "b9", "f9", "l9", "l2", "g2"}},
  };
  for (const auto& [players, centres] : expected) {
    const auto g = klopodavka("klopodavka(players=" + std::to_string(players) + ",width=12,height=10)");
    auto s = as_klopodavka(g->new_initial_state());
    for (Player p = 0; p < players; ++p) EXPECT_EQ(s->main_bug(p), at(*g, centres[p])) << players << " players, " << p;
    EXPECT_EQ(g->player_name(players - 1), std::string(1, static_cast<char>('A' + players - 1)));
  }
}

TEST(KlopodavkaStart, ParametersAreCheckedWithReasons) {
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"klopodavka(players=1)", "players must be 2..6"},
      {"klopodavka(players=7)", "players must be 2..6"},
      {"klopodavka(width=2)", "at least 3"},
      {"klopodavka(width=40,height=40)", "at most 1280 cells"},
      {"klopodavka(players=6,width=10,height=10)", "touch"},
      {"klopodavka(players=4,width=6,height=6)", "touch"},
      {"klopodavka(board=a4)", "board must be custom or sheet"},
      {"klopodavka(board=sheet,width=30)", "board=sheet is 39x32"},
      {"klopodavka(submoves=0)", "submoves must be 1..20"},
      {"klopodavka(max_turns=0)", "max_turns must be 1..65535"},
  };
  const auto refusal = [](const std::string& text) -> std::string {
    try {
      load_game(text);
    } catch (const GameParameterError& e) {
      return e.what();
    }
    return "(accepted)";
  };
  for (const auto& [text, reason] : refused) EXPECT_TRUE(mentions(refusal(text), reason)) << refusal(text);
  // Virus War's board fits 2, 3 and 4 players; 6 need 11 files and 7 ranks.
  for (const char* text : {"klopodavka(players=2,width=10,height=10)", "klopodavka(players=3,width=10,height=10)",
                           "klopodavka(players=4,width=10,height=10)", "klopodavka(players=6,width=11,height=7)"})
    EXPECT_NO_THROW(load_game(text)) << text;
}

TEST(KlopodavkaStart, TheSheetPresetIsA39By32Board) {
  const auto g = klopodavka("klopodavka(board=sheet)");
  EXPECT_EQ(g->width(), 39);
  EXPECT_EQ(g->height(), 32);
  // The canonical string says so, and reads back as the same game.
  EXPECT_EQ(g->to_string(), "klopodavka(board=sheet,height=32,max_turns=1000,players=4,revolution=true,submoves=5,width=39)");
  EXPECT_EQ(load_game(g->to_string())->to_string(), g->to_string());
  EXPECT_EQ(g->num_distinct_actions(), 2 * 39 * 32 + 1);
  auto s = as_klopodavka(g->new_initial_state());
  // Files run a..z (no j), then aa..ao: the top-right block's centre is an31.
  EXPECT_EQ(s->main_bug(2), at(*g, "an31"));
  EXPECT_EQ(s->action_to_string(at(*g, "an31")), "an31");
  EXPECT_EQ(s->action_to_string(g->cells() - 1), "ao32");
  // Not square: 4 players keep only the 180° turn.
  ASSERT_EQ(g->symmetries().size(), 1u);
  EXPECT_EQ(g->symmetries()[0].name, "rotate 180");
  // KlopodavkaRandomGames.TheDefaultGameAndTheSheetFollowTheReference plays it.
}

// ------------------------------------------------------------------------------------------------
// Positions from the rule file: conduction, revolutions, going out, the end.

// Three players on 7×7: C killed b2 and c3, a chain touching A's main bug at a1.
constexpr const char* kWalls = R"(...B...
                                  .......
                                  .......
                                  .....c.
                                  ..3...C
                                  .3.....
                                  A......)";

TEST(KlopodavkaRules, CellsKilledByAThirdPlayerAreWalls) {
  const auto g = klopodavka("klopodavka(players=3,width=7,height=7)");
  // C killed b2, c3 (a chain touching A's bug at a1): walls for A, and for B too.
  auto s = KlopodavkaState::from_diagram(*g, kWalls, 0);
  // reachable() holds the conductors themselves too (a1 here); targets leave them out.
  EXPECT_EQ(s->reachable(0), (std::vector<int>{at(*g, "a1"), at(*g, "b1"), at(*g, "a2"), at(*g, "b2")}));
  EXPECT_EQ(texts_of(*s, legal_of(*s)), (std::vector<std::string>{"b1", "a2", "pass"}));
  // The same chain killed by A conducts for A all the way to d4 ...
  auto own = KlopodavkaState::from_diagram(*g,
                                           R"(...B...
                                              .......
                                              .......
                                              ...c...
                                              ..1...C
                                              .1.....
                                              A......)",
                                           0);
  EXPECT_TRUE(has(own->reachable(0), at(*g, "d4")));
  EXPECT_EQ(own->targets_for(0).size(), 11u);  // around a1, b2, c3, less the killed cells
  // ... and not for C, whose bug at d4 touches the chain at c3: b3 lies beyond it.
  EXPECT_TRUE(has(own->reachable(2), at(*g, "c3")));
  EXPECT_FALSE(has(own->reachable(2), at(*g, "b3")));
}

TEST(KlopodavkaRules, APlayersOwnKillsConductForItAndNotForTheOthers) {
  const auto g = klopodavka("klopodavka(players=3,width=7,height=7)");
  // B killed c3, d4, e5, a chain touching B's bug at b2; A's bug at b3 touches it too.
  auto s = KlopodavkaState::from_diagram(*g,
                                         R"(A......
                                            .......
                                            ....2..
                                            ...2...
                                            .a2....
                                            .B.....
                                            ......C)",
                                         1);
  const int f6 = at(*g, "f6");
  EXPECT_TRUE(has(s->reachable(1), f6)) << "B conducts along its own kills";
  EXPECT_FALSE(has(s->reachable(0), f6)) << "A's bug touches the chain, but the kills are B's";
  EXPECT_TRUE(has(legal_of(*s), f6));
  // B may kill A's bug at b3 (next to its live bug) and the chain grows by it.
  s->apply(at(*g, "b3"));
  EXPECT_EQ(s->cell(at(*g, "b3")), (CellView{Content::kKilled, 1}));
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_TRUE(has(legal_of(*s), at(*g, "a4")));
}

TEST(KlopodavkaRules, ARevolutionCrownsANewMainBugInsideARingOfEight) {
  const auto g = klopodavka("klopodavka(players=2,width=8,height=8)");
  const std::string rows =
      R"(......B.
         ........
         ........
         aaa.....
         a.a.....
         aaa.....
         .A......
         ........)";
  auto s = KlopodavkaState::from_diagram(*g, rows, 0);
  const int b4 = at(*g, "b4");
  EXPECT_EQ(s->crown_cells(0), std::vector<int>{b4});
  EXPECT_TRUE(has(legal_of(*s), g->crown_action(b4)));
  EXPECT_TRUE(has(legal_of(*s), b4)) << "an ordinary bug may go there too";
  EXPECT_EQ(s->action_to_string(g->crown_action(b4)), "*b4");
  s->apply(s->string_to_action("*b4"));
  EXPECT_EQ(s->main_bug(0), b4);
  EXPECT_EQ(s->cell(b4), (CellView{Content::kMainBug, 0}));
  EXPECT_EQ(s->cell(at(*g, "b2")), (CellView{Content::kBug, 0})) << "the old main bug is an ordinary bug now";
  EXPECT_EQ(s->sub_move(), 1) << "a crowning is a sub-move";
  // One bug short of a ring, no crowning; nor with revolution=false; nor on the board's edge.
  auto gap = KlopodavkaState::from_diagram(*g,
                                           R"(......B.
                                              ........
                                              ........
                                              aa......
                                              a.a.....
                                              aaa.....
                                              .A......
                                              ........)",
                                           0);
  EXPECT_TRUE(gap->crown_cells(0).empty());
  EXPECT_TRUE(mentions(rejected(*gap, g->crown_action(b4)), "needs a ring of 8 live bugs of A around b4"));
  const auto off = klopodavka("klopodavka(players=2,width=8,height=8,revolution=false)");
  auto plain = KlopodavkaState::from_diagram(*off, rows, 0);
  EXPECT_TRUE(plain->crown_cells(0).empty());
  EXPECT_TRUE(mentions(rejected(*plain, off->crown_action(b4)), "revolution=false"));
  auto edge = KlopodavkaState::from_diagram(*g,
                                            R"(......B.
                                               ........
                                               ........
                                               ........
                                               aa......
                                               .a......
                                               aA......
                                               ........)",
                                            0);
  EXPECT_TRUE(edge->crown_cells(0).empty()) << "a3 has only 5 neighbours";
  // The main bug counts in the ring; a crowned cell must be empty.
  auto main_in_ring = KlopodavkaState::from_diagram(*g,
                                                    R"(......B.
                                                       ........
                                                       ........
                                                       aaa.....
                                                       a.A.....
                                                       aaa.....
                                                       ........
                                                       ........)",
                                                    0);
  EXPECT_EQ(main_in_ring->crown_cells(0), std::vector<int>{b4});
  EXPECT_TRUE(mentions(rejected(*main_in_ring, g->crown_action(at(*g, "c4"))), "not empty"));
}

TEST(KlopodavkaRules, KillingAMainBugPutsItsPlayerOutWithInertBugsAnyoneMayKill) {
  const auto g = klopodavka("klopodavka(players=3,width=7,height=7,submoves=2)");
  // A's bug at c3 touches B's main bug at d4; B's bugs e4, f4 run towards C.
  auto s = KlopodavkaState::from_diagram(*g,
                                         R"(.......
                                            .......
                                            ......C
                                            ...Bbb.
                                            ..a....
                                            .......
                                            A......)",
                                         0);
  s->apply(at(*g, "d4"));  // A kills B's main bug
  EXPECT_TRUE(s->is_out(1));
  EXPECT_EQ(s->main_bug(1), -1);
  EXPECT_FALSE(s->is_terminal()) << "A and C are still in";
  EXPECT_EQ(s->cell(at(*g, "e4")), (CellView{Content::kBug, 1})) << "B's bugs stay on the board";
  EXPECT_TRUE(s->targets_for(1).empty()) << "an inert player has nothing to play";
  EXPECT_TRUE(has(legal_of(*s), at(*g, "e4"))) << "A may kill the inert bug next to its kill";
  s->apply(at(*g, "b1"));
  // B is skipped: C moves next, and may kill B's inert f4 too.
  EXPECT_EQ(s->current_player(), 2);
  EXPECT_TRUE(has(legal_of(*s), at(*g, "f4")));
  // The inert bugs conduct for nobody: B's bug at f4 gives C no reach beyond its own neighbours.
  EXPECT_FALSE(has(s->reachable(2), at(*g, "e3")));
  EXPECT_TRUE(mentions(s->to_string(), "out in order: B (1)"));
}

TEST(KlopodavkaRules, TheLastMainBugWinsAtOnceEvenMidTurn) {
  const auto g = klopodavka("klopodavka(players=3,width=7,height=7)");
  // C is already out; A's first sub-move kills B's main bug: the game ends there.
  auto s = KlopodavkaState::from_diagram(*g,
                                         R"(.......
                                            .......
                                            ...c...
                                            ...B...
                                            ..a....
                                            .......
                                            A......)",
                                         0);
  EXPECT_TRUE(s->is_out(2));
  s->apply(at(*g, "d4"));
  EXPECT_TRUE(s->is_terminal());
  EXPECT_FALSE(s->is_truncated());
  EXPECT_EQ(s->move_number(), 1);
  // A first, B out second, C out first: +1, 0, −1.
  EXPECT_EQ(returns_of(*s), (std::vector<double>{1, 0, -1}));
  EXPECT_TRUE(mentions(s->to_string(), "A wins"));
  EXPECT_TRUE(mentions(rejected(*s, at(*g, "a2")), "the game is over"));
}

TEST(KlopodavkaRules, ReturnsAreByRankSumToZeroAndAverageTies) {
  // Four players: D goes out first, then every survivor passes: A, B, C share the top.
  const auto g = klopodavka("klopodavka(players=4,width=8,height=8,submoves=1)");
  auto s = KlopodavkaState::from_diagram(*g,
                                         R"(......C.
                                            ........
                                            .B......
                                            ........
                                            ........
                                            ........
                                            ..a..D..
                                            .A......)",
                                         0);
  EXPECT_TRUE(s->is_out(3) == false);
  // A cannot reach D; play passes and single placements until D is killed from a grown chain.
  play_turn(*s, "d2");   // A grows towards D
  play_turn(*s, "pass");  // B
  play_turn(*s, "pass");  // C
  play_turn(*s, "pass");  // D
  play_turn(*s, "e2");   // A
  play_turn(*s, "pass");
  play_turn(*s, "pass");
  play_turn(*s, "pass");
  play_turn(*s, "f2");   // A kills D's main bug: D is out
  EXPECT_TRUE(s->is_out(3));
  for (int i = 0; i < 2; ++i) play_turn(*s, "pass");  // B, C (D is skipped)
  EXPECT_FALSE(s->is_terminal()) << "A has not passed yet in this round";
  EXPECT_EQ(s->passes_in_a_row(), 2);
  play_turn(*s, "pass");
  ASSERT_TRUE(s->is_terminal());
  EXPECT_FALSE(s->is_truncated());
  const std::vector<double> r = returns_of(*s);
  for (int p = 0; p < 3; ++p) EXPECT_NEAR(r[p], 1.0 / 3, 1e-12) << "places 1-3 averaged";
  EXPECT_EQ(r[3], -1);
  EXPECT_TRUE(mentions(s->to_string(), "draw among A, B, C"));
  // Two players out in order, two drawing: 2/3, 2/3, −1/3, −1.
  auto two = KlopodavkaState::from_diagram(*g,
                                           R"(......C.
                                              ........
                                              ........
                                              ........
                                              ...B....
                                              ..a.....
                                              .A......
                                              ........)",
                                           0);
  play_turn(*two, "d4");  // A kills B's main bug; D, without one in the diagram, was out before
  EXPECT_TRUE(two->is_out(1));
  for (int i = 0; i < 2; ++i) play_turn(*two, "pass");  // C, A
  ASSERT_TRUE(two->is_terminal());
  const std::vector<double> expected = {2.0 / 3, -1.0 / 3, 2.0 / 3, -1};
  for (int p = 0; p < 4; ++p) EXPECT_NEAR(returns_of(*two)[p], expected[p], 1e-12) << p;
}

TEST(KlopodavkaRules, TwoPlayerReturnsAreOneAndMinusOneOrZero) {
  const auto g = klopodavka("klopodavka(players=2,width=10,height=10)");
  auto s = g->new_initial_state();
  play_turn(*s, "pass");
  play_turn(*s, "--");
  ASSERT_TRUE(s->is_terminal());
  EXPECT_EQ(returns_of(*s), (std::vector<double>{0, 0}));
  EXPECT_TRUE(is_draw(returns_of(*s)));
  auto won = KlopodavkaState::from_diagram(*g,
                                           R"(........B.
                                              ........ab
                                              ..........
                                              ..........
                                              ..........
                                              ..........
                                              ..........
                                              ..........
                                              ..........
                                              .A........)",
                                           0);
  won->apply(at(*g, "i10"));
  EXPECT_EQ(returns_of(*won), (std::vector<double>{1, -1}));
}

TEST(KlopodavkaRules, TheTurnCapTruncatesIntoADrawAmongTheSurvivors) {
  const auto g = klopodavka("klopodavka(players=3,width=11,height=11,max_turns=4)");
  auto s = g->new_initial_state();
  Rng rng(1);
  int turns = 0;
  while (!s->is_terminal()) {
    const int before = s->move_number();
    s->apply(s->random_legal_action(rng));
    turns += s->move_number() != before;
  }
  EXPECT_EQ(turns, 4);
  EXPECT_TRUE(s->is_truncated());
  EXPECT_EQ(returns_of(*s), (std::vector<double>{0, 0, 0}));
  EXPECT_TRUE(mentions(s->to_string(), "turn cap"));
  EXPECT_LE(static_cast<int>(s->history().size()), g->max_game_length());
}

TEST(KlopodavkaRules, FullTurnsOnlyAndAPassOnlyAtTheStart) {
  const auto g = klopodavka("klopodavka(players=2,width=10,height=10,submoves=5)");
  auto s = g->new_initial_state();
  EXPECT_TRUE(has(legal_of(*s), g->pass()));
  for (int m = 0; m < 5; ++m) {
    EXPECT_EQ(s->current_player(), 0);
    if (m > 0) {
      EXPECT_FALSE(has(legal_of(*s), g->pass()));
      EXPECT_TRUE(mentions(rejected(*s, g->pass()), "sub-move " + std::to_string(m + 1) + " of 5"));
    }
    s->apply(legal_of(*s).front());
  }
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->move_number(), 1);
  // A forced short turn: two targets, neither opening another cell, and no pass between.
  auto short_turn = KlopodavkaState::from_diagram(*g,
                                                  R"(........B.
                                                     ..........
                                                     ..........
                                                     ..........
                                                     ..........
                                                     ..........
                                                     ..........
                                                     22........
                                                     .22.......
                                                     A.2.......)",
                                                  0);
  EXPECT_EQ(texts_of(*short_turn, legal_of(*short_turn)), (std::vector<std::string>{"b1", "a2", "pass"}));
  short_turn->apply(at(*g, "b1"));
  EXPECT_EQ(texts_of(*short_turn, legal_of(*short_turn)), std::vector<std::string>{"a2"});
  short_turn->apply(at(*g, "a2"));
  EXPECT_EQ(short_turn->current_player(), 1) << "no target is left: the turn ends after two";
}

TEST(KlopodavkaRules, IllegalActionsAreRefusedWithTheReasonAndChangeNothing) {
  const auto g = klopodavka("klopodavka(players=3,width=7,height=7)");
  auto s = KlopodavkaState::from_diagram(*g, kWalls, 0);
  const std::vector<std::pair<Action, std::string>> cases = {
      {at(*g, "b2"), "b2 is dead and stays dead"},
      {at(*g, "a1"), "a1 already holds a live bug of A"},
      {at(*g, "e5"), "e5 is not reachable for A"},
      {g->crown_action(at(*g, "b1")), "needs a ring of 8 live bugs of A around b1"},
      {-1, "outside 0..98"},
      {99, "outside 0..98"},
  };
  for (const auto& [action, reason] : cases) {
    const std::string message = rejected(*s, action);
    EXPECT_TRUE(mentions(message, reason)) << message;
    if (action >= 0 && action < 99) { EXPECT_EQ(message.substr(message.find(": ") + 2), s->illegality(action)); }
  }
  s->apply(at(*g, "b1"));
  EXPECT_TRUE(mentions(rejected(*s, g->pass()), "only allowed instead of the first sub-move, and A is on sub-move 2 of 5"));
  EXPECT_THROW(KlopodavkaState::from_diagram(*g, "A", 0), InputError);
  EXPECT_THROW(KlopodavkaState::from_diagram(*g, std::string(48, '.') + "D", 0), InputError);
  EXPECT_THROW(KlopodavkaState::from_diagram(*g, std::string(47, '.') + "AA", 0), InputError);
  EXPECT_THROW(KlopodavkaState::from_diagram(*g, std::string(48, '.') + "A", 1), InputError) << "B is out";
  EXPECT_THROW(s->record(), InputError) << "a diagram has no record";
}

// ------------------------------------------------------------------------------------------------
// Notation.

TEST(KlopodavkaNotation, EveryActionRoundTripsOnAWideBoard) {
  const auto g = klopodavka("klopodavka(players=2,width=30,height=9)");
  auto s = g->new_initial_state();
  for (Action a = 0; a < g->num_distinct_actions(); ++a) EXPECT_EQ(s->string_to_action(s->action_to_string(a)), a);
  EXPECT_EQ(s->action_to_string(at(*g, "z1")), "z1");
  EXPECT_EQ(s->action_to_string(25), "aa1");
  EXPECT_EQ(s->action_to_string(g->crown_action(29 + 30 * 8)), "*ae9");
  EXPECT_EQ(s->action_to_string(g->pass()), "pass");
  EXPECT_EQ(s->string_to_action("--"), g->pass());
  EXPECT_EQ(s->string_to_action("AB3"), at(*g, "ab3"));
  for (const char* bad : {"", "j5", "aj1", "af1", "a10", "a0", "*", "**a1", "a", "pass2"}) {
    try {
      s->string_to_action(bad);
      ADD_FAILURE() << "'" << bad << "' was read";
    } catch (const NotationError& e) {
      EXPECT_TRUE(mentions(e.what(), "is not a Klopodavka action")) << e.what();
    }
  }
  EXPECT_TRUE(mentions(error_of_record(*g, "j5"), "there is no j"));
  EXPECT_TRUE(mentions(error_of_record(*g, "af1"), "files are a to z, then aa to ae"));
  EXPECT_THROW(s->action_to_string(g->num_distinct_actions()), InputError);
}

TEST(KlopodavkaNotation, ARecordWithACrowningRoundTrips) {
  const auto g = klopodavka("klopodavka(players=2,width=10,height=10)");
  // A builds a ring around b5 over two turns and crowns there.
  const std::string record = "a4-b4-c4-a5-c5 pass a6-b6-c6-*b5-d4";
  auto s = as_klopodavka(g->load_record(record));
  EXPECT_EQ(s->main_bug(0), at(*g, "b5"));
  EXPECT_EQ(s->record(), record);
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(g->load_record(s->record())->hash(), s->hash());
  EXPECT_TRUE(mentions(error_of_record(*g, "a4-b4-c4-a5-*b5"), "ring"));
  EXPECT_TRUE(mentions(error_of_record(*g, "a4-b4"), "incomplete"));
  EXPECT_TRUE(mentions(error_of_record(*g, "a4-pass"), "first sub-move"));
  // Crownings in random games write and read back too.
  Rng rng(11);
  int crownings = 0;
  for (int i = 0; i < 400 && crownings < 3; ++i) {
    auto game = g->new_initial_state();
    int here = 0;
    while (!game->is_terminal()) {
      const Action a = game->random_legal_action(rng);
      here += a >= g->cells() && a < g->pass();
      game->apply(a);
    }
    if (here == 0) continue;
    crownings += here;
    const std::string text = game->record();
    EXPECT_TRUE(mentions(text, "*"));
    EXPECT_EQ(g->load_record(text)->hash(), game->hash());
    EXPECT_EQ(g->load_record(text)->record(), text);
  }
  EXPECT_GE(crownings, 3) << "random play should crown now and then";
}

// ------------------------------------------------------------------------------------------------
// Full turns against a brute-force search over turns.

struct TurnStats {
  int positions = 0, nodes = 0, short_turns = 0, no_targets = 0, wins = 0, crowns = 0, chains = 0;
};

using Memo = std::map<std::pair<std::vector<ref::Kind>, int>, int>;

// The longest turn p can make from b after m sub-moves: a kill that leaves one main bug ends
// the game, so only the last sub-move may be one. Within a turn the board says which cells
// were played, so it keys the memo.
int longest_turn(const ref::Board& b, int p, int m, int per_turn, Memo& memo) {
  if (m == per_turn) return m;
  const auto key = std::make_pair(b.kind, m);
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  int best = m;
  for (Action a : ref::sub_moves(b, p)) {
    const ref::Board next = ref::play(b, p, a);
    best = std::max(best, next.players_in() == 1 ? m + 1 : longest_turn(next, p, m + 1, per_turn, memo));
  }
  return memo[key] = best;
}

// Walks the engine's turn tree and checks each node against the full-turn rule searched by
// brute force: a sub-move is legal exactly when, after it, the turn can still be completed to
// its longest length or end the game; the turn ends exactly at that length.
class TurnWalk {
 public:
  TurnWalk(int mover, int per_turn, TurnStats& stats) : p_(mover), per_turn_(per_turn), stats_(stats) {}

  void start(const KlopodavkaState& s, const ref::Board& b) {
    Memo memo;
    longest_ = longest_turn(b, p_, 0, per_turn_, memo);
    stats_.short_turns += longest_ < per_turn_;
    stats_.no_targets += longest_ == 0;
    walk(s, b, 0);
  }

 private:
  static bool wins(const ref::Board& next) { return next.players_in() == 1; }

  // Can a turn with m sub-moves made on b reach the longest length, or end the game?
  bool completes(const ref::Board& b, int m) {
    if (m == longest_) return true;
    const auto key = std::make_pair(b.kind, m);
    if (const auto it = completes_.find(key); it != completes_.end()) return it->second != 0;
    bool can = false;
    for (Action a : ref::sub_moves(b, p_)) {
      const ref::Board next = ref::play(b, p_, a);
      if (wins(next) || completes(next, m + 1)) {
        can = true;
        break;
      }
    }
    completes_[key] = can;
    return can;
  }

  bool walk(const KlopodavkaState& s, const ref::Board& b, int m) {
    ++stats_.nodes;
    std::vector<Action> expected;
    for (Action a : ref::sub_moves(b, p_)) {
      const ref::Board next = ref::play(b, p_, a);
      if (wins(next) || completes(next, m + 1)) expected.push_back(a);
    }
    if (m == 0) expected.push_back(2 * b.cells());
    if (legal_of(s) != expected) {
      ADD_FAILURE() << "legal " << ::testing::PrintToString(texts_of(s, legal_of(s))) << ", the rules give "
                    << ::testing::PrintToString(texts_of(s, expected)) << " at sub-move " << m + 1 << "\n"
                    << s.to_string();
      return false;
    }
    for (Action a : expected) {
      if (a == 2 * b.cells()) continue;
      stats_.crowns += a >= b.cells();
      auto child = as_klopodavka(s.clone());
      child->apply(a);
      const ref::Board next = ref::play(b, p_, a);
      if (wins(next)) {
        ++stats_.wins;
        EXPECT_TRUE(child->is_terminal());
        EXPECT_EQ(returns_of(*child)[static_cast<std::size_t>(p_)], 1.0);
      } else if (m + 1 == longest_) {
        EXPECT_EQ(child->current_player(), ref::next_in(next, p_)) << "the turn is over\n" << child->to_string();
        EXPECT_EQ(child->sub_move(), 0);
      } else {
        EXPECT_EQ(child->current_player(), p_) << "the turn goes on\n" << child->to_string();
        EXPECT_EQ(child->sub_move(), m + 1);
        if (!::testing::Test::HasFailure() && !walk(*child, next, m + 1)) return false;
      }
      if (::testing::Test::HasFailure()) return false;
    }
    return true;
  }

  const int p_, per_turn_;
  int longest_ = 0;
  TurnStats& stats_;
  std::map<std::pair<std::vector<ref::Kind>, int>, char> completes_;
};

// A random position on 7×7 for 3 players: mostly killed cells (chains, walls, short turns),
// a main bug and a few bugs each, sometimes rings, sometimes a player out.
std::string random_diagram(Rng& rng, int players) {
  const double killed = 0.55 + 0.43 * rng.uniform();
  std::string rows(49, '.');
  for (char& c : rows)
    if (rng.uniform() < killed) c = static_cast<char>('1' + rng.below(static_cast<std::uint32_t>(players)));
  if (rng.below(4) == 0) {  // a ring around a free cell
    const int centre = 8 + static_cast<int>(rng.below(5)) + 7 * static_cast<int>(rng.below(5));
    for (int d : {-8, -7, -6, -1, 1, 6, 7, 8}) rows[static_cast<std::size_t>(centre + d)] = 'a';
    rows[static_cast<std::size_t>(centre)] = '.';
  }
  for (int p = 0; p < players; ++p) {
    if (p > 0 && rng.below(5) == 0) continue;  // out
    for (int k = static_cast<int>(rng.below(3)); k > 0; --k) rows[rng.below(49)] = static_cast<char>('a' + p);
    rows[rng.below(49)] = static_cast<char>('A' + p);
  }
  return rows;
}

void check_turn_start(const KlopodavkaState& s, int per_turn, TurnStats& stats) {
  const ref::Board b = ref::from_state(s);
  const int p = s.current_player();
  ++stats.positions;
  for (Player q = 0; q < b.players; ++q) {
    EXPECT_EQ(s.targets_for(q), ref::targets(b, q)) << "player " << q << "\n" << s.to_string();
    EXPECT_EQ(s.crown_cells(q), ref::crowns(b, q)) << "player " << q << "\n" << s.to_string();
  }
  for (int c : ref::targets(b, p)) {
    const std::vector<int> n = ref::around(b, c);
    if (std::none_of(n.begin(), n.end(), [&](int d) { return b.live(d, p); })) {
      ++stats.chains;  // reached only through the mover's kills
      break;
    }
  }
  TurnWalk(p, per_turn, stats).start(s, b);
}

TEST(KlopodavkaBruteForce, FullTurnsMatchTheSearchOverTurnsOnRandomPositions) {
  TurnStats stats;
  Rng rng(20250101);
  // Random diagrams with three and with five sub-moves a turn; turns with many choices have
  // too many paths to walk whole, so those positions are passed over.
  // (An eighth of each count under the sanitizers: tests/test_scale.h.)
  for (const auto& [per_turn, wanted, most] : {std::tuple{3, test_share(1500), 9}, std::tuple{5, test_share(300), 6}}) {
    const auto g = klopodavka("klopodavka(players=3,width=7,height=7,submoves=" + std::to_string(per_turn) + ")");
    int diagrams = 0;
    for (int i = 0; diagrams < wanted && i < 100000 && !::testing::Test::HasFailure(); ++i) {
      const std::string rows = random_diagram(rng, 3);
      std::vector<Player> in;
      for (Player p = 0; p < 3; ++p)
        if (std::count(rows.begin(), rows.end(), static_cast<char>('A' + p)) == 1) in.push_back(p);
      if (in.size() < 2 || std::count(rows.begin(), rows.end(), 'A') != 1) continue;
      auto s = KlopodavkaState::from_diagram(*g, rows, in[rng.below(static_cast<std::uint32_t>(in.size()))]);
      if (static_cast<int>(legal_of(*s).size()) > most) continue;
      ++diagrams;
      check_turn_start(*s, per_turn, stats);
    }
    EXPECT_EQ(diagrams, wanted) << per_turn << " sub-moves";
  }
  // Positions from random games: real histories, players out, passes.
  const auto g = klopodavka("klopodavka(players=3,width=11,height=11,submoves=3)");
  int from_games = 0;
  for (int i = 0; from_games < test_share(150) && i < 20000 && !::testing::Test::HasFailure(); ++i) {
    auto s = as_klopodavka(g->new_initial_state());
    const int stop = static_cast<int>(rng.below(400));
    for (int n = 0; !s->is_terminal() && (n < stop || s->sub_move() != 0); ++n) s->apply(s->random_legal_action(rng));
    if (s->is_terminal() || legal_of(*s).size() > 11) continue;
    ++from_games;
    check_turn_start(*s, 3, stats);
  }
  EXPECT_EQ(from_games, test_share(150));
  // The cases the rule is about must occur, or this proves little.
  const std::vector<std::tuple<const char*, int, int>> seen = {
      {"short turns", stats.short_turns, test_share(200)},
      {"positions without targets", stats.no_targets, test_share(20)},
      {"winning sub-moves", stats.wins, test_share(50)},
      {"crownings", stats.crowns, test_share(50)},
      {"targets reached through chains", stats.chains, test_share(100)}};
  for (const auto& [what, count, least] : seen) EXPECT_GE(count, least) << what;
  std::printf("brute force: %d positions, %d nodes, %d short turns, %d without targets, %d wins, %d crownings, "
              "%d with chains\n",
              stats.positions, stats.nodes, stats.short_turns, stats.no_targets, stats.wins, stats.crowns,
              stats.chains);
}

// ------------------------------------------------------------------------------------------------
// Random games: the engine against the reference after every action.

// What the test follows of a game by itself, to check the engine's bookkeeping.
struct Tracked {
  std::vector<int> out_order;  // 0 while in, 1 for the first out, ...
  int outs = 0;
  int passes = 0;
  int turns = 0;
};

// The observation the header promises, from the reference board.
std::vector<float> expected_observation(const KlopodavkaState& s, const ref::Board& b, const Tracked& t, Player v) {
  const KlopodavkaGame& g = s.klopodavka();
  const int n = b.players, area = b.cells(), subs = g.submoves();
  std::vector<float> out(static_cast<std::size_t>(g.observation_shape().size()));
  const auto put = [&](int plane, int c) { out[static_cast<std::size_t>(plane * area + c)] = 1.0f; };
  const auto fill = [&](int plane, float x) { std::fill_n(out.begin() + plane * area, area, x); };
  for (int k = 0; k < n; ++k) {
    const int q = (v + k) % n;
    for (int c = 0; c < area; ++c) {
      if (b.kind[c] == ref::kKilled && b.owner[c] == q) put(5 * k + 2, c);
      if (!b.in(q)) continue;
      if (b.live(c, q)) put(5 * k, c);
      if (b.kind[c] == ref::kMain && b.owner[c] == q) put(5 * k + 1, c);
    }
    for (int c : ref::targets(b, q)) put(5 * k + 3, c);
    if (!b.in(q)) fill(5 * k + 4, static_cast<float>(t.out_order[q]) / static_cast<float>(n));
  }
  for (int c = 0; c < area; ++c)
    if ((b.kind[c] == ref::kBug) && !b.in(b.owner[c])) put(5 * n, c);
  for (int c : ref::crowns(b, v)) put(5 * n + 1, c);
  if (!s.is_terminal() && s.current_player() == v) fill(5 * n + 2 + s.sub_move(), 1.0f);
  fill(5 * n + 2 + subs, static_cast<float>(t.passes) / static_cast<float>(std::max(b.players_in(), 1)));
  fill(5 * n + 3 + subs, static_cast<float>(t.turns) / static_cast<float>(g.max_turns()));
  return out;
}

void check_deeply(const KlopodavkaState& s, const ref::Board& b, const Tracked& t) {
  const KlopodavkaGame& g = s.klopodavka();
  if (!s.is_terminal()) { ASSERT_EQ(legal_of(s), expected_legal(b, s.current_player(), s.sub_move())) << s.to_string(); }
  for (Player v = 0; v < b.players; ++v) {
    std::vector<float> obs(static_cast<std::size_t>(g.observation_shape().size()));
    s.observation(v, obs);
    const std::vector<float> want = expected_observation(s, b, t, v);
    for (std::size_t i = 0; i < obs.size(); ++i)
      ASSERT_EQ(obs[i], want[i]) << "viewer " << v << ", plane " << i / b.cells() << ", cell " << i % b.cells() << "\n"
                                 << s.to_string();
    std::vector<float> owner(static_cast<std::size_t>(b.cells()));
    s.ownership(v, owner);
    for (int c = 0; c < b.cells(); ++c)
      ASSERT_EQ(owner[c], b.kind[c] == ref::kEmpty ? 0.0f : b.owner[c] == v ? 1.0f : -1.0f) << c;
  }
  // A clone hashes alike and plays on alone; the record reads back to the same position.
  auto copy = s.clone();
  ASSERT_EQ(copy->hash(), s.hash());
  ASSERT_EQ(copy->to_string(), s.to_string());
  if (s.starts_from_initial_state() && s.sub_move() == 0) {
    ASSERT_EQ(g.load_record(s.record())->hash(), s.hash());
  }
}

// Plays one random game, following it with the reference: who moves, the turn's length, who
// goes out and in which order, passes, the end and the returns.
void play_followed_game(const KlopodavkaGame& g, Rng& rng, std::map<std::string, int>& endings) {
  auto s = as_klopodavka(g.new_initial_state());
  ref::Board b = ref::from_state(*s);
  Tracked t{std::vector<int>(static_cast<std::size_t>(g.num_players())), 0, 0, 0};
  while (!s->is_terminal()) {
    const Player p = s->current_player();
    const int m = s->sub_move();
    ASSERT_TRUE(b.in(p));
    ASSERT_LT(m, g.submoves());
    if (rng.below(16) == 0) {
      check_deeply(*s, b, t);
      if (::testing::Test::HasFatalFailure()) return;
    }
    const Action a = s->random_legal_action(rng);
    s->apply(a);
    ASSERT_EQ(s->history().back(), (Step{p, a}));
    if (a == g.pass()) {
      ASSERT_EQ(m, 0);
      ++t.turns;
      ++t.passes;
      if (t.passes == b.players_in()) {
        ASSERT_TRUE(s->is_terminal()) << "every player still in passed";
        ++endings["all passed"];
        break;
      }
    } else {
      const int before = b.players_in();
      b = ref::play(b, p, a);
      for (Player q = 0; q < b.players; ++q)
        if (t.out_order[q] == 0 && !b.in(q)) t.out_order[q] = ++t.outs;
      if (b.players_in() == 1) {
        ASSERT_TRUE(s->is_terminal()) << "the last main bug wins";
        ++t.turns;
        ++endings["last main bug"];
        break;
      }
      endings["player out"] += b.players_in() < before;
      const bool turn_over = m + 1 == g.submoves() || ref::targets(b, p).empty();
      if (turn_over) {
        ++t.turns;
        t.passes = 0;
        endings["short turn"] += m + 1 < g.submoves();
      } else {
        ASSERT_EQ(s->current_player(), p) << "the turn goes on while a target is left";
        ASSERT_EQ(s->sub_move(), m + 1);
        continue;
      }
    }
    ASSERT_EQ(s->move_number(), t.turns);
    if (t.turns == g.max_turns()) {
      ASSERT_TRUE(s->is_truncated());
      ++endings["turn cap"];
      break;
    }
    ASSERT_EQ(s->current_player(), ref::next_in(b, p)) << "clockwise, skipping those out";
    ASSERT_EQ(s->sub_move(), 0);
    ASSERT_EQ(s->passes_in_a_row(), t.passes);
  }
  ASSERT_TRUE(s->is_terminal());
  ASSERT_EQ(s->move_number(), t.turns);
  check_deeply(*s, b, t);
  // Ranks: those in first, then by when they went out, ties averaged; the sum is zero.
  const std::vector<double> r = returns_of(*s);
  ASSERT_NEAR(std::accumulate(r.begin(), r.end(), 0.0), 0.0, 1e-9);
  for (Player p = 0; p < b.players; ++p)
    for (Player q = 0; q < b.players; ++q) {
      const int sp = t.out_order[p] == 0 ? 99 : t.out_order[p], sq = t.out_order[q] == 0 ? 99 : t.out_order[q];
      if (sp > sq) { ASSERT_GT(r[p], r[q]); }
      if (sp == sq) { ASSERT_EQ(r[p], r[q]); }
    }
  ASSERT_EQ(g.load_record(s->record())->hash(), s->hash());
}

TEST(KlopodavkaRandomGames, TheEngineFollowsTheReferenceFor2To6Players) {
  Rng rng(77);
  std::map<std::string, int> endings;
  const std::vector<std::pair<std::string, int>> settings = {
      {"klopodavka(players=2,width=10,height=10)", 1200},
      {"klopodavka(players=3,width=11,height=11,submoves=3)", 600},
      {"klopodavka(players=4,width=10,height=10)", 600},
      {"klopodavka(players=5,width=13,height=9,revolution=false)", 300},
      {"klopodavka(players=6,width=11,height=9,max_turns=30)", 600},
      // Ranks 70 cells apart: a shift by a rank crosses more than a 64-bit word.
      {"klopodavka(players=2,width=70,height=5)", 50},
  };
  int games = 0;
  for (const auto& [text, count] : settings) {
    const auto g = klopodavka(text);
    for (int i = 0; i < test_share(count); ++i, ++games) {
      play_followed_game(*g, rng, endings);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GE(games, test_share(3350));
  for (const char* ending : {"all passed", "last main bug", "player out", "short turn", "turn cap"})
    EXPECT_GE(endings[ending], test_share(10)) << ending;
  for (const auto& [ending, count] : endings) std::printf("%s: %d\n", ending.c_str(), count);
}

TEST(KlopodavkaRandomGames, TheDefaultGameAndTheSheetFollowTheReference) {
  // The shared suites leave the big boards out (too slow there): a few games here.
  Rng rng(5);
  std::map<std::string, int> endings;
  for (const auto& [text, count] : {std::pair{"klopodavka", 20}, std::pair{"klopodavka(board=sheet)", 1}}) {
    const auto g = klopodavka(text);
    for (int i = 0; i < count; ++i) {
      play_followed_game(*g, rng, endings);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(KlopodavkaRandomGames, SubMovesOfATurnCommuteAndHashAlike) {
  const auto g = klopodavka("klopodavka");
  // Sub-moves commute within a turn: both orders give the same position and hash.
  auto s = g->new_initial_state();
  auto other = g->new_initial_state();
  play_turn(*s, "d1-d2-d3-a4-b4");
  play_turn(*other, "b4-a4-d3-d2-d1");
  EXPECT_EQ(s->hash(), other->hash());
  EXPECT_NE(s->hash(), g->new_initial_state()->hash());
  auto shorter = g->new_initial_state();
  play_turn(*shorter, "d1-d2-d3-a4-c4");
  EXPECT_NE(s->hash(), shorter->hash());
}

// ------------------------------------------------------------------------------------------------
// Symmetries.

std::vector<std::string> symmetry_names(const Game& g) {
  std::vector<std::string> out;
  for (const Symmetry& sym : g.symmetries()) out.push_back(sym.name);
  return out;
}

TEST(KlopodavkaSymmetry, TheBoardsSymmetriesThatKeepTheTurnOrder) {
  EXPECT_EQ(symmetry_names(*klopodavka("klopodavka(players=2)")),
            (std::vector<std::string>{"rotate 180", "transpose along a1 diagonal", "transpose along the other diagonal"}));
  EXPECT_EQ(symmetry_names(*klopodavka("klopodavka")),
            (std::vector<std::string>{"rotate 180", "rotate 90 clockwise", "rotate 90 anticlockwise"}));
  EXPECT_EQ(symmetry_names(*klopodavka("klopodavka(players=2,width=12,height=10)")), std::vector<std::string>{"rotate 180"});
  EXPECT_EQ(symmetry_names(*klopodavka("klopodavka(players=6,width=12,height=10)")), std::vector<std::string>{"rotate 180"});
  EXPECT_TRUE(klopodavka("klopodavka(players=3)")->symmetries().empty());
  EXPECT_TRUE(klopodavka("klopodavka(players=5,width=13,height=9)")->symmetries().empty());
  // The 90° turn clockwise moves every seat to the next one, as play goes.
  const auto four = klopodavka("klopodavka");
  EXPECT_EQ(four->symmetries()[1].player, (std::vector<Player>{1, 2, 3, 0}));
  // Two players: the a1 diagonal keeps both seats, the other swaps them.
  const auto two = klopodavka("klopodavka(players=2)");
  EXPECT_TRUE(two->symmetries()[1].player.empty());
  EXPECT_EQ(two->symmetries()[2].player, (std::vector<Player>{1, 0}));
}

// Each symmetry maps the board, the seats and the legal sets, and the image plays on as the
// same game: mapped moves stay legal to the end, and the returns follow the seats.
TEST(KlopodavkaSymmetry, ImagesPlayTheSameGameWithTheSeatsPermuted) {
  Rng rng(8);
  for (const char* text : {"klopodavka(players=2,width=10,height=10)", "klopodavka(players=4,width=10,height=10)",
                           "klopodavka(players=6,width=12,height=10)"}) {
    const auto g = klopodavka(text);
    for (int k = 0; k < static_cast<int>(g->symmetries().size()); ++k) {
      const Symmetry& sym = g->symmetries()[k];
      for (int i = 0; i < 20; ++i) {
        auto s = as_klopodavka(g->new_initial_state());
        const int stop = static_cast<int>(rng.below(60));
        for (int n = 0; n < stop && !s->is_terminal(); ++n) s->apply(s->random_legal_action(rng));
        auto image = as_klopodavka(g->apply_symmetry(*s, k));
        for (int c = 0; c < g->cells(); ++c) {
          const CellView v = s->cell(c), w = image->cell(sym.cell[c]);
          ASSERT_EQ(w.content, v.content) << sym.name;
          ASSERT_EQ(w.owner, sym.map_player(v.owner)) << sym.name;
        }
        ASSERT_EQ(image->move_number(), s->move_number());
        ASSERT_EQ(image->starts_from_initial_state(), sym.map_player(0) == 0);
        while (!s->is_terminal()) {
          const Player p = s->current_player();
          ASSERT_EQ(image->current_player(), sym.map_player(p)) << sym.name;
          std::vector<Action> mapped;
          for (Action a : legal_of(*s)) mapped.push_back(sym.action[a]);
          std::sort(mapped.begin(), mapped.end());
          ASSERT_EQ(legal_of(*image), mapped) << sym.name << "\n" << s->to_string();
          const Action a = s->random_legal_action(rng);
          s->apply(a);
          image->apply(sym.action[a]);
        }
        ASSERT_TRUE(image->is_terminal());
        const std::vector<double> r = returns_of(*s), ri = returns_of(*image);
        for (Player p = 0; p < g->num_players(); ++p) ASSERT_EQ(ri[sym.map_player(p)], r[p]) << sym.name;
      }
    }
  }
}

}  // namespace
}  // namespace boardlab
