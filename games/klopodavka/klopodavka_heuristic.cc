// Klopodavka's heuristic reference player: each sub-move the one whose board scores best for the main bugs' race.
//
// A player is out when its main bug is killed (shared/rules/klopodavka.md), so the game is a
// race between reaching the others' main bugs and keeping them from reaching one's own. The
// measure of both is a distance: the sub-moves player p needs to kill the bug on cell x, a
// breadth-first flood from p's conductors (its live bugs and the chains of cells it killed
// that touch them), where every empty cell or another player's live bug costs one sub-move
// (p plays it and it conducts: a placed bug, or a cell p killed), p's own killed cells that
// the flood touches cost nothing (they join its chains), and cells killed by anyone else are
// walls. Each sub-move is scored on the board it leaves:
//   - every opponent still in costs a great deal (a kill of a main bug is taken at once);
//   - an opponent that could kill the own main bug in its next turn (distance ≤ sub-moves per
//     turn) costs nearly as much, and a closer one a little more than a farther one: killing
//     the bugs that bring it near turns them into walls for it (cells the player killed);
//   - a main bug the player can still kill this turn (distance ≤ its sub-moves left) is worth
//     almost as much as the kill, and the nearest main bug's distance costs, so each sub-move
//     walks the shortest path to it;
//   - the player's targets (cells it could play next) count a little, the opponents' a little less.
// Ties go to the seeded generator. The player passes only when it must: a placement or a kill
// never shortens anyone's path to its main bug (its own bugs cost an opponent a sub-move each,
// as empty cells do).
//
// Cost: a few floods of bitboard dilations per legal sub-move, well under a millisecond on 20×20.
#include "games/klopodavka/klopodavka_heuristic.h"

#include <algorithm>
#include <array>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/errors.h"
#include "games/klopodavka/klopodavka.h"
#include "games/sub_move_grid/grid_bits.h"
#include "games/sub_move_grid/reach.h"

namespace boardlab {
namespace {

constexpr int kMaxPlayers = KlopodavkaGame::kMaxPlayers;
constexpr long kOpponentIn = 1'000'000;   // per opponent still in
constexpr long kKillThisTurn = 500'000;   // per main bug the player can still kill this turn
constexpr long kMainInDanger = 100'000;   // per opponent that could kill the own main bug next turn
constexpr long kThreatStep = 300;         // per sub-move an opponent is nearer than 3 turns
constexpr long kAttackStep = 200;         // per sub-move to the nearest main bug
constexpr long kAttackStepEach = 50;      // per sub-move to each main bug
constexpr long kOwnTarget = 10;           // per cell the player could play
constexpr long kTheirTarget = 3;          // per cell an opponent could play

// The board as the player models it: enough to play sub-moves and measure distances.
template <typename B>
struct Board {
  std::array<B, kMaxPlayers> live{};    // bugs, main bugs and inert ones included
  std::array<B, kMaxPlayers> killed{};  // the cells each player killed
  std::array<int, kMaxPlayers> main{};  // -1 once out
  B all_killed{};
};

template <typename B>
Board<B> read_board(const KlopodavkaState& state) {
  Board<B> board;
  const int players = state.game().num_players();
  for (int c = 0; c < state.klopodavka().cells(); ++c) {
    const KlopodavkaState::CellView cell = state.cell(c);
    if (cell.content == KlopodavkaState::Content::kEmpty) continue;
    if (cell.content == KlopodavkaState::Content::kKilled) board.killed[cell.owner] |= cell_bit<B>(c);
    else board.live[cell.owner] |= cell_bit<B>(c);
  }
  for (Player p = 0; p < players; ++p) {
    board.main[p] = state.main_bug(p);
    board.all_killed |= board.killed[p];
  }
  return board;
}

// Plays `me`'s sub-move `action` (a cell, a crowning or the pass) on the model.
template <typename B>
void play(Board<B>& board, Player me, int players, int cells, Action action) {
  if (action >= 2 * cells) return;  // the pass
  const int c = action % cells;
  const B bit = cell_bit<B>(c);
  for (Player q = 0; q < players; ++q)
    if (q != me && has_cell(board.live[q], c)) {
      board.live[q] = board.live[q] & ~bit;
      board.killed[me] |= bit;
      board.all_killed |= bit;
      if (board.main[q] == c) board.main[q] = -1;
      return;
    }
  board.live[me] |= bit;
  if (action >= cells) board.main[me] = c;  // a revolution
}

// The sub-moves p needs to kill the bug on each cell of `targets` (kFar beyond `limit`).
template <typename B>
class Distances {
 public:
  static constexpr int kFar = 1000;

  // Floods from p's conductors until every target is found or `limit` sub-moves.
  Distances(const Board<B>& board, Player p, const std::array<int, kMaxPlayers>& targets, int limit,
            const Grid<B>& grid) {
    distance_.fill(kFar);
    const B own_killed = board.killed[p];
    const B playable = grid.all & ~board.all_killed & ~board.live[p];
    B conductors = board.live[p] | conducting_chains(board.live[p], own_killed, grid);
    int left = 0;
    for (int t : targets) left += t >= 0;
    for (int step = 1; step <= limit && left > 0; ++step) {
      const B reach = dilate(conductors, grid) & playable & ~conductors;
      if (step == 1) first_ = popcount(reach);
      for (std::size_t i = 0; i < targets.size(); ++i)
        if (targets[i] >= 0 && distance_[i] == kFar && has_cell(reach, targets[i])) {
          distance_[i] = step;
          --left;
        }
      if (!any(reach)) break;
      const B grown = conductors | reach;
      conductors = grown | conducting_chains(grown, own_killed, grid);
    }
  }
  int to(std::size_t i) const { return distance_[i]; }
  // The cells p could play now (computed when a target was asked for).
  int targets_now() const { return first_; }

 private:
  std::array<int, kMaxPlayers> distance_{};
  int first_ = 0;
};

// How good `board` is for `me`, with `left` sub-moves still to make in this turn.
template <typename B>
long score(const Board<B>& board, Player me, int players, int submoves, int left, const Grid<B>& grid) {
  long total = 0;
  std::array<int, kMaxPlayers> mains{}, mine{};
  mains.fill(-1);
  mine.fill(-1);
  mine[0] = board.main[me];
  for (Player q = 0; q < players; ++q)
    if (q != me && board.main[q] >= 0) mains[q] = board.main[q];
  const Distances<B> attack(board, me, mains, 4 * submoves, grid);
  total += kOwnTarget * attack.targets_now();
  int nearest = Distances<B>::kFar;
  for (Player q = 0; q < players; ++q) {
    if (q == me || board.main[q] < 0) continue;
    total -= kOpponentIn;
    const int a = std::min(attack.to(q), 4 * submoves + 1);
    if (a <= left) total += kKillThisTurn;
    nearest = std::min(nearest, a);
    total -= kAttackStepEach * a;
    const Distances<B> threat(board, q, mine, 3 * submoves, grid);
    const int d = threat.to(0);
    if (d <= submoves) total -= kMainInDanger;
    total -= kThreatStep * std::max(0, 3 * submoves + 1 - d);
    total -= kTheirTarget * threat.targets_now();
  }
  if (nearest < Distances<B>::kFar) total -= kAttackStep * nearest;
  return total;
}

class KlopodavkaHeuristic final : public Bot {
 public:
  explicit KlopodavkaHeuristic(std::uint64_t seed) : rng_(seed) {}

  Action act(const PlayerView& view) override {
    const std::unique_ptr<State> sampled = view.sample(rng_);  // a copy: no hidden information
    const auto& state = dynamic_cast<const KlopodavkaState&>(*sampled);
    view.legal_actions(legal_);
    if (legal_.size() == 1) return legal_[0];
    return state.klopodavka().grids().visit([&](const auto& grid) {
      using B = typename std::decay_t<decltype(grid)>::Set;
      return choose<B>(state, view.viewer(), grid);
    });
  }

 private:
  template <typename B>
  Action choose(const KlopodavkaState& state, Player me, const Grid<B>& grid) {
    const KlopodavkaGame& game = state.klopodavka();
    const int players = game.num_players(), cells = game.cells();
    const int left = game.submoves() - state.sub_move() - 1;
    const Board<B> board = read_board<B>(state);
    best_.clear();
    long best_score = 0;
    for (Action action : legal_) {
      if (action == game.pass()) continue;  // never better than a sub-move (see the header)
      Board<B> after = board;
      play(after, me, players, cells, action);
      const long s = score(after, me, players, game.submoves(), left, grid);
      if (best_.empty() || s > best_score) {
        best_.clear();
        best_score = s;
      }
      if (s == best_score) best_.push_back(action);
    }
    if (best_.empty()) return game.pass();
    return best_[rng_.below(static_cast<std::uint32_t>(best_.size()))];
  }

  Rng rng_;
  std::vector<Action> legal_, best_;  // kept between moves, so that their capacity is too
};

}  // namespace

std::unique_ptr<Bot> make_klopodavka_heuristic(const Game& game, std::uint64_t seed) {
  if (dynamic_cast<const KlopodavkaGame*>(&game) == nullptr)
    throw InputError("the Klopodavka heuristic player plays klopodavka, not " + game.to_string());
  return std::make_unique<KlopodavkaHeuristic>(seed);
}

}  // namespace boardlab
