// War's heuristic reference player: each sub-move the one whose board scores best for the generals' race, `end` when none improves it.
//
// A player is out when its general is killed (shared/rules/war.md), so the game is a race to
// the others' generals while keeping them from one's own. Both are measured per unit type as
// a distance: the sub-moves of type t that player p needs to kill the unit on cell x, a flood
// from p's commanded t units and its general (the sources of t), each step spreading t's
// pattern and placing on the empty cells it lands on (a placed unit is a source at once);
// other units are obstacles (a kill leaves a dead cell, which is no source), and x is found
// when the pattern lands on it. A turn holds up to base_t + 3 sub-moves of one type when no
// other type is used (the rule file's budget), so an opponent whose distance to the own
// general is within that for some type could kill it in its next turn. Each sub-move is
// scored on the board it leaves:
//   - every opponent still in costs a great deal (a kill of a general is taken at once);
//   - an opponent that could kill the own general in its next turn costs nearly as much, and
//     one a few sub-moves further away a little: killing its units on the way (dead cells are
//     walls) and standing own units on the cells it must land on push it back;
//   - a general the player can still kill within what is left of its budget is worth almost
//     as much as the kill, and each type's distance to its nearest general costs (to the
//     others a third as much), weighted by how few of that type a turn holds, so each sub-move
//     walks a shortest path;
//   - each cell the player's commanded units could play counts a little, the opponents' a
//     little less, and each own commanded unit a little (a source, and an obstacle).
// Ties go to the seeded generator; the turn ends (`end`) when no sub-move scores above the
// board as it stands without the kill still in reach this turn.
//
// Cost: 4 floods per player (a shift per pattern offset and level, no allocation) on the board
// as it stands; a candidate sub-move floods again only the floods it can change (its own
// type's, and those that looked at its cell or lost a unit to it): about a millisecond per
// sub-move, a quarter of a second per game on 20×20 with 4 players.
#include "games/war/war_heuristic.h"

#include <algorithm>
#include <array>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "games/sub_move_grid/grid_bits.h"
#include "games/war/unit_patterns.h"
#include "games/war/war.h"

namespace boardlab {
namespace {

constexpr int kMaxPlayers = WarGame::kMaxPlayers;
constexpr int kFar = 1000;
constexpr int kAttackLevels = 12;         // a flood towards the others' generals stops here
constexpr int kThreatMargin = 6;          // sub-moves beyond one turn's reach that still cost
constexpr long kOpponentIn = 1'000'000;   // per opponent still in
constexpr long kKillThisTurn = 500'000;   // per general the player can still kill this turn
constexpr long kGeneralInDanger = 100'000;  // per opponent that could kill the own general next turn
constexpr long kThreatStep = 400;         // per sub-move an opponent is within kThreatMargin of that
constexpr long kAttackTurn = 840;         // per turn of one type's sub-moves to its nearest general
constexpr long kAttackTurnEach = 280;     // per turn of one type's sub-moves to each general
constexpr long kOwnTarget = 4;            // per cell the player could play
constexpr long kTheirTarget = 1;          // per cell an opponent could play
constexpr long kOwnUnit = 20;             // per commanded own unit

// The most sub-moves of type t one turn holds: its base and one per other type left unused.
constexpr int turn_reach(int t) { return kUnitType[t].base + kUnitTypes - 1; }

template <typename B>
struct Board {
  std::array<std::array<B, kUnitTypes>, kMaxPlayers> units{};  // by type, the general apart
  std::array<B, kMaxPlayers> commanded{};
  std::array<int, kMaxPlayers> general{};  // -1 once out
  B live{};  // every live unit, inert ones and generals included
  B dead{};
};

template <typename B>
B general_bit(const Board<B>& board, Player p) {
  return board.general[p] < 0 ? B{} : cell_bit<B>(board.general[p]);
}

template <typename B>
void recommand(Board<B>& board, Player p, const UnitPatterns<B>& patterns) {
  const B general = general_bit(board, p);
  board.commanded[p] = board.general[p] < 0 ? B{} : patterns.command(board.units[p], general, general, general);
}

template <typename B>
Board<B> read_board(const WarState& state, const UnitPatterns<B>& patterns) {
  Board<B> board;
  for (int c = 0; c < state.war().cells(); ++c) {
    const WarState::CellView cell = state.cell(c);
    if (cell.content == WarState::kNothing) continue;
    const B bit = cell_bit<B>(c);
    if (cell.content == WarState::kDead) {
      board.dead |= bit;
      continue;
    }
    board.live |= bit;
    if (cell.content != WarState::kGeneral) board.units[cell.owner][cell.content] |= bit;
  }
  for (Player p = 0; p < state.game().num_players(); ++p) {
    board.general[p] = state.general(p);
    recommand(board, p, patterns);
  }
  return board;
}

// Plays `me`'s sub-move `action` (not `end`) on the model; returns whose unit it killed, or -1.
template <typename B>
Player play(Board<B>& board, Player me, int players, int cells, Action action, const UnitPatterns<B>& patterns) {
  const int t = action / cells, c = action % cells;
  const B bit = cell_bit<B>(c);
  if (!has_cell(board.live, c)) {
    board.units[me][t] |= bit;
    board.live |= bit;
    // Commanded through its source; the flood from it is needed only if it may join units cut off before.
    const B own = general_bit(board, me) | board.units[me][0] | board.units[me][1] | board.units[me][2] |
                  board.units[me][3];
    const B before = board.commanded[me] | bit;
    board.commanded[me] =
        any(own & ~before) ? patterns.command(board.units[me], general_bit(board, me), before, bit) : before;
    return -1;
  }
  board.live = board.live & ~bit;
  board.dead |= bit;
  Player victim = 0;
  while (victim < players && !has_cell(board.units[victim][0] | board.units[victim][1] | board.units[victim][2] |
                                           board.units[victim][3] | general_bit(board, victim),
                                       c))
    ++victim;
  if (board.general[victim] == c) board.general[victim] = -1;
  for (B& units : board.units[victim]) units = units & ~bit;
  recommand(board, victim, patterns);
  return victim;
}

// A flood of type t's sub-moves of one player: the sub-moves it needs to kill each target
// (kFar beyond its limit), the cells it could play now, and every cell it looked at (a
// sub-move elsewhere leaves the flood as it was).
template <typename B>
struct Flood {
  std::array<int, kMaxPlayers> distance{};
  int targets_now = 0;
  B reached{};
};

template <typename B>
Flood<B> flood(const Board<B>& board, Player p, int t, const std::array<int, kMaxPlayers>& targets, int limit,
               const UnitPatterns<B>& patterns) {
  Flood<B> out;
  out.distance.fill(kFar);
  const B empty = patterns.grid().all & ~(board.live | board.dead);
  const B own = general_bit(board, p) | board.units[p][0] | board.units[p][1] | board.units[p][2] | board.units[p][3];
  B fresh = board.commanded[p] & (board.units[p][t] | general_bit(board, p));  // sources not spread from yet
  out.reached = fresh;
  int left = 0;
  for (int x : targets) left += x >= 0;
  for (int step = 1; step <= limit && any(fresh); ++step) {
    const B reach = patterns.spread(t, fresh) & ~out.reached;
    if (step == 1) out.targets_now = popcount(reach & ~board.dead & ~own);
    out.reached |= reach;
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (targets[i] >= 0 && out.distance[i] == kFar && has_cell(reach, targets[i])) {
        out.distance[i] = step;
        --left;
      }
    if (left == 0) break;
    fresh = reach & empty;  // placed there, a unit is a source at once
  }
  return out;
}

// How many more sub-moves of each type the turn allows after `used`.
std::array<int, kUnitTypes> budget_left(const TurnBudget& used) {
  std::array<int, kUnitTypes> left{};
  for (int t = 0; t < kUnitTypes; ++t) {
    TurnBudget more = used;
    while (more.allows(t)) {
      ++more.used[t];
      ++left[t];
    }
  }
  return left;
}

// Opponent q's floods of each type towards the general of `me`.
template <typename B>
using Threat = std::array<Flood<B>, kUnitTypes>;

template <typename B>
Threat<B> threat_of(const Board<B>& board, Player q, Player me, const UnitPatterns<B>& patterns) {
  std::array<int, kMaxPlayers> mine{};
  mine.fill(-1);
  mine[0] = board.general[me];
  Threat<B> threat;
  for (int t = 0; t < kUnitTypes; ++t) threat[t] = flood(board, q, t, mine, turn_reach(t) + kThreatMargin, patterns);
  return threat;
}

// What an opponent's threat costs: its reach to the own general within a turn, or near it.
template <typename B>
long threat_cost(const Threat<B>& threat) {
  long cost = 0;
  int slack = kFar;
  for (int t = 0; t < kUnitTypes; ++t) {
    slack = std::min(slack, threat[t].distance[0] - turn_reach(t));
    cost += kTheirTarget * threat[t].targets_now;
  }
  return cost + (slack <= 0 ? kGeneralInDanger : kThreatStep * std::max(0, kThreatMargin + 1 - slack));
}

// The floods of `me` of each type towards the generals of the others.
template <typename B>
using Attack = std::array<Flood<B>, kUnitTypes>;

template <typename B>
std::array<int, kMaxPlayers> others_generals(const Board<B>& board, Player me, int players) {
  std::array<int, kMaxPlayers> generals{};
  generals.fill(-1);
  for (Player q = 0; q < players; ++q)
    if (q != me) generals[q] = board.general[q];
  return generals;
}

// How good `board` is for `me` as an attacker (its floods `attack`), with `left` sub-moves of
// each type still allowed this turn; the opponents still in are counted here, their threats apart.
template <typename B>
long attack_score(const Board<B>& board, Player me, int players, const std::array<int, kUnitTypes>& left,
                  const Attack<B>& attack) {
  long total = kOwnUnit * popcount(board.commanded[me]);
  std::array<bool, kMaxPlayers> killable{};
  for (int t = 0; t < kUnitTypes; ++t) {
    total += kOwnTarget * attack[t].targets_now;
    int nearest = kFar;
    for (Player q = 0; q < players; ++q) {
      if (q == me || board.general[q] < 0) continue;
      nearest = std::min(nearest, attack[t].distance[q]);
      if (attack[t].distance[q] <= left[t]) killable[q] = true;
      total -= kAttackTurnEach * std::min(attack[t].distance[q], kAttackLevels + 1) / turn_reach(t);
    }
    if (nearest < kFar) total -= kAttackTurn * nearest / turn_reach(t);
  }
  for (Player q = 0; q < players; ++q)
    if (q != me && board.general[q] >= 0) total += killable[q] ? kKillThisTurn - kOpponentIn : -kOpponentIn;
  return total;
}

class WarHeuristic final : public Bot {
 public:
  explicit WarHeuristic(std::uint64_t seed) : rng_(seed) {}

  Action act(const PlayerView& view) override {
    const std::unique_ptr<State> sampled = view.sample(rng_);  // a copy: no hidden information
    const auto& state = dynamic_cast<const WarState&>(*sampled);
    view.legal_actions(legal_);
    if (legal_.size() == 1) return legal_[0];
    return state.war().patterns().visit([&](const auto& patterns) {
      using B = typename std::decay_t<decltype(patterns)>::Set;
      return choose<B>(state, view.viewer(), patterns);
    });
  }

 private:
  template <typename B>
  Action choose(const WarState& state, Player me, const UnitPatterns<B>& patterns) {
    const WarGame& game = state.war();
    const int players = game.num_players(), cells = game.cells();
    const Board<B> board = read_board<B>(state, patterns);
    // The floods on the board as it stands. A sub-move changes a flood only where it looked,
    // or by a new source (a placement of its type, a unit brought back under command), or by a
    // kill of its player's unit: the others are kept.
    const std::array<int, kMaxPlayers> generals = others_generals(board, me, players);
    Attack<B> attack;
    for (int t = 0; t < kUnitTypes; ++t) attack[t] = flood(board, me, t, generals, kAttackLevels, patterns);
    std::array<Threat<B>, kMaxPlayers> threats{};
    long threats_now = 0;
    for (Player q = 0; q < players; ++q)
      if (q != me && board.general[q] >= 0) {
        threats[q] = threat_of(board, q, me, patterns);
        threats_now += threat_cost(threats[q]);
      }
    const TurnBudget used = state.budget();
    best_.clear();
    long best_score = 0;
    for (Action action : legal_) {
      if (action == game.end()) continue;
      const int type = action / cells, cell = action % cells;
      Board<B> after = board;
      const Player victim = play(after, me, players, cells, action, patterns);
      const bool sources = victim < 0 && !(after.commanded[me] == (board.commanded[me] | cell_bit<B>(cell)));
      Attack<B> attack_after = attack;
      for (int t = 0; t < kUnitTypes; ++t)
        if (victim >= 0 || sources || t == type || has_cell(attack[t].reached, cell))
          attack_after[t] = flood(after, me, t, others_generals(after, me, players), kAttackLevels, patterns);
      TurnBudget then = used;
      ++then.used[type];
      long s = attack_score(after, me, players, budget_left(then), attack_after);
      for (Player q = 0; q < players; ++q) {
        if (q == me || after.general[q] < 0) continue;
        bool changed = victim == q;
        for (const Flood<B>& f : threats[q]) changed = changed || has_cell(f.reached, cell);
        s -= changed ? threat_cost(threat_of(after, q, me, patterns)) : threat_cost(threats[q]);
      }
      if (best_.empty() || s > best_score) {
        best_.clear();
        best_score = s;
      }
      if (s == best_score) best_.push_back(action);
    }
    // `end` keeps the board as it stands, with nothing left of the turn: taken unless a
    // sub-move does better.
    const long stand = attack_score(board, me, players, std::array<int, kUnitTypes>{}, attack) - threats_now;
    if (best_.empty() || best_score <= stand) return game.end();
    return best_[rng_.below(static_cast<std::uint32_t>(best_.size()))];
  }

  Rng rng_;
  std::vector<Action> legal_, best_;  // kept between moves, so that their capacity is too
};

}  // namespace

std::unique_ptr<Bot> make_war_heuristic(const Game& game, std::uint64_t seed) {
  if (dynamic_cast<const WarGame*>(&game) == nullptr)
    throw InputError("the War heuristic player plays war, not " + game.to_string());
  return std::make_unique<WarHeuristic>(seed);
}

}  // namespace boardlab
