// Tests for Morabaraba against shared/rules/morabaraba.md, including an independent model of the rules.
#include "games/morabaraba/morabaraba.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "arena/perft.h"
#include "core/errors.h"
#include "core/rng.h"
#include "games/registry.h"
#include "tests/games/game_test_util.h"

namespace boardlab {
namespace {

using EndReason = MorabarabaState::EndReason;
constexpr Action kDecline = MorabarabaGame::kDecline;

// ------------------------------------------------------------------------------------------------
// The rule file's board, copied from its text: point order, adjacency and mills. Nothing here
// comes from the engine's tables, so a mistake in them shows up as a disagreement.
namespace ref {

constexpr std::string_view kPointOrder = "a7 d7 g7 g4 g1 d1 a1 a4 b6 d6 f6 f4 f2 d2 b2 b4 c5 d5 e5 e4 e3 d3 c3 c4";
constexpr std::string_view kAdjacency = R"(
a7:a4,b6,d7  d7:a7,d6,g7  g7:d7,f6,g4  g4:f4,g1,g7  g1:d1,f2,g4  d1:a1,d2,g1  a1:a4,b2,d1  a4:a1,a7,b4
b6:a7,b4,c5,d6  d6:b6,d5,d7,f6  f6:d6,e5,f4,g7  f4:e4,f2,f6,g4  f2:d2,e3,f4,g1  d2:b2,d1,d3,f2  b2:a1,b4,c3,d2  b4:a4,b2,b6,c4
c5:b6,c4,d5  d5:c5,d6,e5  e5:d5,e4,f6  e4:e3,e5,f4  e3:d3,e4,f2  d3:c3,d2,e3  c3:b2,c4,d3  c4:b4,c3,c5
)";
// The 12 sides of the three squares, the 4 spokes, the 4 diagonals.
constexpr std::string_view kMills =
    "a7-d7-g7 g7-g4-g1 g1-d1-a1 a1-a4-a7 b6-d6-f6 f6-f4-f2 f2-d2-b2 b2-b4-b6 c5-d5-e5 e5-e4-e3 e3-d3-c3 c3-c4-c5 "
    "d7-d6-d5 g4-f4-e4 d1-d2-d3 a4-b4-c4 a7-b6-c5 g7-f6-e5 g1-f2-e3 a1-b2-c3";

int index_of(std::string_view name) {
  const auto at = kPointOrder.find(name);
  if (name.size() != 2 || at == std::string_view::npos || at % 3 != 0) {
    ADD_FAILURE() << "not a point: " << name;
    return 0;
  }
  return static_cast<int>(at / 3);
}

std::string name_of(int point) { return std::string(kPointOrder.substr(static_cast<std::size_t>(point) * 3, 2)); }

struct Board {
  bool adjacent[24][24] = {};
  std::vector<std::array<int, 3>> mills;
  // Derived from the two above, to keep the model quick enough for 10,000 games.
  std::vector<int> neighbours[24];
  std::vector<std::array<int, 3>> mills_through[24];
  Board() {
    std::istringstream entries{std::string(kAdjacency)};
    for (std::string entry; entries >> entry;) {
      const int from = index_of(entry.substr(0, 2));
      std::istringstream list(entry.substr(3));
      for (std::string to; std::getline(list, to, ',');) adjacent[from][index_of(to)] = true;
    }
    std::istringstream lines{std::string(kMills)};
    for (std::string line; lines >> line;)
      mills.push_back({index_of(line.substr(0, 2)), index_of(line.substr(3, 2)), index_of(line.substr(6, 2))});
    for (int a = 0; a < 24; ++a) {
      for (int b = 0; b < 24; ++b)
        if (adjacent[a][b]) neighbours[a].push_back(b);
      for (const auto& m : mills)
        if (m[0] == a || m[1] == a || m[2] == a) mills_through[a].push_back(m);
    }
  }
};
const Board kBoard;

// The rules written from the rule text with plain arrays: -1 empty, 0 White, 1 Black.
struct Game {
  bool full_board_draw = false;
  int cap = 400;
  int board[24];
  int hand[2] = {12, 12};
  int mover = 0;
  bool pending = false;
  int no_return_cow[2] = {-1, -1}, no_return_point[2] = {-1, -1};
  int three = 0, plies = 0;
  int result = -1;  // -1 ongoing, 0 White won, 1 Black won, 2 draw
  EndReason reason = EndReason::kNone;

  Game(bool full_board, int move_cap) : full_board_draw(full_board), cap(move_cap) { std::fill_n(board, 24, -1); }

  int on_board(int p) const { return static_cast<int>(std::count(board, board + 24, p)); }
  int cows(int p) const { return on_board(p) + hand[p]; }
  bool in_mill(int p, int point, const int* b) const {
    for (const auto& m : kBoard.mills_through[point])
      if (b[m[0]] == p && b[m[1]] == p && b[m[2]] == p) return true;
    return false;
  }
  // "the same cow may not move back to the point it came from if that return would make a mill"
  bool no_return_forbids(int from, int to) const {
    if (no_return_cow[mover] != from || no_return_point[mover] != to) return false;
    int after[24];
    std::copy(board, board + 24, after);
    after[from] = -1;
    after[to] = mover;
    return in_mill(mover, to, after);
  }
  // Whether player p's restriction could still forbid its next move.
  bool restriction_bites(int p) const {
    const int cow = no_return_cow[p], point = no_return_point[p];
    if (cow < 0 || board[cow] != p || board[point] != -1) return false;
    int after[24];
    std::copy(board, board + 24, after);
    after[cow] = -1;
    after[point] = p;
    return in_mill(p, point, after);
  }

  // The moves of the player to move, in ascending action order.
  void moves(std::vector<Action>& out) const {
    const bool flying = cows(mover) == 3;
    for (int from = 0; from < 24; ++from) {
      if (board[from] != mover) continue;
      if (flying) {
        for (int to = 0; to < 24; ++to)
          if (board[to] == -1 && !no_return_forbids(from, to)) out.push_back(24 + 24 * from + to);
      } else {
        const std::size_t first = out.size();
        for (int to : kBoard.neighbours[from])
          if (board[to] == -1 && !no_return_forbids(from, to)) out.push_back(24 + 24 * from + to);
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
      }
    }
  }

  std::vector<Action> legal() const {
    std::vector<Action> out;
    if (result != -1) return out;
    const int foe = 1 - mover;
    if (pending) {
      bool all_in_mills = true;
      for (int q = 0; q < 24; ++q)
        if (board[q] == foe && !in_mill(foe, q, board)) all_in_mills = false;
      for (int q = 0; q < 24; ++q)
        if (board[q] == foe && (all_in_mills || !in_mill(foe, q, board))) out.push_back(q);
      out.push_back(kDecline);
      return out;
    }
    if (hand[mover] > 0) {
      for (int q = 0; q < 24; ++q)
        if (board[q] == -1) out.push_back(q);
      return out;
    }
    moves(out);
    return out;
  }

  void apply(Action a) {
    const int foe = 1 - mover;
    if (pending) {
      pending = false;
      if (a != kDecline) {
        board[a] = -1;
        if (cows(foe) <= 2) {
          result = mover;
          reason = EndReason::kTwoCows;
          return;
        }
        if (cows(0) == 3 && cows(1) == 3) three = 0;
      }
      end_turn();
      return;
    }
    no_return_cow[mover] = no_return_point[mover] = -1;
    int to = a;
    if (a < 24) {
      board[a] = mover;
      --hand[mover];
    } else {
      const int from = (a - 24) / 24;
      to = (a - 24) % 24;
      const bool left_mill = in_mill(mover, from, board);
      board[from] = -1;
      board[to] = mover;
      if (left_mill && in_mill(mover, to, board)) {
        no_return_cow[mover] = to;
        no_return_point[mover] = from;
      }
    }
    ++plies;
    if (cows(0) == 3 && cows(1) == 3) ++three;
    if (in_mill(mover, to, board) && on_board(foe) > 0) {
      pending = true;
      return;
    }
    end_turn();
  }

  void end_turn() {
    mover = 1 - mover;
    std::vector<Action> next;
    if (hand[0] == 0 && hand[1] == 0 && (moves(next), next.empty())) {
      if (full_board_draw && on_board(0) + on_board(1) == 24) {
        result = 2;
        reason = EndReason::kFullBoardDraw;
      } else {
        result = 1 - mover;
        reason = EndReason::kBlockade;
      }
    } else if (three >= 20) {
      result = 2;
      reason = EndReason::kThreeCowsDraw;
    } else if (plies >= cap) {
      result = 2;
      reason = EndReason::kMoveCap;
    }
  }
};

}  // namespace ref

// ------------------------------------------------------------------------------------------------
// Helpers.

int pt(std::string_view name) { return ref::index_of(name); }
Action mv(std::string_view from, std::string_view to) { return 24 + 24 * pt(from) + pt(to); }

const MorabarabaGame& game(bool full_board_draw = false, int cap = 400) {
  // Loaded through the registry, as every user does; one game per parameter set, kept for the test run.
  static std::vector<std::shared_ptr<const Game>> games;
  const std::string text = "morabaraba(full_board_draw=" + std::string(full_board_draw ? "true" : "false") +
                           ",move_cap=" + std::to_string(cap) + ")";
  for (const auto& g : games)
    if (g->to_string() == text) return dynamic_cast<const MorabarabaGame&>(*g);
  games.push_back(load_game(text));
  return dynamic_cast<const MorabarabaGame&>(*games.back());
}

std::unique_ptr<MorabarabaState> initial(const MorabarabaGame& g = game()) {
  return std::unique_ptr<MorabarabaState>(static_cast<MorabarabaState*>(g.new_initial_state().release()));
}

std::unique_ptr<MorabarabaState> as_morabaraba(std::unique_ptr<State> state) {
  return std::unique_ptr<MorabarabaState>(&dynamic_cast<MorabarabaState&>(*state.release()));
}

std::unique_ptr<MorabarabaState> position(std::string_view text, const MorabarabaGame& g = game()) {
  return MorabarabaState::from_text(g, text);
}

std::vector<std::string> legal_names(const State& state) {
  std::vector<std::string> out;
  for (Action a : state.legal_actions()) out.push_back(state.action_to_string(a));
  return out;
}

std::vector<std::string> words(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Plays plies written as in a record: "d2", "d1-d2", "d1-d2xd5", "xd5", "x-".
void play(State& state, std::string_view plies) {
  for (const std::string& word : words(plies)) {
    const auto x = word.find('x');
    if (x != 0) state.apply(state.string_to_action(word.substr(0, x)));
    if (x != std::string::npos) state.apply(state.string_to_action(word.substr(x)));
  }
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }


std::vector<std::string> points_of(MorabarabaState::Points points) {
  std::vector<std::string> out;
  for (int p = 0; p < 24; ++p)
    if (points & (1u << p)) out.push_back(ref::name_of(p));
  return out;
}

// 12 White and 12 Black cows without a single mill: colours alternate around every ring and along
// every radial line. c4 (Black's) is left out when `without_c4`.
std::string alternating(bool without_c4) {
  std::string white, black;
  for (int p = 0; p < 24; ++p) {
    if (without_c4 && p == 23) continue;
    const bool is_white = ((p % 8) + (p / 8)) % 2 == 0;
    (is_white ? white : black) += ref::name_of(p) + " ";
  }
  return "white: " + white + "; black: " + black;
}

// The observation grid: 3 rings (rows) × 8 points (columns), the columns wrapping.
constexpr int kCells = 24;

// The observation cell of a point, from its name: the row is its ring (outer first), the column its
// place on that ring, clockwise from the ring's top-left corner.
int cell_of(int point) {
  const std::string name = ref::name_of(point);
  const int x = name[0] - 'd', y = name[1] - '4';  // from the centre, rank 7 up
  const int ring = 3 - std::max(std::abs(x), std::abs(y));
  const int sx = (x > 0) - (x < 0), sy = (y > 0) - (y < 0);
  // Clockwise from the top-left: (-,+) (0,+) (+,+) (+,0) (+,-) (0,-) (-,-) (-,0).
  static const int kColumn[3][3] = {{6, 7, 0}, {5, -1, 1}, {4, 3, 2}};  // [sx + 1][sy + 1]
  return ring * 8 + kColumn[sx + 1][sy + 1];
}

// Whether a point is a corner of its square, from its name: as far from the centre along the file as
// along the rank.
bool is_corner(int point) {
  const std::string name = ref::name_of(point);
  return std::abs(name[0] - 'd') == std::abs(name[1] - '4');
}

// Whether two cells are orthogonal neighbours on the observation grid, the columns wrapping.
bool grid_neighbours(int a, int b) {
  const int ra = a / 8, ca = a % 8, rb = b / 8, cb = b % 8;
  if (ra == rb) return (ca - cb + 8) % 8 == 1 || (cb - ca + 8) % 8 == 1;
  return ca == cb && std::abs(ra - rb) == 1;
}

// ------------------------------------------------------------------------------------------------
// The board and the game's constants.

TEST(MorabarabaBoard, PointOrderAdjacencyAndMillsMatchTheRuleFile) {
  for (int p = 0; p < 24; ++p) {
    EXPECT_EQ(MorabarabaState::point_name(p), ref::name_of(p));
    EXPECT_EQ(MorabarabaState::parse_point(ref::name_of(p)), p);
  }
  int edges = 0;
  for (int a = 0; a < 24; ++a)
    for (int b = 0; b < 24; ++b) {
      EXPECT_EQ(ref::kBoard.adjacent[a][b], ref::kBoard.adjacent[b][a]) << ref::name_of(a) << " " << ref::name_of(b);
      EXPECT_EQ((morabaraba::kTables.adjacent[a] >> b) & 1u, ref::kBoard.adjacent[a][b] ? 1u : 0u)
          << ref::name_of(a) << " " << ref::name_of(b);
      edges += ref::kBoard.adjacent[a][b];
    }
  EXPECT_EQ(edges, 2 * 40);
  // The observation grid is the board's graph: two points are adjacent exactly when their cells
  // are neighbours (the columns wrapping), and each mill is three cells in a straight line.
  for (int a = 0; a < 24; ++a)
    for (int b = 0; b < 24; ++b)
      EXPECT_EQ(grid_neighbours(cell_of(a), cell_of(b)), ref::kBoard.adjacent[a][b])
          << ref::name_of(a) << " " << ref::name_of(b);
  for (const auto& m : ref::kBoard.mills) {
    const int a = cell_of(m[0]), b = cell_of(m[1]), c = cell_of(m[2]);
    const bool row = a / 8 == b / 8 && b / 8 == c / 8, column = a % 8 == b % 8 && b % 8 == c % 8;
    EXPECT_TRUE(row || column) << ref::name_of(m[0]) << ref::name_of(m[1]) << ref::name_of(m[2]);
  }
  ASSERT_EQ(ref::kBoard.mills.size(), 20u);
  std::vector<morabaraba::Points> expected;
  std::vector<morabaraba::Points> engine(morabaraba::kTables.mills.begin(), morabaraba::kTables.mills.end());
  for (const auto& m : ref::kBoard.mills) expected.push_back((1u << m[0]) | (1u << m[1]) | (1u << m[2]));
  std::sort(expected.begin(), expected.end());
  std::sort(engine.begin(), engine.end());
  EXPECT_EQ(engine, expected);
  for (const char* bad : {"b1", "d4", "h7", "a8", "a0", "", "a", "a77"})
    EXPECT_EQ(MorabarabaState::parse_point(bad), -1) << bad;
  EXPECT_EQ(MorabarabaState::parse_point("D2"), pt("d2"));
}

TEST(MorabarabaGameTest, PropertiesAndParameters) {
  const MorabarabaGame& g = game();
  EXPECT_EQ(g.name(), "morabaraba");
  EXPECT_EQ(g.to_string(), "morabaraba(full_board_draw=false,move_cap=400)");
  EXPECT_EQ(g.num_players(), 2);
  EXPECT_EQ(g.player_name(0), "White");
  EXPECT_EQ(g.player_name(1), "Black");
  EXPECT_EQ(g.num_distinct_actions(), 601);
  const ObservationShape shape = g.observation_shape();
  EXPECT_EQ(shape.channels, 17);
  EXPECT_EQ(shape.height, 3);
  EXPECT_EQ(shape.width, 8);
  EXPECT_TRUE(shape.wrap_columns);
  EXPECT_EQ(g.max_game_length(), 800);  // 400 plies, each with at most one shot decision
  EXPECT_EQ(game(false, 30).max_game_length(), 60);
  EXPECT_FALSE(g.type().simultaneous());
  EXPECT_FALSE(g.type().has_chance());
  EXPECT_TRUE(g.type().perfect_information());
  EXPECT_FALSE(g.full_board_draw());
  EXPECT_EQ(g.move_cap(), 400);
  EXPECT_TRUE(game(true).full_board_draw());
  EXPECT_EQ(load_game("morabaraba")->to_string(), g.to_string());
  for (const char* bad : {"morabaraba(move_cap=0)", "morabaraba(move_cap=-3)", "morabaraba(move_cap=1000001)",
                          "morabaraba(move_cap=many)", "morabaraba(full_board_draw=2)", "morabaraba(cap=3)"})
    EXPECT_THROW(load_game(bad), GameParameterError) << bad;
  try {
    load_game("morabaraba(move_cap=0)");
  } catch (const GameParameterError& e) {
    EXPECT_TRUE(contains(e.what(), "move_cap must be 1..1000000 plies, got 0")) << e.what();
  }
  EXPECT_EQ(load_game("morabaraba(move_cap=1)")->max_game_length(), 2);
}

TEST(MorabarabaGameTest, InitialState) {
  auto s = initial();
  EXPECT_EQ(s->current_player(), 0);
  EXPECT_TRUE(s->placing());
  EXPECT_EQ(s->hand(0), 12);
  EXPECT_EQ(s->hand(1), 12);
  EXPECT_EQ(s->legal_actions().size(), 24u);
  EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
  std::vector<double> wrong(3);
  EXPECT_THROW(s->returns(wrong), InputError);
  EXPECT_EQ(s->record(), "");
  EXPECT_TRUE(contains(s->to_string(), "\nWhite to place (12 in hand)"));
  EXPECT_TRUE(contains(s->to_string(), "white: ; black: ; hands: 12 12; to_move: white\n"));
  std::vector<Action> out = {7};
  s->legal_actions(1, out);
  EXPECT_TRUE(out.empty());
  const Action joint[] = {0, 1};
  EXPECT_THROW(s->apply_joint(joint), IllegalActionError);
  Rng rng(1);
  EXPECT_EQ(s->sample_hidden(0, rng)->hash(), s->hash());
}

// ------------------------------------------------------------------------------------------------
// The rules, one by one.

TEST(MorabarabaRules, PlacementsAlternateAndAMillGivesTheSamePlayerAShot) {
  auto s = initial();
  play(*s, "a7 a1 d7 d1");
  EXPECT_EQ(s->current_player(), 0);
  s->apply(pt("g7"));  // a7-d7-g7
  EXPECT_TRUE(s->shot_pending());
  EXPECT_EQ(s->current_player(), 0);  // the shot is White's own next decision
  EXPECT_EQ(legal_names(*s), (std::vector<std::string>{"xd1", "xa1", "x-"}));
  EXPECT_TRUE(contains(s->to_string(), "White to shoot a Black cow or decline"));
  EXPECT_TRUE(contains(rejected(*s, pt("a7")), "there is no Black cow on a7 to shoot"));
  EXPECT_TRUE(contains(rejected(*s, pt("b2")), "there is no Black cow on b2"));
  EXPECT_TRUE(contains(rejected(*s, mv("a7", "a4")), "must first shoot a Black cow or decline"));
  s->apply(pt("d1"));
  EXPECT_FALSE(s->shot_pending());
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->hand(1), 10);
  EXPECT_EQ(s->cow_count(1), 11);  // one on the board, ten in hand
  EXPECT_EQ(points_of(s->cows(1)), std::vector<std::string>{"a1"});
  // The shot point is free again; placing goes on whatever was shot.
  s->apply(pt("d1"));
  EXPECT_EQ(s->record(), "a7 a1 d7 d1 g7xd1 d1");
}

TEST(MorabarabaRules, TheShotIsOptional) {
  auto s = initial();
  play(*s, "a7 a1 d7 d1 g7");
  ASSERT_TRUE(s->shot_pending());
  const std::uint64_t pending_hash = s->hash();
  s->apply(kDecline);
  EXPECT_NE(s->hash(), pending_hash);
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_EQ(s->cow_count(1), 12);
  EXPECT_EQ(s->record(), "a7 a1 d7 d1 g7x-");
  EXPECT_TRUE(contains(rejected(*s, kDecline), "there is no shot to decline"));
}

TEST(MorabarabaRules, ACowInAMillIsProtectedUnlessAllAreInMills) {
  // c5-c4 makes the spoke a4-b4-c4. Black has the mill g1-d1-a1 and two cows outside mills.
  auto s = position("white: a4 b4 c5 c3 f4; black: g1 d1 a1 e3 f6; hands: 0 0; to_move: white");
  play(*s, "c5-c4");
  ASSERT_TRUE(s->shot_pending());
  EXPECT_EQ(legal_names(*s), (std::vector<std::string>{"xf6", "xe3", "x-"}));
  EXPECT_EQ(points_of(s->shootable(1)), (std::vector<std::string>{"f6", "e3"}));
  const std::string message = rejected(*s, pt("d1"));
  EXPECT_TRUE(contains(message, "stands in the mill g1-d1-a1 and Black has cows outside mills")) << message;
  EXPECT_EQ(s->illegality(pt("d1")), message.substr(message.find(": ") + 2));
  // With every Black cow in a mill (g1-d1-a1 and d1-d2-d3), any of them may be shot.
  auto all = position("white: a4 b4 c5 c3 f4; black: g1 d1 a1 d2 d3; hands: 0 0; to_move: white");
  play(*all, "c5-c4");
  ASSERT_TRUE(all->shot_pending());
  EXPECT_EQ(legal_names(*all), (std::vector<std::string>{"xg1", "xd1", "xa1", "xd2", "xd3", "x-"}));
  all->apply(pt("d1"));  // the cow on both mills
  EXPECT_EQ(all->current_player(), 1);
  EXPECT_EQ(points_of(all->cows(1)), (std::vector<std::string>{"g1", "a1", "d2", "d3"}));
}

TEST(MorabarabaRules, TwoMillsAtOnceGiveOneShot) {
  // Placing d7 completes a7-d7-g7 and d7-d6-d5 together.
  auto s = position("white: a7 g7 d6 d5; black: a1 g1 e3 c3; hands: 8 8; to_move: white");
  s->apply(pt("d7"));
  ASSERT_TRUE(s->shot_pending());
  s->apply(pt("e3"));
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_FALSE(s->shot_pending());
  EXPECT_EQ(s->cow_count(1), 11);
}

TEST(MorabarabaRules, NoShotWithoutEnemyCowsOnTheBoard) {
  // Black's cows are all in hand: the mill earns nothing and the turn passes.
  auto s = position("white: a7 d7; black: ; hands: 5 5; to_move: white");
  s->apply(pt("g7"));
  EXPECT_FALSE(s->shot_pending());
  EXPECT_EQ(s->current_player(), 1);
  EXPECT_THROW(position("white: a7 d7 g7; black: ; hands: 4 5; to_move: white; shot: pending"), InputError);
}

TEST(MorabarabaRules, ARemadeMillShootsAgain) {
  // White opens the mill a7-d7-g7 and closes it again two plies later.
  auto s = position("white: a7 d7 g7 f2; black: a1 b2 c3 e5 f4; hands: 0 0; to_move: white");
  play(*s, "g7-g4 e5-e4");
  EXPECT_EQ(s->current_player(), 0);
  s->apply(mv("g4", "g7"));
  EXPECT_TRUE(s->shot_pending());
}

TEST(MorabarabaRules, NoReturnAfterLeavingAMillToMakeAnother) {
  // g7-g4 leaves a7-d7-g7 and makes g4-f4-e4: next move the cow on g4 may not go back to g7.
  auto s = position("white: a7 d7 g7 f4 e4; black: a1 b2 c3 d2 c5; hands: 0 0; to_move: white");
  s->apply(mv("g7", "g4"));
  ASSERT_TRUE(s->shot_pending());
  EXPECT_EQ(s->no_return(0),
            (MorabarabaState::NoReturn{static_cast<std::int8_t>(pt("g4")), static_cast<std::int8_t>(pt("g7"))}));
  EXPECT_FALSE(s->no_return(1).active());
  EXPECT_EQ(legal_names(*s), (std::vector<std::string>{"xd2", "xc5", "x-"}));  // a1-b2-c3 is a mill
  s->apply(pt("d2"));
  play(*s, "c5-d5");
  ASSERT_EQ(s->current_player(), 0);
  std::vector<std::string> legal = legal_names(*s);
  EXPECT_EQ(std::count(legal.begin(), legal.end(), "g4-g7"), 0);
  EXPECT_EQ(std::count(legal.begin(), legal.end(), "g4-g1"), 1);  // the cow may go elsewhere
  const std::string message = rejected(*s, mv("g4", "g7"));
  EXPECT_TRUE(contains(message, "no return (GAR)")) << message;
  EXPECT_TRUE(contains(s->to_string(), "no_return: white g4 g7"));
  // A move later the return is allowed, and it remakes the mill.
  play(*s, "e4-e5 d5-c5");
  EXPECT_FALSE(s->no_return(0).active());
  legal = legal_names(*s);
  EXPECT_EQ(std::count(legal.begin(), legal.end(), "g4-g7"), 1);
  s->apply(mv("g4", "g7"));
  EXPECT_TRUE(s->shot_pending());
}

TEST(MorabarabaRules, NoReturnNeedsBothALeftMillAndANewOne) {
  // Leaving a mill without making one restricts nothing...
  auto s = position("white: a7 d7 g7 f4 e4 b2; black: a1 c3 d2 c5 e5; hands: 0 0; to_move: white");
  s->apply(mv("g7", "f6"));
  EXPECT_FALSE(s->shot_pending());
  EXPECT_FALSE(s->no_return(0).active());
  // ...nor does making one without leaving one.
  auto t = position("white: a7 d7 g1 f4 e4 b2; black: a1 c3 d2 c5 e5; hands: 0 0; to_move: white");
  t->apply(mv("g1", "g4"));
  ASSERT_TRUE(t->shot_pending());
  EXPECT_FALSE(t->no_return(0).active());
}

TEST(MorabarabaRules, NoReturnLapsesWhenTheReturnCouldNoLongerMakeAMill) {
  const std::string start = "white: a7 d7 g7 f4 e4 b2; black: a1 c3 b6 d6 e5; hands: 0 0; to_move: white";
  // Black answers with e5-f6 (b6-d6-f6) and shoots d7 out of the old mill: the return is free.
  auto s = position(start);
  play(*s, "g7-g4xa1");
  ASSERT_TRUE(s->no_return(0).active());
  play(*s, "e5-f6");
  ASSERT_TRUE(s->shot_pending());
  EXPECT_EQ(points_of(s->shootable(0)), (std::vector<std::string>{"a7", "d7", "b2"}));
  EXPECT_TRUE(s->no_return(0).active());
  s->apply(pt("d7"));
  EXPECT_FALSE(s->no_return(0).active());
  s->apply(mv("g4", "g7"));
  EXPECT_FALSE(s->shot_pending());
  // Declining the shot keeps the restriction.
  auto d = position(start);
  play(*d, "g7-g4xa1 e5-f6x-");
  EXPECT_TRUE(d->no_return(0).active());
  EXPECT_TRUE(contains(rejected(*d, mv("g4", "g7")), "no return (GAR)"));
  // A Black cow moving onto g7 ends it too.
  auto o = position("white: a7 d7 g7 f4 e4 b2; black: a1 c3 f6 c5 d2; hands: 0 0; to_move: white");
  play(*o, "g7-g4xa1");
  ASSERT_TRUE(o->no_return(0).active());
  play(*o, "f6-g7");
  EXPECT_FALSE(o->no_return(0).active());
}

TEST(MorabarabaRules, NoReturnAppliesToFlyingToo) {
  // Not reachable from the start (a restriction needs 5 cows, and one shot cannot bring them to 3
  // before the restricted move), so the position is set up: White flies and may not go back to g7.
  auto s = position("white: a7 d7 g4; black: a1 b2 d2 f2; hands: 0 0; to_move: white; no_return: white g4 g7");
  ASSERT_TRUE(s->flies(0));
  ASSERT_TRUE(s->no_return(0).active());
  std::vector<std::string> legal = legal_names(*s);
  EXPECT_EQ(std::count(legal.begin(), legal.end(), "g4-g7"), 0);
  EXPECT_EQ(legal.size(), 3u * 17u - 1u);
  EXPECT_TRUE(contains(rejected(*s, mv("g4", "g7")), "no return (GAR)"));
  s->apply(mv("a7", "g7"));  // another cow may go there
  EXPECT_FALSE(s->shot_pending());
}

TEST(MorabarabaRules, FlyingOnlyWithExactlyThreeCows) {
  auto s = position("white: a7 d6 e3; black: a1 b2 d2 f2; hands: 0 0; to_move: white");
  EXPECT_TRUE(s->flies(0));
  EXPECT_FALSE(s->flies(1));
  EXPECT_TRUE(contains(s->to_string(), "White to fly"));
  EXPECT_EQ(s->legal_actions().size(), 3u * 17u);  // three cows, each to any of the 17 empty points
  s->apply(mv("a7", "g1"));
  EXPECT_EQ(points_of(s->cows(0)), (std::vector<std::string>{"g1", "d6", "e3"}));
  // Black, with four cows, only slides.
  const std::string message = rejected(*s, mv("a1", "g7"));
  EXPECT_TRUE(contains(message, "a1 and g7 are not adjacent, and Black has 4 cows (only 3 fly)")) << message;
  EXPECT_TRUE(contains(s->to_string(), "Black to move"));
  EXPECT_EQ(legal_names(*s), (std::vector<std::string>{"a1-d1", "a1-a4", "f2-f4", "d2-d1", "d2-d3", "b2-b4", "b2-c3"}));
  // Once Black is shot down to 3 it flies too.
  auto t = position("white: a7 d7 g4 f4; black: a1 b2 d2 e3; hands: 0 0; to_move: white");
  EXPECT_FALSE(t->flies(1));
  play(*t, "g4-g7xe3");
  EXPECT_TRUE(t->flies(1));
  EXPECT_EQ(t->legal_actions().size(), 3u * 17u);
  t->apply(mv("a1", "e5"));
  EXPECT_EQ(points_of(t->cows(1)), (std::vector<std::string>{"d2", "b2", "e5"}));
}

TEST(MorabarabaRules, LossAtTwoCowsRightAfterTheShot) {
  auto t = position("white: a7 d7 g4 f2; black: a1 b2 c5; hands: 0 0; to_move: white");
  t->apply(mv("g4", "g7"));
  ASSERT_TRUE(t->shot_pending());
  t->apply(pt("c5"));
  EXPECT_TRUE(t->is_terminal());
  EXPECT_EQ(t->current_player(), kTerminalPlayer);
  EXPECT_EQ(t->returns(), (std::vector<double>{1, -1}));
  EXPECT_EQ(t->end_reason(), EndReason::kTwoCows);
  EXPECT_TRUE(contains(t->to_string(), "White wins (the loser has 2 cows left)"));
  EXPECT_TRUE(t->legal_actions().empty());
  EXPECT_TRUE(contains(rejected(*t, pt("d1")), "the game is over"));
  Rng rng(1);
  EXPECT_THROW(t->random_legal_action(rng), IllegalActionError);
  // Cows in hand count: while placing, Black with 1 on the board and 2 in hand has 3.
  auto p = position("white: a7 d7 b2 b4; black: a1; hands: 2 2; to_move: white");
  EXPECT_EQ(p->cow_count(1), 3);
  p->apply(pt("g7"));
  ASSERT_TRUE(p->shot_pending());
  p->apply(pt("a1"));
  EXPECT_TRUE(p->is_terminal());
  EXPECT_EQ(p->returns(), (std::vector<double>{1, -1}));
  // A declined shot leaves the victim at 3.
  auto d = position("white: a7 d7 g4 f2; black: a1 b2 c5; hands: 0 0; to_move: white");
  play(*d, "g4-g7x-");
  EXPECT_FALSE(d->is_terminal());
  // A position where a player already has 2 cows is over.
  auto over = position("white: a7 d7 g4; black: a1 b2; hands: 0 0; to_move: black");
  EXPECT_TRUE(over->is_terminal());
  EXPECT_EQ(over->returns(), (std::vector<double>{1, -1}));
  EXPECT_THROW(position("white: a7 d7; black: a1 b2; hands: 0 0; to_move: black"), InputError);
}

TEST(MorabarabaRules, BlockadeLosesInTheMovingPhase) {
  // Black's a7, d7, g7 are walled in; e3 still has exits.
  auto s = position("white: a4 b6 d6 f6 g4 c3; black: a7 d7 g7 e3; hands: 0 0; to_move: black");
  EXPECT_FALSE(s->is_terminal());
  // With e3's exits (d3 e4 f2) taken, Black has lost.
  auto blocked = position("white: a4 b6 d6 f6 g4 d3 e4 f2; black: a7 d7 g7 e3; hands: 0 0; to_move: black");
  EXPECT_TRUE(blocked->is_terminal());
  EXPECT_EQ(blocked->returns(), (std::vector<double>{1, -1}));
  EXPECT_EQ(blocked->end_reason(), EndReason::kBlockade);
  // Reached by a move: White closes the last exit.
  auto t = position("white: a4 b6 d6 f6 g4 d3 e4 g1; black: a7 d7 g7 e3; hands: 0 0; to_move: white");
  ASSERT_FALSE(t->is_terminal());
  t->apply(mv("g1", "f2"));
  EXPECT_TRUE(t->is_terminal());
  EXPECT_EQ(t->returns(), (std::vector<double>{1, -1}));
  EXPECT_TRUE(contains(t->to_string(), "White wins (the loser cannot move)"));
  // While placing there is no blockade: a cow in hand can always be placed.
  auto placing = position("white: a4 b6 d6 f6 g4 d3 e4 f2; black: a7 d7 g7 e3; hands: 1 2; to_move: black");
  EXPECT_FALSE(placing->is_terminal());
}

TEST(MorabarabaRules, FullBoardAfterPlacingLosesForWhiteUnlessTheOptionDrawsIt) {
  // No mill anywhere; Black places the 24th cow on c4 and White cannot move.
  const std::string text = alternating(true) + "; hands: 0 1; to_move: black";
  for (bool option : {false, true}) {
    auto s = position(text, game(option));
    ASSERT_FALSE(s->is_terminal());
    ASSERT_EQ(s->legal_actions(), std::vector<Action>{pt("c4")});
    s->apply(pt("c4"));
    EXPECT_FALSE(s->shot_pending());
    EXPECT_TRUE(s->is_terminal());
    if (option) {
      EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
      EXPECT_EQ(s->end_reason(), EndReason::kFullBoardDraw);
      EXPECT_TRUE(contains(s->to_string(), "draw (full board after placing)"));
    } else {
      EXPECT_EQ(s->returns(), (std::vector<double>{-1, 1}));
      EXPECT_EQ(s->end_reason(), EndReason::kBlockade);
    }
    // The same full board read from text is over at once.
    auto full = position(alternating(false) + "; to_move: white", game(option));
    EXPECT_EQ(full->returns(), s->returns());
  }
  // A blockade on a board that is not full is a loss even with the option.
  auto b = position("white: a4 b6 d6 f6 g4 d3 e4 f2; black: a7 d7 g7 e3; hands: 0 0; to_move: black", game(true));
  EXPECT_EQ(b->returns(), (std::vector<double>{1, -1}));
  EXPECT_EQ(b->end_reason(), EndReason::kBlockade);
}

TEST(MorabarabaRules, ThreeAgainstThreeIsDrawnAfterTenMovesEach) {
  // White (3 cows, flying) shoots Black down from 4 to 3: the count starts at that shot.
  auto s = position("white: a7 d7 c3; black: a1 b4 f4 e5; hands: 0 0; to_move: white");
  play(*s, "c3-g7xe5");
  ASSERT_FALSE(s->is_terminal());
  EXPECT_EQ(s->three_cows_plies(), 0);
  // Twenty plies that make no mill: Black a1<->d1, White a7-c5 then c5<->e3.
  for (int ply = 0; ply < 20; ++ply) {
    ASSERT_FALSE(s->is_terminal()) << ply;
    std::string move;
    if (ply % 2 == 0) {
      move = (ply / 2) % 2 == 0 ? "a1-d1" : "d1-a1";
    } else {
      move = ply == 1 ? "a7-c5" : ((ply - 3) / 2) % 2 == 0 ? "c5-e3" : "e3-c5";
    }
    play(*s, move);
    ASSERT_FALSE(s->shot_pending()) << move;
    EXPECT_EQ(s->three_cows_plies(), ply + 1);
  }
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
  EXPECT_EQ(s->end_reason(), EndReason::kThreeCowsDraw);
  EXPECT_FALSE(s->is_truncated());
  EXPECT_TRUE(contains(s->to_string(), "draw (10 moves each at 3 cows without a shot)"));
  // A shot earned on the 20th ply wins instead of drawing...
  const std::string late = "white: a7 d7 c5; black: a1 b4 f4; hands: 0 0; to_move: white; three_cows: 19";
  auto w = position(late);
  w->apply(mv("c5", "g7"));
  ASSERT_TRUE(w->shot_pending());
  EXPECT_EQ(w->three_cows_plies(), 20);
  EXPECT_FALSE(w->is_terminal());
  w->apply(pt("f4"));
  EXPECT_EQ(w->returns(), (std::vector<double>{1, -1}));
  EXPECT_EQ(w->end_reason(), EndReason::kTwoCows);
  // ...and declining it draws.
  auto d = position(late);
  play(*d, "c5-g7x-");
  EXPECT_EQ(d->end_reason(), EndReason::kThreeCowsDraw);
  // With 4 against 3 nothing is counted.
  auto n = position("white: a7 d7 c5 b2; black: a1 b4 f4; hands: 0 0; to_move: white");
  play(*n, "b2-d2 a1-d1");
  EXPECT_EQ(n->three_cows_plies(), 0);
  EXPECT_THROW(position("white: a7 d7 c5 b2; black: a1 b4 f4; hands: 0 0; to_move: white; three_cows: 3"), InputError);
}

TEST(MorabarabaRules, MoveCapDrawsAndIsReportedAsACap) {
  auto s = position("white: a7 d7 c5 b2; black: a1 b4 f4 f6; hands: 0 0; to_move: white; plies: 399");
  EXPECT_FALSE(s->is_terminal());
  s->apply(mv("b2", "d2"));
  EXPECT_TRUE(s->is_terminal());
  EXPECT_EQ(s->plies(), 400);
  EXPECT_EQ(s->returns(), (std::vector<double>{0, 0}));
  EXPECT_EQ(s->end_reason(), EndReason::kMoveCap);
  EXPECT_TRUE(s->is_truncated());
  EXPECT_TRUE(contains(s->to_string(), "draw (move cap reached)"));
  // A shot earned by the last ply is still decided, and a win by it stands.
  auto w = position("white: a7 d7 g4 f2; black: a1 b2 c5; hands: 0 0; to_move: white; plies: 399");
  w->apply(mv("g4", "g7"));
  ASSERT_TRUE(w->shot_pending());
  w->apply(pt("c5"));
  EXPECT_EQ(w->end_reason(), EndReason::kTwoCows);
  EXPECT_FALSE(w->is_truncated());
  // A small cap ends a game after exactly that many plies, shot decisions not counted.
  Rng rng(3);
  for (int i = 0; i < 50; ++i) {
    auto g = initial(game(false, 9));
    int plies = 0;
    while (!g->is_terminal()) {
      plies += g->shot_pending() ? 0 : 1;
      g->apply(g->random_legal_action(rng));
    }
    EXPECT_EQ(plies, 9);
    EXPECT_TRUE(g->is_truncated());
    EXPECT_LE(static_cast<int>(g->history().size()), game(false, 9).max_game_length());
  }
}

TEST(MorabarabaRules, IllegalActionsThrowWithAReasonAndChangeNothing) {
  auto s = initial();
  play(*s, "a7 a1");
  EXPECT_TRUE(contains(rejected(*s, pt("a7")), "a7 is occupied"));
  EXPECT_TRUE(contains(rejected(*s, mv("a7", "a4")), "White still has 11 cow(s) in hand"));
  EXPECT_TRUE(contains(rejected(*s, kDecline), "there is no shot to decline"));
  EXPECT_TRUE(contains(rejected(*s, -1), "illegal action -1: action -1 is outside 0..600"));
  EXPECT_TRUE(contains(rejected(*s, 601), "outside 0..600"));
  auto m = position("white: a7 d7 g4 f2; black: a1 b2 c5 e5; hands: 0 0; to_move: white");
  const std::vector<std::pair<Action, std::string>> cases = {
      {pt("d1"), "every cow is placed"},
      {mv("a1", "a4"), "White has no cow on a1"},
      {mv("a7", "a7"), "a7 is occupied"},
      {mv("g4", "f2"), "f2 is occupied"},
      {mv("a7", "b4"), "a7 and b4 are not adjacent"},
      {kDecline, "there is no shot to decline"},
  };
  for (const auto& [action, reason] : cases) {
    const std::string message = rejected(*m, action);
    EXPECT_TRUE(contains(message, reason)) << message;
    EXPECT_TRUE(contains(message, "illegal action")) << message;
    EXPECT_EQ(m->illegality(action), message.substr(message.find(": ") + 2));
  }
  EXPECT_TRUE(m->illegality(mv("g4", "g7")).empty());
}

// ------------------------------------------------------------------------------------------------
// Constructed positions, text and observations.

TEST(MorabarabaText, PositionTextRoundTripsAndBadTextIsRejected) {
  const std::string text =
      "white: a7 d7 g4 f4 b2 e4; black: b6 d6 e5 c3; hands: 0 0; to_move: white; shot: pending; "
      "no_return: white g4 g7; plies: 57";
  auto s = position(text);
  EXPECT_EQ(s->position_text(), text);
  EXPECT_EQ(position(s->position_text())->hash(), s->hash());
  EXPECT_THROW(s->record(), InputError);  // a constructed position has no game to write
  const std::string picture = s->to_string();
  EXPECT_TRUE(contains(picture, "7 W-----W-----.\n")) << picture;
  EXPECT_TRUE(contains(picture, "  |\\    |    /|\n")) << picture;
  EXPECT_TRUE(contains(picture, "6 | B---B---. |\n")) << picture;
  EXPECT_TRUE(contains(picture, "4 .-.-.   W-W-W\n")) << picture;
  EXPECT_TRUE(contains(picture, "5 | | .-.-B | |\n")) << picture;
  EXPECT_TRUE(contains(picture, "3 | | B-.-. | |\n")) << picture;
  EXPECT_TRUE(contains(picture, "2 | W---.---. |\n")) << picture;
  EXPECT_TRUE(contains(picture, "  a b c d e f g\n")) << picture;
  // Spaces, case of the points and empty clauses are forgiven.
  EXPECT_EQ(position(" white:A7 D7 g7 ;black:d1 a1 d2;; hands: 0 0 ; to_move:black ")->position_text(),
            "white: a7 d7 g7; black: d1 a1 d2; hands: 0 0; to_move: black");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"white: a7; black: d1; hands: 0 0", "to_move"},
      {"white: a7 b1; black: d1 a1 d2; to_move: white", "'b1' is not a point"},
      {"white: a7 d7 g7; black: a7 a1 d2; to_move: white", "a7 is listed twice"},
      {"white: a7 d7 g7; black: d1 a1 d2; to_move: red", "'red' is not a colour"},
      {"white: a7 d7 g7; black: d1 a1 d2; hands: 0 13; to_move: white", "a hand must be a number 0..12"},
      {"white: a7 d7 g7; black: d1 a1 d2; hands: 0; to_move: white", "'hands' takes 2 value(s)"},
      {"white: a7 d7 g7; black: d1 a1 d2; hands: 11 11; to_move: white", "White has 14 cows"},
      {"white: a7 d7 g7; black: d1 a1 d2; hands: 3 3; to_move: black", "White places next"},
      {"white: a7 d7 g7; black: d1 a1 d2; hands: 3 5; to_move: black", "hands differ"},
      {"white: a7 d7 g7; black: d1 a1 d2; hands: 2 3; to_move: black; shot: pending", "the pending shot is White's"},
      {"white: a7 d7 g7; black: d1 a1 d2; to_move: white; shot: maybe", "'shot' takes the value 'pending'"},
      {"white: a7 d7 g7; black: d1 a1 d2; to_move: white; colour: white", "unknown key 'colour'"},
      {"white: a7 d7 g7; black: d1 a1 d2; to_move white", "not of the form key: values"},
      {"white: a7 d7 g4 f4 e4; black: d1 a1 d2; to_move: white; no_return: white g4 g1", "cannot bite"},
      {"white: a7 d7 g4 f4 e4; black: d1 a1 d2; hands: 1 1; to_move: white; no_return: white g4 g7", "cannot bite"},
      {"white: a7 d7 g7; black: d1 a1 d2; to_move: white; plies: -1", "plies must be a number"},
  };
  for (const auto& [input, reason] : bad) {
    try {
      position(input);
      ADD_FAILURE() << "accepted: " << input;
    } catch (const InputError& e) {
      EXPECT_TRUE(contains(e.what(), reason)) << input << " -> " << e.what();
      EXPECT_TRUE(contains(e.what(), "from_text: ")) << e.what();
    }
  }
}

TEST(MorabarabaText, ObservationPlanesFromEachSide) {
  // Black (3 cows, mill b6-d6-f6) is to shoot; White may not take g4 back to g7.
  auto s = position(
      "white: a7 d7 g4 f4 e4 b2; black: b6 d6 f6; hands: 0 0; to_move: black; shot: pending; "
      "no_return: white g4 g7; plies: 100");
  std::vector<float> obs(17 * kCells);
  auto plane = [&](int k, std::string_view point) {
    return obs[static_cast<std::size_t>(k * kCells + cell_of(pt(point)))];
  };
  auto constant = [&](int k) {
    const float v = obs[static_cast<std::size_t>(k * kCells)];
    for (int c = 0; c < kCells; ++c)
      if (obs[static_cast<std::size_t>(k * kCells + c)] != v) return -1.0f;
    return v;
  };
  s->observation(1, obs);  // Black, the mover
  EXPECT_EQ(plane(0, "f6"), 1.0f);
  EXPECT_EQ(plane(0, "a7"), 0.0f);
  EXPECT_EQ(plane(1, "a7"), 1.0f);
  EXPECT_EQ(plane(1, "f6"), 0.0f);
  EXPECT_EQ(std::count(obs.begin() + 2 * kCells, obs.begin() + 3 * kCells, 1.0f), 12);
  EXPECT_EQ(plane(2, "b2"), 1.0f);  // a corner
  EXPECT_EQ(plane(2, "d2"), 0.0f);  // a midpoint
  EXPECT_EQ(constant(3), 0.0f);
  EXPECT_EQ(constant(4), 0.0f);
  EXPECT_EQ(constant(5), 1.0f);  // Black has exactly 3 cows
  EXPECT_EQ(constant(6), 0.0f);
  EXPECT_EQ(constant(7), 1.0f);
  EXPECT_EQ(constant(8), 1.0f);
  // Black may shoot a7, d7, b2 but not the mill g4-f4-e4.
  EXPECT_EQ(plane(9, "a7"), 1.0f);
  EXPECT_EQ(plane(9, "g4"), 0.0f);
  EXPECT_EQ(std::count(obs.begin() + 9 * kCells, obs.begin() + 10 * kCells, 1.0f), 3);
  EXPECT_EQ(std::count(obs.begin() + 10 * kCells, obs.begin() + 11 * kCells, 1.0f), 3);  // all in mills: all
  EXPECT_EQ(std::count(obs.begin() + 11 * kCells, obs.begin() + 13 * kCells, 1.0f), 0);
  EXPECT_EQ(plane(13, "g4"), 1.0f);
  EXPECT_EQ(plane(14, "g7"), 1.0f);
  EXPECT_EQ(std::count(obs.begin() + 13 * kCells, obs.begin() + 15 * kCells, 1.0f), 2);
  EXPECT_EQ(constant(15), 0.0f);
  EXPECT_FLOAT_EQ(constant(16), 0.25f);
  s->observation(0, obs);  // White's side of the same position
  EXPECT_EQ(plane(0, "a7"), 1.0f);
  EXPECT_EQ(plane(1, "f6"), 1.0f);
  EXPECT_EQ(constant(5), 0.0f);
  EXPECT_EQ(constant(6), 1.0f);
  EXPECT_EQ(constant(7), 0.0f);
  EXPECT_EQ(constant(8), 1.0f);
  EXPECT_EQ(plane(11, "g4"), 1.0f);
  EXPECT_EQ(plane(12, "g7"), 1.0f);
  EXPECT_EQ(plane(10, "a7"), 1.0f);
  EXPECT_EQ(plane(10, "e4"), 0.0f);
  // Hands while placing.
  auto p = initial();
  play(*p, "a7");
  p->observation(1, obs);
  EXPECT_EQ(constant(3), 1.0f);
  EXPECT_FLOAT_EQ(constant(4), 11.0f / 12.0f);
  EXPECT_FLOAT_EQ(constant(16), 1.0f / 400.0f);
  std::vector<float> small(10);
  EXPECT_THROW(s->observation(0, small), InputError);
  EXPECT_THROW(s->observation(2, obs), InputError);
}

// ------------------------------------------------------------------------------------------------
// Perft.

// Counts placement plies: a shot decision is folded into the placement that earned it, each shot
// and the declined shot being one line.
std::uint64_t placement_perft(const MorabarabaState& s, int depth) {
  if (depth == 0) return 1;
  if (s.is_terminal()) return 0;
  std::uint64_t total = 0;
  for (Action a : s.legal_actions()) {
    MorabarabaState child(s);
    child.apply(a);
    if (!child.shot_pending()) {
      total += placement_perft(child, depth - 1);
      continue;
    }
    for (Action shot : child.legal_actions()) {
      MorabarabaState after(child);
      after.apply(shot);
      total += placement_perft(after, depth - 1);
    }
  }
  return total;
}

TEST(MorabarabaPerft, PlacementCountsFromTheRuleFile) {
  const std::vector<std::uint64_t> expected = {24, 552, 12144, 255024};
  auto s = initial();
  for (int depth = 1; depth <= 4; ++depth) {
    EXPECT_EQ(placement_perft(*s, depth), expected[static_cast<std::size_t>(depth - 1)]) << "depth " << depth;
    // No mill is possible in four placements, so the generic count (shots as plies) agrees.
    EXPECT_EQ(perft(*s, depth), expected[static_cast<std::size_t>(depth - 1)]) << "depth " << depth;
  }
}

TEST(MorabarabaPerft, AMillOnTheFifthPlacementAddsTheShotLines) {
  // Four plies after White's a7: 23·22·21·20 placements. Where White's next two cows complete one
  // of the 3 mills through a7 (in 2 orders, Black's two cows in 21·20 ordered places), White has
  // three lines (shoot either Black cow, or decline) instead of one.
  auto s = initial();
  s->apply(pt("a7"));
  const std::uint64_t plain = 23ull * 22 * 21 * 20;
  const std::uint64_t mills = 3ull * 2 * 21 * 20;
  EXPECT_EQ(placement_perft(*s, 4), plain + 2 * mills);
}

// ------------------------------------------------------------------------------------------------
// Random games against the reference model.

struct Endings {
  int two_cows = 0, blockade = 0, full_board = 0, three_cows = 0, cap = 0;
  int restrictions = 0, shots = 0, declines = 0, flights = 0, records = 0;
};

bool both_three(const ref::Game& r) { return r.cows(0) == 3 && r.cows(1) == 3; }

std::vector<int> shootable_ref(const ref::Game& r, int victim) {
  std::vector<int> all, free;
  for (int q = 0; q < 24; ++q)
    if (r.board[q] == victim) {
      all.push_back(q);
      if (!r.in_mill(victim, q, r.board)) free.push_back(q);
    }
  return free.empty() ? all : free;
}

// Compares every plane of `viewer`'s observation with what the reference says it should hold.
std::string observation_mismatch(const MorabarabaState& s, const ref::Game& r, Player viewer, std::vector<float>& obs) {
  s.observation(viewer, obs);
  const int other = 1 - viewer;
  std::vector<float> expected(17 * kCells, 0.0f);
  auto set = [&](int plane, int point) { expected[static_cast<std::size_t>(plane * kCells + cell_of(point))] = 1.0f; };
  auto fill = [&](int plane, float v) { std::fill_n(expected.begin() + plane * kCells, kCells, v); };
  for (int q = 0; q < 24; ++q) {
    if (r.board[q] == viewer) set(0, q);
    if (r.board[q] == other) set(1, q);
    if (is_corner(q)) set(2, q);
  }
  fill(3, static_cast<float>(r.hand[viewer]) / 12.0f);
  fill(4, static_cast<float>(r.hand[other]) / 12.0f);
  fill(5, r.cows(viewer) == 3 ? 1.0f : 0.0f);
  fill(6, r.cows(other) == 3 ? 1.0f : 0.0f);
  fill(7, r.result == -1 && r.mover == viewer ? 1.0f : 0.0f);
  fill(8, r.result == -1 && r.pending ? 1.0f : 0.0f);
  for (int q : shootable_ref(r, other)) set(9, q);
  for (int q : shootable_ref(r, viewer)) set(10, q);
  for (int who : {viewer, other})
    if (r.restriction_bites(who)) {
      set(who == viewer ? 11 : 13, r.no_return_cow[who]);
      set(who == viewer ? 12 : 14, r.no_return_point[who]);
    }
  fill(15, static_cast<float>(r.three) / 20.0f);
  fill(16, static_cast<float>(r.plies) / static_cast<float>(r.cap));
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (std::abs(obs[i] - expected[i]) > 1e-6f)
      return "viewer " + std::to_string(viewer) + " plane " + std::to_string(i / kCells) + " cell " +
             std::to_string(i % kCells) + ": " + std::to_string(obs[i]) + " instead of " + std::to_string(expected[i]) +
             "\n" + s.to_string();
  return {};
}

void check_clone(const MorabarabaState& s, Rng& rng) {
  auto copy = as_morabaraba(s.clone());
  ASSERT_EQ(copy->hash(), s.hash());
  ASSERT_EQ(copy->to_string(), s.to_string());
  ASSERT_EQ(copy->history(), s.history());
  ASSERT_EQ(copy->legal_actions(), s.legal_actions());
  // Playing on the copy leaves the original alone.
  const Snapshot before(s);
  copy->apply(copy->random_legal_action(rng));
  ASSERT_TRUE(Snapshot(s) == before);
}

void play_checked_game(const MorabarabaGame& g, Rng& rng, Endings& endings) {
  auto s = initial(g);
  ref::Game r(g.full_board_draw(), g.move_cap());
  std::vector<Action> legal;
  std::vector<float> obs(17 * kCells);
  std::vector<std::uint8_t> mask(601), expected_mask(601);
  const int record_at = static_cast<int>(rng.below(120));
  for (int n = 0; !s->is_terminal(); ++n) {
    ASSERT_EQ(r.result, -1) << "the reference ended the game:\n" << s->to_string();
    s->legal_actions(legal);
    ASSERT_EQ(legal, r.legal()) << s->to_string();
    ASSERT_FALSE(legal.empty());
    ASSERT_EQ(s->current_player(), r.mover);
    ASSERT_EQ(s->shot_pending(), r.pending);
    ASSERT_EQ(s->placing(), r.hand[0] + r.hand[1] > 0);
    ASSERT_EQ(s->hand(0), r.hand[0]);
    ASSERT_EQ(s->hand(1), r.hand[1]);
    ASSERT_EQ(s->plies(), r.plies);
    ASSERT_EQ(s->three_cows_plies(), r.three);
    ASSERT_TRUE(r.three == 0 || both_three(r));
    for (Player p : {0, 1}) {
      ASSERT_EQ(s->no_return(p).active(), r.restriction_bites(p)) << s->to_string();
      if (s->no_return(p).active()) {
        ASSERT_EQ(s->no_return(p).cow, r.no_return_cow[p]);
        ASSERT_EQ(s->no_return(p).point, r.no_return_point[p]);
      }
    }
    endings.restrictions += s->no_return(r.mover).active() && !s->shot_pending();
    endings.flights += !s->placing() && !s->shot_pending() && s->flies(r.mover);
    if (rng.below(64) == 0) {
      s->legal_mask(s->current_player(), mask);
      std::fill(expected_mask.begin(), expected_mask.end(), 0);
      for (Action a : legal) expected_mask[static_cast<std::size_t>(a)] = 1;
      ASSERT_EQ(mask, expected_mask);
      for (Player viewer : {0, 1}) ASSERT_EQ(observation_mismatch(*s, r, viewer, obs), "");
      check_clone(*s, rng);
      // The position read back from its text hashes the same: the hash covers exactly the position.
      ASSERT_EQ(position(s->position_text(), g)->hash(), s->hash()) << s->position_text();
      // An illegal action is rejected with a reason and leaves everything as it was.
      const Action wrong = rng.below(8) == 0 ? (rng.below(2) == 0 ? -1 : 601) : static_cast<Action>(rng.below(601));
      if (!std::binary_search(legal.begin(), legal.end(), wrong)) {
        const std::string message = rejected(*s, wrong);
        EXPECT_TRUE(contains(message, "illegal action")) << message;
        if (wrong >= 0 && wrong <= kDecline) {
          EXPECT_FALSE(s->illegality(wrong).empty());
          EXPECT_TRUE(contains(message, s->illegality(wrong))) << message;
        }
      }
      EXPECT_TRUE(s->illegality(legal[rng.below(static_cast<std::uint32_t>(legal.size()))]).empty());
    }
    const Action a = s->random_legal_action(rng);
    ASSERT_TRUE(std::binary_search(legal.begin(), legal.end(), a)) << a << "\n" << s->to_string();
    if (s->shot_pending()) (a == kDecline ? endings.declines : endings.shots) += 1;
    s->apply(a);
    r.apply(a);
    if (n == record_at && !s->is_terminal()) {
      // A record read back gives the same position, a pending shot included.
      ++endings.records;
      ASSERT_EQ(g.load_record(s->record())->hash(), s->hash()) << s->record();
    }
  }
  ASSERT_NE(r.result, -1) << "the engine ended a game the rules go on with:\n" << s->to_string();
  ASSERT_EQ(s->end_reason(), r.reason) << s->to_string();
  const std::vector<double> result = s->returns();
  ASSERT_EQ(result[0] + result[1], 0.0);
  if (r.result == 2) {
    ASSERT_EQ(result, (std::vector<double>{0, 0}));
  } else {
    ASSERT_EQ(result[static_cast<std::size_t>(r.result)], 1.0);
  }
  switch (s->end_reason()) {
    case EndReason::kTwoCows: ++endings.two_cows; break;
    case EndReason::kBlockade: ++endings.blockade; break;
    case EndReason::kFullBoardDraw: ++endings.full_board; break;
    case EndReason::kThreeCowsDraw: ++endings.three_cows; break;
    case EndReason::kMoveCap: ++endings.cap; break;
    case EndReason::kNone: FAIL() << "a finished game without a reason";
  }
  ASSERT_EQ(s->is_truncated(), s->end_reason() == EndReason::kMoveCap);
  ASSERT_TRUE(s->legal_actions().empty());
  ASSERT_LE(static_cast<int>(s->history().size()), g.max_game_length());
  for (Player viewer : {0, 1}) ASSERT_EQ(observation_mismatch(*s, r, viewer, obs), "");
  auto replay = as_morabaraba(g.load_record(s->record()));
  ASSERT_EQ(replay->hash(), s->hash());
  ASSERT_EQ(replay->history(), s->history());
  ASSERT_EQ(replay->to_string(), s->to_string());
  ASSERT_EQ(replay->record(), s->record());
}

TEST(MorabarabaRandomGames, InvariantsHoldAfterEveryAction) {
  // Default rules, the full-board draw, and a short cap, so that every ending comes up.
  const MorabarabaGame* games[3] = {&game(), &game(true), &game(false, 60)};
  Rng rng(7);
  Endings endings;
  for (int i = 0; i < 10000 && !::testing::Test::HasFailure(); ++i) play_checked_game(*games[i % 3], rng, endings);
  EXPECT_GT(endings.two_cows, 100);
  EXPECT_GT(endings.blockade, 10);
  EXPECT_GT(endings.full_board, 0);
  EXPECT_GT(endings.three_cows, 20);
  EXPECT_GT(endings.cap, 100);
  EXPECT_GT(endings.restrictions, 10);
  EXPECT_GT(endings.shots, 1000);
  EXPECT_GT(endings.declines, 1000);
  EXPECT_GT(endings.flights, 1000);
  EXPECT_GT(endings.records, 5000);
  std::printf(
      "random games: %d two-cow wins, %d blockades, %d full boards, %d 3-vs-3 draws, %d caps; "
      "%d restricted moves, %d shots, %d declines, %d flights\n",
      endings.two_cows, endings.blockade, endings.full_board, endings.three_cows, endings.cap, endings.restrictions,
      endings.shots, endings.declines, endings.flights);
}

TEST(MorabarabaRandomGames, RandomLegalActionCoversEveryLegalAction) {
  std::vector<std::unique_ptr<MorabarabaState>> states;
  states.push_back(initial());
  states.push_back(position("white: a4 b4 c5 c3 f4; black: g1 d1 a1 e3 f6; hands: 0 0; to_move: white"));
  states.push_back(position("white: a7 d6 e3; black: a1 b2 d2 f2; hands: 0 0; to_move: white"));
  states.push_back(position("white: a4 b4 c4 c3 f4; black: g1 d1 a1 e3 f6; hands: 0 0; to_move: white; shot: pending"));
  states.push_back(
      position("white: a7 d7 g4 f4 e4; black: a1 b2 c3 c5 d5; hands: 0 0; to_move: white; "
               "no_return: white g4 g7"));
  Rng rng(3);
  for (const auto& s : states) {
    const std::vector<Action> legal = s->legal_actions();
    std::vector<int> seen(601);
    for (int i = 0; i < 3000; ++i) ++seen[static_cast<std::size_t>(s->random_legal_action(rng))];
    for (Action a = 0; a < 601; ++a)
      EXPECT_EQ(seen[static_cast<std::size_t>(a)] > 0, std::binary_search(legal.begin(), legal.end(), a))
          << a << "\n"
          << s->to_string();
  }
}

TEST(MorabarabaRandomGames, HashCoversTheWholePositionAndNothingElse) {
  // The same placements in another order give the same position.
  auto a = initial();
  auto b = initial();
  play(*a, "a7 a1 d7");
  play(*b, "d7 a1 a7");
  EXPECT_EQ(a->hash(), b->hash());
  play(*b, "d1");
  EXPECT_NE(a->hash(), b->hash());
  // Whatever decides the future is part of it: the mover, a pending shot, a restriction, the counts.
  const std::string base = "white: a7 d7 g4 f4 e4 b2; black: b6 d6 e5 c3; hands: 0 0";
  std::vector<std::uint64_t> hashes = {
      position(base + "; to_move: white")->hash(),
      position(base + "; to_move: black")->hash(),
      position(base + "; to_move: white; shot: pending")->hash(),
      position(base + "; to_move: white; no_return: white g4 g7")->hash(),
      position(base + "; to_move: black; no_return: white g4 g7")->hash(),
      position(base + "; to_move: white; plies: 1")->hash(),
      position(base + "; to_move: white; plies: 2")->hash(),
  };
  std::sort(hashes.begin(), hashes.end());
  EXPECT_EQ(std::unique(hashes.begin(), hashes.end()), hashes.end());
  EXPECT_NE(position("white: a7 d7 c5; black: a1 b4 f4; to_move: white; three_cows: 1")->hash(),
            position("white: a7 d7 c5; black: a1 b4 f4; to_move: white; three_cows: 2")->hash());
  // Hands are part of the position too.
  EXPECT_NE(position("white: a7; black: a1; hands: 5 5; to_move: white")->hash(),
            position("white: a7; black: a1; hands: 4 4; to_move: white")->hash());
}

// ------------------------------------------------------------------------------------------------
// Symmetry.

std::vector<int> point_image(const Symmetry& s) { return {s.action.begin(), s.action.begin() + 24}; }

std::vector<int> identity_image() {
  std::vector<int> out(24);
  for (int p = 0; p < 24; ++p) out[static_cast<std::size_t>(p)] = p;
  return out;
}

TEST(MorabarabaSymmetry, TheFifteenNonIdentitySymmetriesPreserveTheBoard) {
  const auto& symmetries = game().symmetries();
  ASSERT_EQ(symmetries.size(), 15u);
  std::vector<std::vector<int>> seen;
  for (const Symmetry& s : symmetries) {
    ASSERT_EQ(s.cell.size(), static_cast<std::size_t>(kCells));
    ASSERT_EQ(s.action.size(), 601u);
    const std::vector<int> image = point_image(s);
    // Both are permutations, the cell one agrees with the point one, and neither is the identity.
    std::vector<int> cells = s.cell;
    std::sort(cells.begin(), cells.end());
    for (int c = 0; c < kCells; ++c) ASSERT_EQ(cells[static_cast<std::size_t>(c)], c) << s.name;
    std::vector<int> points = image;
    std::sort(points.begin(), points.end());
    for (int p = 0; p < 24; ++p) ASSERT_EQ(points[static_cast<std::size_t>(p)], p) << s.name;
    for (int p = 0; p < 24; ++p) EXPECT_EQ(s.cell[static_cast<std::size_t>(cell_of(p))], cell_of(image[p])) << s.name;
    EXPECT_NE(image, identity_image()) << s.name;
    for (const auto& other : seen) EXPECT_NE(other, image) << s.name;
    seen.push_back(image);
    // Adjacency and mills are invariant.
    for (int a = 0; a < 24; ++a)
      for (int b = 0; b < 24; ++b)
        EXPECT_EQ(ref::kBoard.adjacent[a][b], ref::kBoard.adjacent[image[a]][image[b]]) << s.name;
    for (const auto& m : ref::kBoard.mills) {
      std::array<int, 3> mapped = {image[m[0]], image[m[1]], image[m[2]]};
      std::sort(mapped.begin(), mapped.end());
      bool found = false;
      for (auto other : ref::kBoard.mills) {
        std::sort(other.begin(), other.end());
        found = found || other == mapped;
      }
      EXPECT_TRUE(found) << s.name;
    }
    for (int from = 0; from < 24; ++from)
      for (int to = 0; to < 24; ++to)
        EXPECT_EQ(s.action[static_cast<std::size_t>(24 + 24 * from + to)], 24 + 24 * image[from] + image[to]);
    EXPECT_EQ(s.action[kDecline], kDecline);
  }
  // Two named cases.
  const auto by_name = [&](std::string_view name) -> const Symmetry& {
    for (const Symmetry& s : symmetries)
      if (s.name == name) return s;
    ADD_FAILURE() << "no symmetry " << name;
    return symmetries[0];
  };
  EXPECT_EQ(point_image(by_name("mirror files a<->g"))[pt("a7")], pt("g7"));
  EXPECT_EQ(point_image(by_name("rotate 90 clockwise (a1->a7)"))[pt("a1")], pt("a7"));
  EXPECT_EQ(point_image(by_name("rotate 90 clockwise (a1->a7)"))[pt("d2")], pt("b4"));
  // The ring swap alone: the outer ring's corner a7 goes to the inner ring's c5, the middle ring stays.
  const std::vector<int> swap = point_image(by_name("swap the outer and inner rings"));
  EXPECT_EQ(swap[pt("a7")], pt("c5"));
  EXPECT_EQ(swap[pt("d1")], pt("d3"));
  EXPECT_EQ(swap[pt("e4")], pt("g4"));
  EXPECT_EQ(swap[pt("b2")], pt("b2"));
  EXPECT_EQ(point_image(by_name("mirror files a<->g, then swap the outer and inner rings"))[pt("a7")], pt("e5"));
}

// The position's text with every point moved by the symmetry.
std::string mapped_text(const MorabarabaState& s, const std::vector<int>& image) {
  auto list = [&](MorabarabaState::Points points) {
    std::string out;
    for (int p = 0; p < 24; ++p)
      if (points & (1u << p)) out += ref::name_of(image[p]) + " ";
    return out;
  };
  std::string text = "white: " + list(s.cows(0)) + "; black: " + list(s.cows(1)) +
                     "; hands: " + std::to_string(s.hand(0)) + " " + std::to_string(s.hand(1)) +
                     "; to_move: " + (s.current_player() == 0 ? "white" : "black") +
                     "; plies: " + std::to_string(s.plies()) + "; three_cows: " + std::to_string(s.three_cows_plies());
  if (s.shot_pending()) text += "; shot: pending";
  for (Player p : {0, 1})
    if (s.no_return(p).active())
      text += "; no_return: " + std::string(p == 0 ? "white" : "black") + " " +
              ref::name_of(image[s.no_return(p).cow]) + " " + ref::name_of(image[s.no_return(p).point]);
  return text;
}

TEST(MorabarabaSymmetry, LegalActionsAndObservationsAreInvariant) {
  // Positions from random games, restricted and pending ones included.
  Rng rng(11);
  std::vector<std::unique_ptr<MorabarabaState>> positions;
  int restricted = 0, pending = 0, flying = 0;
  for (int tries = 0; tries < 20000 && (positions.size() < 400 || restricted < 5); ++tries) {
    auto s = initial();
    const int stop = static_cast<int>(rng.below(200));
    for (int n = 0; !s->is_terminal() && n < stop; ++n) s->apply(s->random_legal_action(rng));
    if (s->is_terminal()) continue;
    const bool has_restriction = s->no_return(0).active() || s->no_return(1).active();
    if (positions.size() >= 400 && !has_restriction) continue;
    restricted += has_restriction;
    pending += s->shot_pending();
    flying += !s->placing() && s->flies(s->current_player());
    positions.push_back(std::move(s));
  }
  EXPECT_GE(restricted, 5);
  EXPECT_GT(pending, 20);
  EXPECT_GT(flying, 5);
  std::vector<float> obs(17 * kCells), obs_mapped(17 * kCells);
  for (const auto& s : positions) {
    // The text of the unmoved position rebuilds it exactly.
    ASSERT_EQ(position(mapped_text(*s, identity_image()))->hash(), s->hash());
    for (const Symmetry& sym : game().symmetries()) {
      auto mapped = position(mapped_text(*s, point_image(sym)));
      ASSERT_FALSE(mapped->is_terminal());
      std::vector<Action> expected;
      for (Action a : s->legal_actions()) expected.push_back(sym.action[static_cast<std::size_t>(a)]);
      std::sort(expected.begin(), expected.end());
      ASSERT_EQ(mapped->legal_actions(), expected) << sym.name << "\n" << s->to_string();
      for (Player viewer : {0, 1}) {
        s->observation(viewer, obs);
        mapped->observation(viewer, obs_mapped);
        for (int k = 0; k < 17; ++k)
          for (int c = 0; c < kCells; ++c)
            ASSERT_EQ(obs_mapped[static_cast<std::size_t>(k * kCells + sym.cell[static_cast<std::size_t>(c)])],
                      obs[static_cast<std::size_t>(k * kCells + c)])
                << sym.name << " plane " << k;
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Notation and records.

TEST(MorabarabaNotation, EveryActionRoundTrips) {
  auto placing = initial();
  auto pending = initial();
  play(*pending, "a7 a1 d7 d1 g7");
  auto moving = position("white: a7 d7 g4 f2; black: a1 b2 c5 e5; hands: 0 0; to_move: white");
  for (const MorabarabaState* s : {placing.get(), pending.get(), moving.get()})
    for (Action a = 0; a <= kDecline; ++a) EXPECT_EQ(s->string_to_action(s->action_to_string(a)), a) << a;
  EXPECT_EQ(placing->action_to_string(pt("d2")), "d2");
  EXPECT_EQ(pending->action_to_string(pt("d1")), "xd1");
  EXPECT_EQ(placing->action_to_string(mv("d1", "d2")), "d1-d2");
  EXPECT_EQ(placing->action_to_string(kDecline), "x-");
  EXPECT_EQ(placing->string_to_action("xd5"), pt("d5"));
  EXPECT_EQ(placing->string_to_action("D1-D2"), mv("d1", "d2"));
  EXPECT_EQ(placing->string_to_action("a7"), 0);
  EXPECT_EQ(placing->string_to_action("c4"), 23);
  EXPECT_EQ(placing->string_to_action("g1-a1"), 24 + 24 * 4 + 6);  // a flight
  for (const char* bad : {"", "b1", "h1", "d8", "d0", "d4", "d1-", "-d2", "d1-d2-d3", "xb1", "x", "d1-d2xd5", "dd",
                          "d22", "x--", "d1d2", "d2x-"})
    EXPECT_THROW(placing->string_to_action(bad), NotationError) << bad;
  try {
    placing->string_to_action("b1");
  } catch (const NotationError& e) {
    EXPECT_TRUE(contains(e.what(), "'b1' is not a point")) << e.what();
  }
  EXPECT_THROW(placing->action_to_string(601), InputError);
  EXPECT_THROW(placing->action_to_string(-1), InputError);
}

std::string notation_error(std::string_view record) {
  try {
    game().load_record(record);
  } catch (const NotationError& e) {
    return e.what();
  }
  ADD_FAILURE() << "record accepted: " << record;
  return {};
}

TEST(MorabarabaRecords, PliesWithTheirShotsReadBack) {
  const std::string text = "a7 a1 d7 d1 g7xd1 d1 g4 b2 g1x- c3xg4";
  auto s = as_morabaraba(game().load_record(text));
  EXPECT_EQ(s->record(), text);
  EXPECT_EQ(s->plies(), 10);
  EXPECT_EQ(s->history().size(), 13u);
  EXPECT_EQ(points_of(s->cows(0)), (std::vector<std::string>{"a7", "d7", "g7", "g1"}));
  EXPECT_EQ(points_of(s->cows(1)), (std::vector<std::string>{"d1", "a1", "b2", "c3"}));
  // The shot may be written as its own word, and a record that stops with a shot to decide
  // says so (kTurnGoesOn), as any record stopped in the middle of a turn.
  EXPECT_EQ(game().load_record("a7 a1 d7 d1 g7 xd1 d1 g4 b2 g1 x- c3 XG4")->record(), text);
  auto open = as_morabaraba(game().load_record("a7 a1 d7 d1 g7 +"));
  EXPECT_TRUE(open->shot_pending());
  EXPECT_EQ(open->record(), "a7 a1 d7 d1 g7 +");
  EXPECT_EQ(game().load_record("  a7\n a1\t")->hash(), game().load_record("a7 a1")->hash());
  EXPECT_EQ(game().load_record("")->hash(), initial()->hash());
}

TEST(MorabarabaRecords, EveryPlyPrefixReadsBackToThePositionAtThatPly) {
  Rng rng(6);
  for (int i = 0; i < 20; ++i) {
    auto s = initial();
    std::vector<std::uint64_t> after_ply;
    while (!s->is_terminal()) {
      s->apply(s->random_legal_action(rng));
      if (!s->shot_pending()) after_ply.push_back(s->hash());
    }
    const std::vector<std::string> plies = words(s->record());
    ASSERT_EQ(plies.size(), after_ply.size());
    std::string prefix;
    for (std::size_t n = 0; n < plies.size(); ++n) {
      // Each word is one ply: a placement or a move, then at most one shot decision.
      const std::string& w = plies[n];
      EXPECT_LE(std::count(w.begin(), w.end(), 'x'), 1) << w;
      EXPECT_NE(w[0], 'x') << w;
      prefix += (prefix.empty() ? "" : " ") + w;
      EXPECT_EQ(game().load_record(prefix)->hash(), after_ply[n]) << prefix;
    }
  }
}

TEST(MorabarabaRecords, BadRecordsNameThePlyAndTheReason) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"a7 a7", "ply 2 'a7': illegal action a7: a7 is occupied"},
      {"a7 b1", "ply 2 'b1': 'b1' is not a Morabaraba action: 'b1' is not a point"},
      {"a7x-", "ply 1 'a7x-': a7 makes no mill: there is no shot to take"},
      {"xd1", "ply 0 (its shot) 'xd1': a record starts with a placement"},
      {"a7 a1 x-", "ply 2 (its shot) 'x-': no mill was made"},
      {"a7 a1 d7 d1 g7 d2", "ply 6 'd2': White must first decide the shot earned by ply 5"},
      {"a7 a1 d7 d1 g7xa7", "ply 5 'g7xa7': illegal action xa7: there is no Black cow on a7 to shoot"},
      {"a7 a1 d7 d1 g7xd1xa1", "ply 5 'g7xd1xa1': 'xd1xa1' is not a Morabaraba action"},
      {"a7 a1 d7 d1 g7 xd1 xa1", "ply 5 (its shot) 'xa1': no mill was made"},
      {"a7 a1-a4", "ply 2 'a1-a4': illegal action a1-a4: Black still has 12 cow(s) in hand"},
      {"a7 a1 d7-", "ply 3 'd7-': 'd7-' is not a Morabaraba action"},
      {"a7 a1 d7 d1 g7", "ply 5 'g7': the turn is incomplete, White (player 0) must still move (a record that "
                         "stops in the middle of a turn ends with '+')"},
      {"a7 a1 +", "ply 2 'a1': the record ends with '+' (the turn goes on), but this turn is over"},
      {"a7 + a1", "turn 2 '+': '+' may only end a record"},
  };
  for (const auto& [record, reason] : cases) {
    const std::string message = notation_error(record);
    EXPECT_TRUE(contains(message, "record " + reason)) << record << " -> " << message;
  }
  // Anything after the end of a game is refused.
  Rng rng(9);
  auto s = initial();
  while (!s->is_terminal()) s->apply(s->random_legal_action(rng));
  const std::string after = notation_error(s->record() + " a7");
  EXPECT_TRUE(contains(after, "the game is already over")) << after;
}

}  // namespace
}  // namespace boardlab
