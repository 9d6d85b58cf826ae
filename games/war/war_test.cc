// Tests for War against shared/rules/war.md: constructed positions for each rule, and random games against an independent cell-by-cell reference of patterns, command and the budget.
#include "games/war/war.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <numeric>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/rng.h"
#include "games/registry.h"
#include "tests/games/game_test_util.h"
#include "tests/test_scale.h"

namespace boardlab {
namespace {

constexpr int kInfantry = 0, kKnight = 1, kTank = 2, kPlane = 3;

std::shared_ptr<const WarGame> war(const std::string& text) {
  return std::dynamic_pointer_cast<const WarGame>(load_game(text));  // as every user gets it
}

std::unique_ptr<WarState> as_war(std::unique_ptr<State> state) {
  return std::unique_ptr<WarState>(&dynamic_cast<WarState&>(*state.release()));
}

// A cell by its name, from the rule file's alphabet (no j; boards here are at most 25 wide).
int at(const WarGame& g, const std::string& name) {
  const std::string files = "abcdefghiklmnopqrstuvwxyz";
  return (std::stoi(name.substr(1)) - 1) * g.width() + static_cast<int>(files.find(name[0]));
}

// The diagram of two-character cells given in cell order (a1 first): the top rank first.
std::string diagram_of(const WarGame& g, const std::vector<std::string>& cells) {
  std::string diagram;
  for (int rank = g.height() - 1; rank >= 0; --rank) {
    for (int file = 0; file < g.width(); ++file) diagram += cells[static_cast<std::size_t>(rank * g.width() + file)] + " ";
    diagram += "\n";
  }
  return diagram;
}

// A position: the named cells hold the given two-character symbols, the rest is empty.
std::unique_ptr<WarState> position(const WarGame& g, const std::map<std::string, std::string>& pieces,
                                   Player to_move = 0) {
  std::vector<std::string> cells(static_cast<std::size_t>(g.cells()), "..");
  for (const auto& [name, symbol] : pieces) cells[static_cast<std::size_t>(at(g, name))] = symbol;
  return WarState::from_diagram(g, diagram_of(g, cells), to_move);
}

Action act(const WarGame& g, int unit, const std::string& cell) { return g.action_of(unit, at(g, cell)); }

std::set<std::string> names_of(const WarGame& g, const std::vector<int>& cells) {
  std::set<std::string> out;
  for (int c : cells) out.insert(g.notation().cell_name(c));
  return out;
}

std::vector<std::string> legal_texts(const State& s) {
  std::vector<std::string> out;
  for (Action a : s.legal_actions()) out.push_back(s.action_to_string(a));
  return out;
}

bool says(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

// ------------------------------------------------------------------------------------------------
// The reference: per-cell arrays, the patterns as offset predicates and command as a
// breadth-first search, written from the rule text without the engine's bitboards.

namespace ref {

constexpr int kEmpty = -2, kDead = -1, kGeneral = 4;

// Whether (df, dr) is in the pattern of `kind` (the general holds every pattern).
bool in_pattern(int kind, int df, int dr) {
  const int x = std::abs(df), y = std::abs(dr);
  switch (kind) {
    case kInfantry: return std::max(x, y) == 1;
    case kKnight: return x * y == 2;
    case kTank: return (x == 0 || x == 2) && (y == 0 || y == 2) && x + y > 0;
    case kPlane: return (x == 0 || x == 5) && (y == 0 || y == 5) && x + y > 0;
    default: return in_pattern(kInfantry, df, dr) || in_pattern(kKnight, df, dr) || in_pattern(kTank, df, dr) ||
                    in_pattern(kPlane, df, dr);
  }
}

struct Board {
  int width = 0, height = 0, players = 0;
  std::vector<int> kind, owner;
  int cells() const { return width * height; }
  bool live(int c) const { return kind[c] >= 0; }
  bool has_general(int p) const {
    for (int c = 0; c < cells(); ++c)
      if (kind[c] == kGeneral && owner[c] == p) return true;
    return false;
  }
};

Board from_state(const WarState& s) {
  const WarGame& g = s.war();
  Board b{g.width(), g.height(), g.num_players(), {}, {}};
  for (int c = 0; c < g.cells(); ++c) {
    const WarState::CellView v = s.cell(c);
    b.kind.push_back(v.content == WarState::kNothing ? kEmpty : v.content == WarState::kDead ? kDead : v.content);
    b.owner.push_back(v.owner);
  }
  return b;
}

bool reaches(const Board& b, int kind, int from, int to) {
  return in_pattern(kind, to % b.width - from % b.width, to / b.width - from / b.width);
}

// p's live units joined to its live general by links, as a set of cells.
std::vector<int> commanded(const Board& b, int p) {
  std::vector<bool> seen(static_cast<std::size_t>(b.cells()));
  std::queue<int> frontier;
  for (int c = 0; c < b.cells(); ++c)
    if (b.kind[c] == kGeneral && b.owner[c] == p) seen[c] = true, frontier.push(c);
  while (!frontier.empty()) {
    const int u = frontier.front();
    frontier.pop();
    for (int v = 0; v < b.cells(); ++v)
      if (!seen[v] && b.live(v) && b.owner[v] == p && (reaches(b, b.kind[u], u, v) || reaches(b, b.kind[v], v, u)))
        seen[v] = true, frontier.push(v);
  }
  std::vector<int> out;
  for (int c = 0; c < b.cells(); ++c)
    if (seen[c]) out.push_back(c);
  return out;
}

// The budget as the rule file words it: one extra sub-move per unused type, for any other type.
bool budget_allows(std::array<int, 4> used, int t) {
  ++used[t];
  const int base[4] = {4, 2, 2, 1};
  int extra_needed = 0, unused_types = 0;
  for (int u = 0; u < 4; ++u) {
    if (used[u] > base[u]) extra_needed += used[u] - base[u];
    if (used[u] == 0) ++unused_types;
  }
  return extra_needed <= unused_types;
}

// p's sub-moves with `used` already made this turn, ascending by action.
std::vector<Action> sub_moves(const Board& b, int p, const std::array<int, 4>& used) {
  std::set<Action> out;
  const std::vector<int> sources = commanded(b, p);
  for (int t = 0; t < 4; ++t) {
    if (!budget_allows(used, t)) continue;
    for (int s : sources) {
      if (b.kind[s] != t && b.kind[s] != kGeneral) continue;
      for (int dr = -5; dr <= 5; ++dr)
        for (int df = -5; df <= 5; ++df) {
          const int file = s % b.width + df, rank = s / b.width + dr;
          if (!in_pattern(t, df, dr) || file < 0 || file >= b.width || rank < 0 || rank >= b.height) continue;
          const int c = rank * b.width + file;
          if (b.kind[c] == kEmpty || (b.live(c) && b.owner[c] != p)) out.insert(t * b.cells() + c);
        }
    }
  }
  return {out.begin(), out.end()};
}

}  // namespace ref

std::array<int, 4> used_of(const WarState& s) {
  const TurnBudget budget = s.budget();
  return {budget.used[0], budget.used[1], budget.used[2], budget.used[3]};
}

// The legal actions the reference gives for the mover of `s`.
std::vector<Action> reference_legal(const WarState& s) {
  std::vector<Action> out = ref::sub_moves(ref::from_state(s), s.current_player(), used_of(s));
  out.push_back(s.war().end());
  return out;
}

// ------------------------------------------------------------------------------------------------
// The start and the parameters.

TEST(WarStart, GeneralsStandOnTheirSlotsCentresAndAMovesFirst) {
  const auto g = war("war");  // 4 players on 20×20
  auto s = as_war(g->new_initial_state());
  const std::vector<std::string> centres = {"b2", "b19", "t19", "t2"};  // BL TL TR BR, clockwise
  for (Player p = 0; p < 4; ++p) {
    EXPECT_EQ(s->general(p), at(*g, centres[p]));
    EXPECT_EQ(s->cell(at(*g, centres[p])), (WarState::CellView{WarState::kGeneral, p, true}));
    EXPECT_EQ(s->commanded(p), std::vector<int>{at(*g, centres[p])});
  }
  EXPECT_EQ(s->current_player(), 0);
  // The general holds every pattern: 8 infantry cells, 4 knight, 3 tank and 3 plane cells from b2.
  EXPECT_EQ(legal_texts(*s), (std::vector<std::string>{"Pa1", "Pb1", "Pc1", "Pa2", "Pc2", "Pa3", "Pb3", "Pc3", "Kd1",
                                                       "Kd3", "Ka4", "Kc4", "Td2", "Tb4", "Td4", "Sg2", "Sb7", "Sg7",
                                                       "pass"}));
  EXPECT_EQ(g->num_distinct_actions(), 4 * 400 + 1);
  EXPECT_EQ(g->observation_shape().channels, 7 * 4 + 12);
  EXPECT_EQ(g->to_string(), "war(board=custom,height=20,max_turns=1000,players=4,width=20)");
  EXPECT_EQ(g->traits().pass_action, g->end());
}

TEST(WarStart, EachPlayerCountTakesKlopodavkasSlots) {
  // Klopodavka's slots (games/sub_move_grid/start_slots.h): on 12×10 the centres are b2 (BL),
  // b9 (TL), f9 (TM, left of the middle on an even width), l9 (TR), l2 (BR), g2 (BM).
  const std::map<std::string, std::string> centre = {{"BL", "b2"}, {"TL", "b9"}, {"TM", "f9"},
                                                     {"TR", "l9"}, {"BR", "l2"}, {"BM", "g2"}};
  const std::vector<std::vector<std::string>> slots = {
      {"BL", "TR"}, {"BL", "TM", "BR"}, {"BL", "TL", "TR", "BR"}, {"BL", "TL", "TM", "TR", "BR"},
      {"BL", "TL", "TM", "TR", "BR", "BM"}};
  for (const std::vector<std::string>& seats : slots) {
    const int n = static_cast<int>(seats.size());
    const auto g = war("war(players=" + std::to_string(n) + ",width=12,height=10)");
    auto s = as_war(g->new_initial_state());
    for (Player p = 0; p < n; ++p)
      EXPECT_EQ(g->notation().cell_name(s->general(p)), centre.at(seats[p])) << n << " players, seat " << p;
  }
}

// Why load_game refuses `text`, or "(accepted)".
std::string refusal_of(const std::string& text) {
  std::string why = "(accepted)";
  try {
    load_game(text);
  } catch (const GameParameterError& e) {
    why = e.what();
  }
  return why;
}

TEST(WarStart, ParametersAreKlopodavkasAndCheckedWithReasons) {
  for (const auto& [text, reason] : std::vector<std::pair<std::string, std::string>>{
           {"war(players=1)", "war: players must be 2..6"},
           {"war(players=7)", "players must be 2..6"},
           {"war(width=2)", "at least 3"},
           {"war(width=40,height=40)", "at most 1280 cells"},
           {"war(players=6,width=10,height=10)", "touch"},
           {"war(board=a4)", "board must be custom or sheet"},
           {"war(board=sheet,height=30)", "board=sheet is 39x32"},
           {"war(max_turns=0)", "max_turns must be 1..65535"},
           {"war(submoves=3)", "submoves"},
       })
    EXPECT_TRUE(says(refusal_of(text), reason)) << text << ": " << refusal_of(text);
  const auto sheet = war("war(board=sheet)");
  EXPECT_EQ(sheet->to_string(), "war(board=sheet,height=32,max_turns=1000,players=4,width=39)");
  EXPECT_EQ(sheet->num_distinct_actions(), 4 * 39 * 32 + 1);
  auto s = as_war(sheet->new_initial_state());
  EXPECT_EQ(sheet->notation().cell_name(s->general(2)), "an31");
  EXPECT_EQ(s->action_to_string(sheet->action_of(kPlane, s->general(2) - 5 * 39)), "San26");
}

// ------------------------------------------------------------------------------------------------
// Patterns: each unit type places and kills along its own pattern.

TEST(WarPatterns, EachTypePlacesAndKillsAlongItsPattern) {
  const auto g = war("war(players=2,width=20,height=20)");
  // The cells each type's pattern reaches from k10, worked out from the rule file's offsets.
  const std::vector<std::set<std::string>> reach = {
      {"i9", "k9", "l9", "i10", "l10", "i11", "k11", "l11"},   // the 8 neighbours
      {"h9", "h11", "i8", "i12", "l8", "l12", "m9", "m11"},    // a knight's move
      {"h8", "h10", "h12", "k8", "k12", "m8", "m10", "m12"},   // (±2,0), (0,±2), (±2,±2)
      {"e5", "e10", "e15", "k5", "k15", "p5", "p10", "p15"}};  // (±5,0), (0,±5), (±5,±5)
  // A cell of each that no other source of A reaches with any other type.
  const std::vector<std::string> only = {"l11", "m11", "m12", "p15"};
  const std::string letters = "PKTS";
  for (int t = 0; t < 4; ++t) {
    // A line of infantry b2 .. i9 joins the unit at k10 to the general (i9 -> k10 is (1,1)).
    std::map<std::string, std::string> pieces = {{"b2", "AG"}, {"t19", "BG"}, {"k10", std::string("A") + letters[t]}};
    for (const char* cell : {"c3", "d4", "e5", "f6", "g7", "h8", "i9"}) pieces[cell] = "AP";
    auto s = position(*g, pieces);
    ASSERT_TRUE(s->cell(at(*g, "k10")).commanded) << letters[t];
    const std::set<std::string> targets = names_of(*g, s->targets_for(0, t));
    for (const std::string& cell : reach[t])
      EXPECT_EQ(targets.count(cell), pieces.count(cell) ? 0u : 1u) << letters[t] << " " << cell;
    for (int other = 0; other < 4; ++other)
      if (other != t) { EXPECT_FALSE(names_of(*g, s->targets_for(0, other)).count(only[t])) << letters[t] << other; }
    s->apply(g->action_of(t, at(*g, only[t])));
    EXPECT_EQ(s->cell(at(*g, only[t])), (WarState::CellView{t, 0, true})) << letters[t];
    // A unit of B on that cell is killed by the same sub-move: a dead cell is left.
    pieces[only[t]] = "BP";
    auto k = position(*g, pieces);
    k->apply(g->action_of(t, at(*g, only[t])));
    EXPECT_EQ(k->cell(at(*g, only[t])).content, WarState::kDead) << letters[t];
    EXPECT_EQ(k->current_player(), 0) << "the turn goes on after a kill";
  }
}

TEST(WarPatterns, TanksAndPlanesJumpOverAnything) {
  const auto g = war("war(players=2,width=12,height=12)");
  // A's tank at d4 (linked to the general at b2 by the tank's (2,2)), walled in by dead cells
  // and its own infantry c3; B's knight at b4.
  std::map<std::string, std::string> pieces = {{"b2", "AG"}, {"l11", "BG"}, {"d4", "AT"}, {"c3", "AP"}, {"b4", "BK"}};
  for (const char* cell : {"c4", "c5", "d5", "e5", "e4", "e3", "d3"}) pieces[cell] = "xx";
  auto s = position(*g, pieces);
  ASSERT_TRUE(s->cell(at(*g, "d4")).commanded);
  // From d4 over the ring, and from the general: b4 holds B's knight, b2 and d4 are A's own.
  EXPECT_EQ(names_of(*g, s->targets_for(0, kTank)), (std::set<std::string>{"f4", "b4", "d6", "d2", "f6", "f2", "b6"}));
  // The general's planes jump five cells over whatever stands between.
  EXPECT_EQ(names_of(*g, s->targets_for(0, kPlane)), (std::set<std::string>{"g2", "b7", "g7"}));
  s->apply(act(*g, kTank, "b4"));
  EXPECT_EQ(s->cell(at(*g, "b4")).content, WarState::kDead);
  s->apply(act(*g, kTank, "f6"));
  EXPECT_EQ(s->cell(at(*g, "f6")), (WarState::CellView{kTank, 0, true}));
}

// ------------------------------------------------------------------------------------------------
// Command.

TEST(WarCommand, DeadCellsAreWallsForChainsAndTargets) {
  const auto g = war("war(players=2,width=12,height=12)");
  // Infantry b2-c3-[d4 dead]-e5: e5 is cut off, since a dead cell links nothing.
  auto s = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"c3", "AP"}, {"d4", "xx"}, {"e5", "AP"}});
  EXPECT_EQ(names_of(*g, s->commanded(0)), (std::set<std::string>{"b2", "c3"}));
  EXPECT_FALSE(s->cell(at(*g, "e5")).commanded);
  const std::set<std::string> infantry = names_of(*g, s->targets_for(0, kInfantry));
  EXPECT_FALSE(infantry.count("d4")) << "a dead cell is never a target";
  EXPECT_FALSE(infantry.count("f6")) << "nothing beyond the wall";
  EXPECT_TRUE(says(rejected(*s, act(*g, kInfantry, "d4")), "d4 is a dead cell"));
  // On the text board: the cut-off unit in lower case, the dead cell as xx.
  EXPECT_TRUE(says(s->to_string(), "\n 5 .. .. .. .. aP .. ..")) << s->to_string();
  EXPECT_TRUE(says(s->to_string(), "\n 4 .. .. .. xx .. .. ..")) << s->to_string();
}

TEST(WarCommand, AnUncommandedUnitCannotActAndActsAgainOnceReconnected) {
  const auto g = war("war(players=2,width=12,height=12)");
  // A's infantry e5 is two cells from c3: no infantry link, and no pattern of either joins them.
  auto s = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"c3", "AP"}, {"e5", "AP"}, {"f6", "BP"}});
  EXPECT_FALSE(s->cell(at(*g, "e5")).commanded);
  EXPECT_FALSE(names_of(*g, s->targets_for(0, kInfantry)).count("f5"));
  const std::string why = rejected(*s, act(*g, kInfantry, "f6"));  // B's unit next to e5 only
  EXPECT_TRUE(says(why, "infantry on e5 does, but is not commanded")) << why;
  // d4 joins c3 to e5: the cut-off unit is commanded again, in the same turn.
  s->apply(act(*g, kInfantry, "d4"));
  EXPECT_TRUE(s->cell(at(*g, "e5")).commanded);
  EXPECT_EQ(s->current_player(), 0);
  s->apply(act(*g, kInfantry, "f6"));
  EXPECT_EQ(s->cell(at(*g, "f6")).content, WarState::kDead);
  // Killing a link cuts the chain again: B's tank on f6 (joined to B's general by i9, h8,
  // g7) kills d4, and e5 loses command.
  auto t = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"c3", "AP"}, {"d4", "AP"}, {"e5", "AP"}, {"i9", "BP"},
                         {"h8", "BP"}, {"g7", "BP"}, {"f6", "BT"}},
                     1);
  EXPECT_TRUE(t->cell(at(*g, "e5")).commanded);
  ASSERT_TRUE(t->cell(at(*g, "f6")).commanded);
  t->apply(act(*g, kTank, "d4"));
  ASSERT_EQ(t->cell(at(*g, "d4")).content, WarState::kDead);
  EXPECT_EQ(names_of(*g, t->commanded(0)), (std::set<std::string>{"b2", "c3"}));
  EXPECT_EQ(t->cell(at(*g, "e5")), (WarState::CellView{kInfantry, 0, false}));
}

TEST(WarCommand, ALinkThroughAnotherUnitTypeCounts) {
  const auto g = war("war(players=2,width=12,height=12)");
  // b2 -> c4 is a knight's move (the general's pattern); c4 -> d6 is a knight's move too, in
  // the knight's pattern but not in infantry's: the infantry on d6 is commanded through the
  // knight. b2 -> d6 is (2,4), in no pattern.
  auto s = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"c4", "AK"}, {"d6", "AP"}});
  EXPECT_EQ(names_of(*g, s->commanded(0)), (std::set<std::string>{"b2", "c4", "d6"}));
  EXPECT_TRUE(names_of(*g, s->targets_for(0, kInfantry)).count("e7"));
  // Without the knight the infantry is alone.
  auto alone = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"d6", "AP"}});
  EXPECT_EQ(names_of(*g, alone->commanded(0)), (std::set<std::string>{"b2"}));
  EXPECT_FALSE(names_of(*g, alone->targets_for(0, kInfantry)).count("e7"));
  // A link in v's pattern and not in u's: c4 -> e6 is (2,2), the tank's and not the knight's,
  // so a tank there is linked by its own pattern and an infantry is not.
  auto tank = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"c4", "AK"}, {"e6", "AT"}});
  EXPECT_TRUE(tank->cell(at(*g, "e6")).commanded);
  auto infantry = position(*g, {{"b2", "AG"}, {"l11", "BG"}, {"c4", "AK"}, {"e6", "AP"}});
  EXPECT_FALSE(infantry->cell(at(*g, "e6")).commanded);
}

// ------------------------------------------------------------------------------------------------
// The budget.

TEST(WarBudget, FourPlanesOnlyWhenTheOtherThreeTypesAreUnused) {
  const auto g = war("war(players=2,width=20,height=20)");
  // A's general in the middle: 8 plane cells, and every other type has targets.
  const std::map<std::string, std::string> pieces = {{"k10", "AG"}, {"a1", "BG"}};
  auto s = position(*g, pieces);
  for (const char* cell : {"e5", "e10", "e15"}) s->apply(act(*g, kPlane, cell));
  EXPECT_EQ(used_of(*s), (std::array<int, 4>{0, 0, 0, 3}));
  // A fourth plane takes the third unused type's extra; nothing is left after it, so the turn
  // ends by itself.
  s->apply(act(*g, kPlane, "p5"));
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->move_number(), 1);

  // With one infantry used, three planes are the most.
  auto t = position(*g, pieces);
  t->apply(act(*g, kInfantry, "k11"));
  for (const char* cell : {"e5", "e10", "e15"}) t->apply(act(*g, kPlane, cell));
  std::string why = rejected(*t, act(*g, kPlane, "p5"));
  EXPECT_TRUE(says(why, "the turn's budget allows no more plane sub-moves: A used 1 infantry, 0 knight, 0 tank, 3 plane"))
      << why;
  // A knight would leave one unused type for two extra planes; a second infantry is still within its base.
  EXPECT_TRUE(says(rejected(*t, act(*g, kKnight, "l12")), "budget allows no more knight"));
  // Only infantry is left: the 10 free cells next to k10 and k11, and end.
  EXPECT_EQ(legal_texts(*t).front(), "Pi9");
  EXPECT_EQ(legal_texts(*t).size(), 10u + 1u);
}

TEST(WarBudget, FiveInfantryOnlyWithAnotherTypeUnused) {
  const auto g = war("war(players=2,width=20,height=20)");
  const std::map<std::string, std::string> pieces = {{"k10", "AG"}, {"a1", "BG"}};
  // Knight, tank and plane used once each: infantry stays at its base of 4.
  auto s = position(*g, pieces);
  for (const auto& [unit, cell] : std::vector<std::pair<int, std::string>>{
           {kKnight, "l12"}, {kTank, "m12"}, {kPlane, "p15"}, {kInfantry, "i9"}, {kInfantry, "k9"}, {kInfantry, "l9"},
           {kInfantry, "i10"}})
    s->apply(act(*g, unit, cell));
  EXPECT_TRUE(says(rejected(*s, act(*g, kInfantry, "l10")), "budget allows no more infantry"));
  // The plane unused: a fifth infantry is its extra sub-move (and a sixth is not).
  auto t = position(*g, pieces);
  for (const auto& [unit, cell] : std::vector<std::pair<int, std::string>>{
           {kKnight, "l12"}, {kTank, "m12"}, {kInfantry, "i9"}, {kInfantry, "k9"}, {kInfantry, "l9"},
           {kInfantry, "i10"}, {kInfantry, "l10"}})
    t->apply(act(*g, unit, cell));
  EXPECT_EQ(used_of(*t), (std::array<int, 4>{5, 1, 1, 0}));
  EXPECT_TRUE(says(rejected(*t, act(*g, kInfantry, "i11")), "budget allows no more infantry"));
  // ... and the plane is closed too: using it would leave no type unused for the fifth infantry.
  EXPECT_TRUE(says(rejected(*t, act(*g, kPlane, "p15")), "budget allows no more plane"));
  EXPECT_EQ(t->current_player(), 0);
  // Two knights and two tanks are still within their bases.
  t->apply(act(*g, kKnight, "h11"));
  t->apply(act(*g, kTank, "m8"));
  // Spent: 5 + 2 + 2 with one type unused; the turn ends by itself, B to move.
  EXPECT_EQ(t->current_player(), 1);
  EXPECT_EQ(t->move_number(), 1);
}

TEST(WarBudget, TheInvariantMatchesTheRuleForEveryCount) {
  // Every count up to the most a type can reach, against the rule's own wording.
  for (int p = 0; p <= 7; ++p)
    for (int k = 0; k <= 5; ++k)
      for (int t = 0; t <= 5; ++t)
        for (int s = 0; s <= 4; ++s) {
          TurnBudget budget;
          budget.used = {static_cast<std::int8_t>(p), static_cast<std::int8_t>(k), static_cast<std::int8_t>(t),
                         static_cast<std::int8_t>(s)};
          for (int unit = 0; unit < 4; ++unit)
            ASSERT_EQ(budget.allows(unit), ref::budget_allows({p, k, t, s}, unit)) << p << k << t << s << unit;
        }
}

TEST(WarBudget, EndStopsATurnEarlyAndIsAPassFirst) {
  const auto g = war("war(players=3,width=11,height=11)");
  auto s = as_war(g->new_initial_state());
  EXPECT_EQ(s->action_to_string(g->end()), "pass");
  s->apply(act(*g, kInfantry, "c3"));
  EXPECT_EQ(s->action_to_string(g->end()), "end");
  EXPECT_EQ(s->implied_turn_end(), g->end());
  s->apply(g->end());
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->passes_in_a_row(), 0);
  EXPECT_EQ(s->implied_turn_end(), kInvalidAction);
  s->apply(g->end());  // B passes
  EXPECT_EQ(s->passes_in_a_row(), 1);
  EXPECT_EQ(s->current_player(), 2);
}

// ------------------------------------------------------------------------------------------------
// Going out and the end.

TEST(WarEnd, AKilledGeneralPutsItsPlayerOutWithInertUnitsThatCanBeKilled) {
  const auto g = war("war(players=3,width=11,height=11)");
  // A's infantry next to B's general at f9; B's knight e7 and C's general at k2.
  auto s = position(*g, {{"b2", "AG"}, {"f9", "BG"}, {"k2", "CG"}, {"e7", "BK"}, {"e8", "AP"}, {"c3", "AP"},
                         {"d4", "AP"}, {"d5", "AP"}, {"d6", "AP"}, {"d7", "AP"}});
  ASSERT_TRUE(s->cell(at(*g, "e8")).commanded);
  s->apply(act(*g, kInfantry, "f9"));
  EXPECT_TRUE(s->is_out(1));
  EXPECT_EQ(s->general(1), -1);
  EXPECT_FALSE(s->is_terminal());
  // B's knight stays, inert: not commanded, and B is skipped in the turn order.
  EXPECT_EQ(s->cell(at(*g, "e7")), (WarState::CellView{kKnight, 1, false}));
  EXPECT_TRUE(s->commanded(1).empty());
  EXPECT_TRUE(s->targets_for(1, kInfantry).empty());
  EXPECT_TRUE(says(s->to_string(), "bK")) << s->to_string();
  // A kills the inert knight from d6 or d7.
  s->apply(act(*g, kInfantry, "e7"));
  EXPECT_EQ(s->cell(at(*g, "e7")).content, WarState::kDead);
  s->apply(g->end());
  EXPECT_EQ(s->current_player(), 2);
  s->apply(g->end());
  EXPECT_EQ(s->current_player(), 0);
}

TEST(WarEnd, TheLastGeneralWinsAtOnceEvenMidTurn) {
  const auto g = war("war(players=2,width=10,height=10)");
  auto s = position(*g, {{"b2", "AG"}, {"c3", "AP"}, {"d4", "BG"}});
  s->apply(act(*g, kInfantry, "d4"));
  ASSERT_TRUE(s->is_terminal());
  EXPECT_FALSE(s->is_truncated());
  EXPECT_EQ(s->returns(), (std::vector<double>{1.0, -1.0}));
  EXPECT_TRUE(says(s->to_string(), "A wins: the last general")) << s->to_string();
  EXPECT_EQ(s->move_number(), 1);
}

TEST(WarEnd, AFullRoundOfPassesIsADrawAmongTheSurvivors) {
  const auto g = war("war(players=4,width=12,height=12)");
  // D is out already: the three still in pass in a row.
  auto s = position(*g, {{"b2", "AG"}, {"b11", "BG"}, {"l11", "CG"}, {"l2", "dP"}});
  for (int i = 0; i < 3; ++i) {
    ASSERT_FALSE(s->is_terminal());
    s->apply(g->end());
  }
  ASSERT_TRUE(s->is_terminal());
  EXPECT_FALSE(s->is_truncated());
  const std::vector<double> r = s->returns(), expected = {1.0 / 3, 1.0 / 3, 1.0 / 3, -1.0};
  for (Player p = 0; p < 4; ++p) EXPECT_NEAR(r[p], expected[p], 1e-12) << p;
  // A sub-move in between starts the count again.
  const auto two = war("war(players=2,width=10,height=10)");  // outlives the state, which points at it
  auto t = as_war(two->new_initial_state());
  t->apply(t->war().end());
  t->apply(t->war().action_of(kInfantry, at(t->war(), "k10")));
  t->apply(t->war().end());
  t->apply(t->war().end());
  EXPECT_FALSE(t->is_terminal());
  t->apply(t->war().end());
  EXPECT_TRUE(t->is_terminal());
}

TEST(WarEnd, TheTurnCapTruncatesIntoADrawAmongTheSurvivors) {
  const auto g = war("war(players=3,width=11,height=11,max_turns=4)");
  auto s = g->new_initial_state();
  for (const char* turn : {"Pc3-Pd4", "pass", "Pk3", "Pb1"}) {
    ASSERT_FALSE(s->is_terminal());
    const int number = s->move_number();
    for (const std::string& part : g->split_turn(turn, false)) s->apply(s->string_to_action(part));
    if (s->move_number() == number) s->apply(g->end());
  }
  ASSERT_TRUE(s->is_terminal());
  EXPECT_TRUE(s->is_truncated());
  EXPECT_EQ(s->returns(), (std::vector<double>{0.0, 0.0, 0.0}));
  EXPECT_EQ(s->record(), "Pc3-Pd4 pass Pk3 Pb1");
}

// Why configs/war.yaml plays on 14x14: on smaller boards the first player can kill a
// neighbour's general on its first turn, before that player has moved (experiments/results,
// "War, 4 players"). Here five knights chain from A's general to B's.
TEST(WarEnd, OnTenByTenTheFirstPlayerKillsANeighbourOnItsFirstTurn) {
  const auto g = war("war(players=4,width=10,height=10)");
  auto s = g->new_initial_state();
  for (const char* sub : {"Kc4", "Kd6", "Ke8", "Kc7", "Kb9"}) s->apply(s->string_to_action(sub));
  EXPECT_TRUE(s->is_out(1));
  EXPECT_EQ(s->record(), "Kc4-Kd6-Ke8-Kc7-Kb9");
}

TEST(WarEnd, ReturnsAreByRankAndSumToZero) {
  const auto g = war("war(players=4,width=12,height=12)");
  // B went out before this position (its infantry b11 is left). A's planes f7 and f6, joined
  // to its general by the infantry c3 d4 e5 e6, kill D's general (f7 -> l2 is (5,-5)) and then
  // C's (f6 -> l11 is (5,5)): A first, C second, D third, B last.
  auto s = position(*g, {{"b2", "AG"}, {"b11", "bP"}, {"l11", "CG"}, {"l2", "DG"}, {"c3", "AP"}, {"d4", "AP"},
                         {"e5", "AP"}, {"e6", "AP"}, {"f6", "AS"}, {"f7", "AS"}});
  ASSERT_TRUE(s->cell(at(*g, "f6")).commanded && s->cell(at(*g, "f7")).commanded);
  s->apply(act(*g, kPlane, "l2"));
  EXPECT_TRUE(s->is_out(3));
  ASSERT_FALSE(s->is_terminal());
  // The returns of B and D are settled while A and C play on: theirs are zero until the end.
  const std::vector<double> settled = s->returns(), expected_settled = {0.0, -1.0, 0.0, -1.0 / 3};
  for (Player p = 0; p < 4; ++p) EXPECT_NEAR(settled[p], expected_settled[p], 1e-12) << p;
  // A draw now would give A and C the first two ranks' mean: their standing returns.
  std::vector<double> standing(4);
  s->standing_returns(standing);
  const std::vector<double> expected_standing = {2.0 / 3, -1.0, 2.0 / 3, -1.0 / 3};
  for (Player p = 0; p < 4; ++p) EXPECT_NEAR(standing[p], expected_standing[p], 1e-12) << p;
  s->apply(act(*g, kPlane, "l11"));
  ASSERT_TRUE(s->is_terminal());
  const std::vector<double> r = s->returns(), expected = {1.0, -1.0, 1.0 / 3, -1.0 / 3};
  for (Player p = 0; p < 4; ++p) EXPECT_NEAR(r[p], expected[p], 1e-12) << p;
  EXPECT_NEAR(std::accumulate(r.begin(), r.end(), 0.0), 0.0, 1e-12);
  EXPECT_TRUE(says(s->to_string(), "A wins: the last general; out in order: B (1), D (2), C (3)")) << s->to_string();
}

// ------------------------------------------------------------------------------------------------
// Notation and records.

TEST(WarNotation, EveryActionRoundTripsOnTheSheet) {
  const auto g = war("war(board=sheet)");
  auto s = g->new_initial_state();
  for (Action a = 0; a < g->num_distinct_actions(); ++a) ASSERT_EQ(s->string_to_action(s->action_to_string(a)), a) << a;
  EXPECT_EQ(s->action_to_string(g->action_of(kTank, 25)), "Taa1");
  EXPECT_EQ(s->string_to_action("sF10"), g->action_of(kPlane, 9 * 39 + 5));
  for (const char* text : {"end", "pass", "--"}) EXPECT_EQ(s->string_to_action(text), g->end());
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"Xe5", "expected a unit letter"}, {"e5", "expected a unit letter"}, {"P", "expected a cell"},
           {"Pj5", "there is no j"}, {"Pe33", "rank must be a number 1..32"}, {"", "expected a unit letter"}}) {
    try {
      s->string_to_action(text);
      ADD_FAILURE() << text << " was read";
    } catch (const NotationError& e) {
      EXPECT_TRUE(says(e.what(), why)) << e.what();
    }
  }
}

TEST(WarNotation, RecordsLeaveOutEndAndReadBack) {
  const auto g = war("war(players=2,width=10,height=10)");
  auto s = g->new_initial_state();
  // A: two sub-moves and end; B: a pass; A: one sub-move, its turn still open.
  for (const char* step : {"Pc3", "Kd3", "end", "pass", "Pa1"}) s->apply(s->string_to_action(step));
  EXPECT_EQ(s->record(), "Pc3-Kd3 pass Pa1 +");
  // The mark tells the open turn from the one closed by the `end` the notation leaves out.
  auto open = g->load_record(s->record());
  EXPECT_EQ(open->history(), s->history());
  EXPECT_EQ(open->hash(), s->hash());
  s->apply(g->end());
  EXPECT_EQ(g->load_record("Pc3-Kd3 pass Pa1")->hash(), s->hash());
  auto back = g->load_record(s->record());
  EXPECT_EQ(back->history(), s->history());
  EXPECT_EQ(back->hash(), s->hash());
  // The end is put back by the reader; a written `end` reads too.
  EXPECT_EQ(g->load_record("Pc3-Kd3-end pass Pa1")->hash(), s->hash());
  // An illegal sub-move is refused with the turn, the part and the reason.
  try {
    g->load_record("Pc3 pass Pc3");
    ADD_FAILURE() << "a placement on an own unit was read";
  } catch (const NotationError& e) {
    EXPECT_TRUE(says(e.what(), "record turn 3")) << e.what();
    EXPECT_TRUE(says(e.what(), "c3 already holds a unit of A")) << e.what();
  }
}

TEST(WarNotation, TheTextBoardShowsUnitsCommandAndTheBudget) {
  const auto g = war("war(players=2,width=10,height=10)");
  // The knight c3 is linked to the general by (1,1); the tank f5 by nothing: it is cut off.
  auto s = position(*g, {{"b2", "AG"}, {"c3", "AK"}, {"f5", "AT"}, {"i9", "BG"}, {"e5", "xx"}});
  const std::string text = s->to_string();
  EXPECT_EQ(text,
            "10 .. .. .. .. .. .. .. .. .. ..\n"
            " 9 .. .. .. .. .. .. .. .. BG ..\n"
            " 8 .. .. .. .. .. .. .. .. .. ..\n"
            " 7 .. .. .. .. .. .. .. .. .. ..\n"
            " 6 .. .. .. .. .. .. .. .. .. ..\n"
            " 5 .. .. .. .. xx aT .. .. .. ..\n"
            " 4 .. .. .. .. .. .. .. .. .. ..\n"
            " 3 .. .. AK .. .. .. .. .. .. ..\n"
            " 2 .. AG .. .. .. .. .. .. .. ..\n"
            " 1 .. .. .. .. .. .. .. .. .. ..\n"
            "    a  b  c  d  e  f  g  h  i  k\n"
            "A to move, sub-move 1 (used P0 K0 T0 S0), turn 1 of 1000");
  // The board's rows without their rank labels read back as the same position.
  std::string diagram;
  std::size_t start = 0;
  for (int rank = 0; rank < g->height(); ++rank) {
    const std::size_t end = text.find('\n', start);
    diagram += text.substr(start + 3, end - start - 3) + "\n";
    start = end + 1;
  }
  EXPECT_EQ(WarState::from_diagram(*g, diagram, 0)->to_string(), text);
  try {
    WarState::from_diagram(*g, diagram + ".", 0);
    ADD_FAILURE() << "a cell too many was read";
  } catch (const InputError& e) {
    EXPECT_TRUE(says(e.what(), "more than 100 cells")) << e.what();
  }
  try {
    WarState::from_diagram(*g, diagram.substr(0, diagram.size() - 2), 0);
    ADD_FAILURE() << "a cell too few was read";
  } catch (const InputError& e) {
    EXPECT_TRUE(says(e.what(), "99 cells and 1 character given, 100 expected (2 characters each)")) << e.what();
  }
}

// ------------------------------------------------------------------------------------------------
// Random games against the reference.

struct Tally {
  std::map<std::string, int> endings;
  std::int64_t steps = 0;
  int games = 0;
};

// Plays one random game, checking every node against the reference.
void play_checked_game(const WarGame& g, Rng& rng, Tally& tally) {
  auto s = as_war(g.new_initial_state());
  std::vector<Action> legal;
  while (!s->is_terminal()) {
    const Player p = s->current_player();
    const ref::Board board = ref::from_state(*s);
    ASSERT_TRUE(s->budget().holds());
    for (Player q = 0; q < g.num_players(); ++q) {
      const std::vector<int> expected = s->is_out(q) ? std::vector<int>{} : ref::commanded(board, q);
      ASSERT_EQ(s->commanded(q), expected) << "seat " << q << "\n" << s->to_string();
      ASSERT_EQ(s->is_out(q), !board.has_general(q));
    }
    s->legal_actions(legal);
    ASSERT_EQ(legal, reference_legal(*s)) << s->to_string();
    // A turn under way always has a sub-move left: it ends by itself when none is.
    if (s->budget().total() > 0) { ASSERT_GT(legal.size(), 1u) << s->to_string(); }
    const Action a = s->random_legal_action(rng);
    const int number = s->move_number();
    std::array<int, 4> used = used_of(*s);
    s->apply(a);
    ++tally.steps;
    if (a != g.end() && !s->is_terminal()) {
      // The turn goes on exactly while the reference leaves p a sub-move.
      ++used[a / g.cells()];
      const bool left = !ref::sub_moves(ref::from_state(*s), p, used).empty();
      const bool went_on = s->move_number() == number;
      ASSERT_EQ(went_on, left) << s->to_string();
      if (went_on) { ASSERT_EQ(s->current_player(), p); }
      tally.endings[went_on ? "turn went on" : "turn ended by itself"]++;
    }
  }
  const std::vector<double> r = s->returns();
  ASSERT_NEAR(std::accumulate(r.begin(), r.end(), 0.0), 0.0, 1e-9);
  tally.endings[s->is_truncated() ? "turn cap" : s->passes_in_a_row() > 0 ? "all passed" : "last general"]++;
  for (Player q = 0; q < g.num_players(); ++q)
    if (s->is_out(q)) tally.endings["player out"]++;
  auto back = g.load_record(s->record());
  ASSERT_EQ(back->hash(), s->hash());
  ASSERT_EQ(back->history(), s->history());
  ++tally.games;
}

TEST(WarRandomGames, TheEngineFollowsTheReferenceFor2346Players) {
  Rng rng(2024);
  Tally tally;
  int played = 0;
  for (const auto& [text, count] : std::vector<std::pair<std::string, int>>{
           // Random play fills a small board within a few turns: most games end when the
           // players still in have nothing left to do but pass; a short cap truncates some.
           {"war(players=2,width=10,height=10)", 800},
           {"war(players=3,width=11,height=11)", 400},
           {"war(players=3,width=11,height=11,max_turns=12)", 100},
           {"war(players=4,width=12,height=12)", 400},
           {"war(players=6,width=11,height=9)", 400},
           {"war(players=5,width=13,height=9,max_turns=60)", 60},
           // 70 files: shifts by a rank cross 64-bit words, planes by 5 ranks several.
           {"war(players=2,width=70,height=12,max_turns=200)", 20},
       }) {
    const auto g = war(text);
    const int share = test_share(count);
    while (tally.games < played + share && !::testing::Test::HasFatalFailure()) play_checked_game(*g, rng, tally);
    played += share;
  }
  EXPECT_EQ(tally.games, played);
  EXPECT_GE(tally.games, test_share(2180));
  // Every way a game or a turn ends came up, many times.
  std::string seen;
  for (const char* ending :
       {"all passed", "last general", "player out", "turn ended by itself", "turn went on", "turn cap"}) {
    EXPECT_GE(tally.endings[ending], test_share(10)) << ending;
    seen += std::string(ending) + " " + std::to_string(tally.endings[ending]) + ", ";
  }
  std::printf("%d games, %lld steps: %s\n", tally.games, static_cast<long long>(tally.steps), seen.c_str());
}

TEST(WarRandomGames, TheDefaultGameAndTheSheetFollowTheReference) {
  // The shared suites play the presets only: the rule file's board and the sheet are here.
  Rng rng(9);
  Tally tally;
  const auto standard = war("war");
  // One standard game under the sanitizers (tests/test_scale.h), where four took 53 s.
  for (int i = 0; i < test_share(4) && !::testing::Test::HasFatalFailure(); ++i)
    play_checked_game(*standard, rng, tally);
  if (!::testing::Test::HasFatalFailure()) play_checked_game(*war("war(board=sheet,max_turns=200)"), rng, tally);
  EXPECT_GE(tally.steps, 400);
}

// Random positions, not reached by play: units of every type and seat scattered with dead
// cells; the legal set and command against the reference, at the start of a turn and after
// random sub-moves.
TEST(WarRandomGames, LegalSetsAndCommandMatchTheReferenceOnRandomPositions) {
  Rng rng(31);
  const char* kinds = "PKTS";
  int positions = 0;
  for (const auto& [text, density] : std::vector<std::pair<std::string, int>>{
           {"war(players=2,width=10,height=10)", 3}, {"war(players=4,width=12,height=12)", 4},
           {"war(players=6,width=11,height=9)", 2}, {"war(players=3,width=40,height=20)", 5}}) {
    const auto g = war(text);
    for (int i = 0; i < 300; ++i) {
      std::vector<std::string> cells(static_cast<std::size_t>(g->cells()), "..");
      for (auto& cell : cells) {
        const auto roll = rng.below(10);
        if (roll < static_cast<std::uint32_t>(density)) {
          cell = {static_cast<char>('A' + rng.below(static_cast<std::uint32_t>(g->num_players()))), kinds[rng.below(4)]};
        } else if (roll == 9) {
          cell = "xx";
        }
      }
      // A general for A, and for each other seat most of the time (the others are out); a
      // general drawn over another is lost, so A may have none: then the draw is skipped.
      for (Player p = 0; p < g->num_players(); ++p)
        if (p == 0 || rng.below(4) != 0) cells[rng.below(static_cast<std::uint32_t>(g->cells()))] = {static_cast<char>('A' + p), 'G'};
      if (std::find(cells.begin(), cells.end(), "AG") == cells.end()) continue;
      auto s = WarState::from_diagram(*g, diagram_of(*g, cells), 0);
      ++positions;
      for (int step = 0; step < 6 && !s->is_terminal(); ++step) {
        const ref::Board board = ref::from_state(*s);
        for (Player q = 0; q < g->num_players(); ++q)
          ASSERT_EQ(s->commanded(q), s->is_out(q) ? std::vector<int>{} : ref::commanded(board, q)) << s->to_string();
        ASSERT_EQ(s->legal_actions(), reference_legal(*s)) << s->to_string();
        s->apply(s->random_legal_action(rng));
      }
    }
  }
  EXPECT_GE(positions, 1000);
}

TEST(WarRandomGames, SubMovesOfATurnCommuteAndHashAlike) {
  const auto g = war("war(players=2,width=10,height=10)");
  auto s = g->new_initial_state();
  auto other = g->new_initial_state();
  for (const char* step : {"Pc3", "Kd3", "Pa3"}) s->apply(s->string_to_action(step));
  for (const char* step : {"Pa3", "Pc3", "Kd3"}) other->apply(other->string_to_action(step));
  EXPECT_EQ(s->hash(), other->hash());
  EXPECT_EQ(s->to_string(), other->to_string());
  // The budget is part of the position: the same board after other types hashes apart.
  auto third = g->new_initial_state();
  for (const char* step : {"Pc3", "Pd3", "Pa3"}) third->apply(third->string_to_action(step));
  EXPECT_NE(s->hash(), third->hash());
}

// ------------------------------------------------------------------------------------------------
// Symmetries and the layout.

// The image of a position under a symmetry: each unit (and its command) at the image of its
// cell for the image of its seat, the image mover, and the images of the legal actions.
void expect_image(const WarGame& g, const WarState& s, const Symmetry& sym, const WarState& image) {
  for (int c = 0; c < g.cells(); ++c) {
    WarState::CellView expected = s.cell(c);
    if (expected.owner >= 0) expected.owner = sym.map_player(expected.owner);
    ASSERT_EQ(image.cell(sym.cell[c]), expected) << sym.name << " at " << g.notation().cell_name(c);
  }
  ASSERT_EQ(image.current_player(), s.is_terminal() ? kTerminalPlayer : sym.map_player(s.current_player()));
  ASSERT_EQ(image.budget(), s.budget());
  std::vector<Action> expected;
  for (Action a : s.legal_actions()) expected.push_back(sym.action[a]);
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(image.legal_actions(), expected) << sym.name << "\n" << s.to_string();
  if (s.is_terminal()) {
    const std::vector<double> r = s.returns(), mapped = image.returns();
    for (Player p = 0; p < g.num_players(); ++p) ASSERT_EQ(mapped[sym.map_player(p)], r[p]) << sym.name;
  }
}

TEST(WarSymmetry, KlopodavkasSymmetriesMapEveryPositionOfRandomGames) {
  std::vector<std::string> names;
  const auto four = war("war");  // held: a range-for does not keep the game of a temporary alive
  for (const Symmetry& sym : four->symmetries()) names.push_back(sym.name);
  EXPECT_EQ(names, (std::vector<std::string>{"rotate 180", "rotate 90 clockwise", "rotate 90 anticlockwise"}));
  EXPECT_TRUE(war("war(players=3)")->symmetries().empty());
  EXPECT_EQ(war("war(players=2,width=10,height=10)")->symmetries().size(), 3u);
  Rng rng(4);
  int images = 0;
  for (const char* text : {"war(players=2,width=10,height=10)", "war(players=4,width=12,height=12)",
                           "war(players=6,width=12,height=10)"}) {
    const auto g = war(text);
    for (int game = 0; game < 6; ++game) {
      auto s = as_war(g->new_initial_state());
      while (true) {
        for (std::size_t k = 0; k < g->symmetries().size(); ++k, ++images) {
          expect_image(*g, *s, g->symmetries()[k], *as_war(g->apply_symmetry(*s, static_cast<int>(k))));
          if (::testing::Test::HasFatalFailure()) return;
        }
        if (s->is_terminal()) break;
        s->apply(s->random_legal_action(rng));
      }
    }
  }
  EXPECT_GE(images, 1000);
}

TEST(WarSymmetry, TheActionLayoutHasAPlanePerUnitType) {
  const auto g = war("war(players=2,width=10,height=10)");
  const ActionLayout layout = g->traits().action_layout;
  EXPECT_EQ(layout.planes, 4);
  ASSERT_EQ(static_cast<int>(layout.slot.size()), g->num_distinct_actions());
  for (int t = 0; t < 4; ++t)
    for (int c = 0; c < g->cells(); c += 7) EXPECT_EQ(layout.slot[static_cast<std::size_t>(g->action_of(t, c))], t * 100 + c);
  EXPECT_EQ(layout.slot.back(), -1);
}

}  // namespace
}  // namespace boardlab
