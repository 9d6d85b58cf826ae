// Stratego's heuristic reference player: a guarded setup drawn among many, then each move scored by what it can count on taking, the risk it runs and the ground it gains.
//
// It knows what its observation says (shared/rules/stratego.md, "What a player observes"):
// its own pieces, where the enemy pieces stand, the ranks combat or a long move revealed,
// which enemy pieces have moved, and how many of each rank are still unseen. An unknown
// piece's rank is guessed from those counts: one that has moved is no Bomb or Flag, and the
// unseen Bombs and Flag stand among the unmoved ones.
//
// Setup (stratego_heuristic_setup): the Flag on the back rank, likelier near a corner, where
// fewer squares need guarding; classic: a Bomb on each of its neighbours (two or three), the
// other Bombs mostly on the back two ranks; barrage: its one Bomb in front of the Flag, and
// beside it the Miner (on the side of the nearer edge) and a Scout, guards that stay there:
// the Miner beats a Scout that runs down a file or along the back rank onto the Flag (a
// Scout's raid is what finds a barrage Flag), and as unmoved pieces the guards hide which one
// is the Flag. The other pieces go by rank preferences per row: the strong pieces and the Spy
// in the middle ranks, Miners at the back (kept for the Bombs), Scouts in front (the probes).
// Each setup is drawn from these preferences, so no two games need start alike.
//
// Play: each legal move is scored, and the best taken (near-ties by the seeded generator):
//   - a strike on a known piece: what it wins or loses (rank values; the Flag wins outright);
//   - a strike on an unknown piece: the expected result over the guessed ranks, losses
//     weighed up the more valuable the attacker (cautious: the Marshal does not run into a
//     possible Bomb, a Scout gladly probes), plus a bonus for the rank it reveals and a
//     share of the Flag's worth for the chance that it is the Flag;
//   - the risk of the square it ends on (the worst an adjacent enemy piece could do to it next
//     move, known or guessed), against the risk of the square it leaves, and a share of the
//     best strike each square offers the piece next move;
//   - an enemy piece near the own Flag is worth more to strike, the nearer the more;
//   - a guard (a piece next to the own Flag) leaving its post costs, unless it strikes a
//     piece that came within two steps of the Flag;
//   - steps towards the nearest enemy piece that this piece would gladly strike (intruders
//     near the own Flag first), a little ground gained towards the enemy, and a penalty for
//     undoing its own last move.
// It never plays an illegal move: it chooses among its view's legal actions.
#include "games/stratego/stratego_heuristic.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "core/errors.h"
#include "games/stratego/board.h"
#include "games/stratego/stratego.h"

namespace boardlab {

using namespace stratego;

namespace {

constexpr int kSquares = StrategoGame::kSetupSquares;
constexpr int kNone = -1;
constexpr int kUnknown = -2;  // an enemy piece of a rank not known

// Observation planes (stratego.h).
constexpr int kEnemyKindPlane = 14, kEnemyPlane = 26, kEnemyMovedPlane = 27, kUnseenPlane = 30;
constexpr int kNextSetupPlane = 67;

constexpr double kWin = 1000;       // taking a known Flag
constexpr double kFlagHope = 20;    // what a strike on the Flag is worth, times its probability
constexpr double kReveal = 1.2;     // learning an enemy piece's rank
constexpr double kThreatChance = 0.8;   // that an enemy piece strikes when it can win
constexpr double kUnmovedThreat = 0.5;  // an unmoved piece strikes less often (and may be immobile)
constexpr double kApproach = 0.15;  // per step nearer to prey
constexpr double kAdvance = 0.02;   // per rank gained towards the enemy
constexpr double kBacktrack = 0.3;  // undoing the own last move
constexpr double kIntruder = 1.5;   // per step an enemy piece stands inside kGuardZone of the own Flag
constexpr int kGuardZone = 4;       // steps from the own Flag
constexpr double kGuardLeave = 8;   // a guard leaving the Flag's side (more than any escape)
constexpr int kIntruderPull = 3;    // steps nearer an intruder counts, per step inside kGuardZone
constexpr double kOpportunity = 0.25;  // of the best strike a square offers next move
constexpr int kFar = 1000;
constexpr double kTie = 1e-9;

// Row preferences of a setup (back rank first), in the order the pieces are placed.
struct RowWeights {
  int kind;
  std::array<double, 4> row;
};
constexpr RowWeights kClassicRows[] = {
    {kMarshal, {0, 1, 3, 3}},    {kGeneral, {0, 1, 3, 3}},    {kColonel, {0, 1, 3, 3}}, {kSpy, {1, 3, 2, 0.5}},
    {kMajor, {0, 2, 3, 2}},      {kBomb, {3, 3, 1.5, 0.2}},   {kMiner, {4, 3, 1, 0.5}}, {kCaptain, {1, 2, 2, 2}},
    {kLieutenant, {1, 2, 2, 2}}, {kSergeant, {1, 2, 2, 2}},   {kScout, {1, 1, 2, 4}},
};
constexpr RowWeights kBarrageRows[] = {
    {kMarshal, {0, 1, 3, 3}}, {kGeneral, {0, 1, 3, 3}}, {kSpy, {0, 2, 3, 1}}, {kMiner, {2, 3, 1, 0}},
    {kScout, {0, 0, 1, 3}},
};
// The Flag's file on the back rank: a corner needs the fewest guards.
constexpr std::array<double, kSide> kFlagFiles = {3, 2, 1, 1, 1, 1, 1, 1, 2, 3};

// Rank values: what a piece is worth to its side.
constexpr double kClassicValue[kKinds] = {3, 1, 2.5, 1.5, 2, 3, 4, 5.5, 7.5, 10, 0.5, kWin};
constexpr double kBarrageValue[kKinds] = {4, 1.5, 3.5, 1.5, 2, 3, 4, 5.5, 8, 10, 0.5, kWin};

// An index drawn with probability proportional to `weights` (all zero: uniformly).
int draw(std::span<const double> weights, Rng& rng) {
  double total = 0;
  for (double w : weights) total += w;
  if (total <= 0) return static_cast<int>(rng.below(static_cast<std::uint32_t>(weights.size())));
  return static_cast<int>(draw_index(rng, weights, total));
}

}  // namespace

std::array<std::int8_t, kSquares> stratego_heuristic_setup(bool barrage, Rng& rng) {
  std::array<std::int8_t, kSquares> setup;
  setup.fill(kNone);
  std::array<std::int8_t, kKinds> left = barrage ? kBarrageCounts : kClassicCounts;
  const auto put = [&](int square, int kind) {
    setup[square] = static_cast<std::int8_t>(kind);
    --left[kind];
  };
  const int flag = draw(kFlagFiles, rng);
  put(flag, kFlag);
  put(kSide + flag, kBomb);  // in front of it
  // Beside it: Bombs (classic), or the Miner and then a Scout (barrage's one Bomb is taken),
  // which stay there as guards (see StrategoHeuristic::score); the Miner on the side of the
  // nearer edge, whose file is the enemy Scouts' likelier road.
  int guard = 0;
  const int outer = flag < kSide / 2 ? flag - 1 : flag + 1, inner = flag < kSide / 2 ? flag + 1 : flag - 1;
  for (int side : {outer, inner}) {
    if (side < 0 || side >= kSide) continue;
    put(side, barrage ? (guard++ == 0 ? kMiner : kScout) : kBomb);
  }
  std::array<double, kSquares> weights;
  const std::span<const RowWeights> order = barrage ? std::span<const RowWeights>(kBarrageRows) : kClassicRows;
  for (const RowWeights& rows : order)
    while (left[rows.kind] > 0) {
      for (int i = 0; i < kSquares; ++i) weights[i] = setup[i] == kNone ? rows.row[i / kSide] : 0;
      if (std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0; }))
        for (int i = 0; i < kSquares; ++i) weights[i] = setup[i] == kNone;
      put(draw(weights, rng), rows.kind);
    }
  for (std::int8_t& square : setup)
    if (square == kNone) square = kNoPiece;  // barrage's empty squares
  return setup;
}

namespace {

int steps(int a, int b) { return std::abs(a % kSide - b % kSide) + std::abs(a / kSide - b / kSide); }

// What the player knows, on its own frame's cells (its back rank is rank 1, as for Red).
struct Knowledge {
  std::array<std::int8_t, kCells> mine{};   // own kind, or kNone
  std::array<std::int8_t, kCells> enemy{};  // enemy kind, kUnknown, or kNone
  std::array<bool, kCells> moved{};         // an enemy piece that has moved
  std::array<int, kKinds> unseen{};         // enemy pieces of each kind not taken and not known
  int unknown_unmoved = 0;
  int own_flag = kNone;
  bool enemy_marshal = false;  // still on the board
  bool own_marshal = false;
  std::array<double, kKinds> moved_guess{}, unmoved_guess{};  // the rank of an unknown piece
  std::array<double, kKinds> own_value{}, enemy_value{};
};

// The chances of each rank for an unknown enemy piece that has (not) moved.
std::array<double, kKinds> guess(const Knowledge& k, bool moved) {
  std::array<double, kKinds> p{};
  double movable = 0;
  for (int kind = 0; kind < kBomb; ++kind) movable += k.unseen[kind];
  double rest = 1;
  if (!moved) {
    const double n = std::max(1, k.unknown_unmoved);
    p[kBomb] = std::min(1.0, k.unseen[kBomb] / n);
    p[kFlag] = std::min(1.0 - p[kBomb], k.unseen[kFlag] / n);
    rest = 1 - p[kBomb] - p[kFlag];
  }
  if (movable > 0)
    for (int kind = 0; kind < kBomb; ++kind) p[kind] = rest * k.unseen[kind] / movable;
  return p;
}

Knowledge read_knowledge(std::span<const float> obs, const StrategoGame& game) {
  Knowledge k;
  const auto at = [&](int plane, int cell) { return obs[static_cast<std::size_t>(plane * kCells + cell)] > 0.5f; };
  for (int c = 0; c < kCells; ++c) {
    k.mine[c] = k.enemy[c] = kNone;
    for (int kind = 0; kind < kKinds; ++kind)
      if (at(kind, c)) k.mine[c] = static_cast<std::int8_t>(kind);
    if (at(kEnemyPlane, c)) k.enemy[c] = kUnknown;
    for (int kind = 0; kind < kKinds; ++kind)
      if (at(kEnemyKindPlane + kind, c)) k.enemy[c] = static_cast<std::int8_t>(kind);
    k.moved[c] = at(kEnemyMovedPlane, c);
    if (k.enemy[c] == kUnknown && !k.moved[c]) ++k.unknown_unmoved;
    k.own_marshal |= k.mine[c] == kMarshal;
    if (k.mine[c] == kFlag) k.own_flag = c;
    k.enemy_marshal |= k.enemy[c] == kMarshal;
  }
  for (int kind = 0; kind < kKinds; ++kind)
    k.unseen[kind] =
        static_cast<int>(obs[static_cast<std::size_t>((kUnseenPlane + kind) * kCells)] * game.counts()[kind] + 0.5f);
  k.enemy_marshal |= k.unseen[kMarshal] > 0;
  k.moved_guess = guess(k, true);
  k.unmoved_guess = guess(k, false);
  const double* values = game.barrage() ? kBarrageValue : kClassicValue;
  for (int kind = 0; kind < kKinds; ++kind) k.own_value[kind] = k.enemy_value[kind] = values[kind];
  // A Spy is worth its Marshal-killing only while there is a Marshal to kill.
  if (!k.enemy_marshal) k.own_value[kSpy] = 0.5;
  if (!k.own_marshal) k.enemy_value[kSpy] = 0.5;
  return k;
}

// What the own piece `m` striking an enemy piece of kind `e` wins (+) or loses (−).
double outcome(const Knowledge& k, int m, int e) {
  const int r = strike(m, e);
  return r > 0 ? k.enemy_value[e] : r == 0 ? k.enemy_value[e] - k.own_value[m] : -k.own_value[m];
}

// The expected result of `m` striking an unknown piece whose rank has chances `p`, with losses
// weighed up the more `m` is worth; and the chance that `m` survives on the square.
double unknown_strike(const Knowledge& k, int m, const std::array<double, kKinds>& p, double& survives) {
  const double caution = 1 + k.own_value[m] / 5;
  double ev = kReveal;
  survives = 0;
  for (int e = 0; e < kKinds; ++e) {
    if (p[e] <= 0) continue;
    if (strike(m, e) > 0) survives += p[e];
    if (e == kFlag) {
      ev += p[e] * kFlagHope;
      continue;
    }
    const double o = outcome(k, m, e);
    ev += p[e] * (o < 0 ? caution * o : o);
  }
  return ev;
}

// What taking the enemy piece on `cell` adds for keeping it away from the own Flag.
double intrusion(const Knowledge& k, int cell) {
  return k.own_flag == kNone ? 0 : kIntruder * std::max(0, kGuardZone - steps(cell, k.own_flag));
}

// The worst an enemy piece next to `cell` could do to the own piece `m` there on its next move.
double danger(const Knowledge& k, int cell, int m) {
  double worst = 0;
  for (int d = 0; d < kDirs; ++d) {
    const int n = kNeighbours.next[cell][d];
    if (n < 0 || k.enemy[n] == kNone) continue;
    const int e = k.enemy[n];
    double loss = 0;
    if (e >= 0) {
      if (!is_mobile(e)) continue;
      const int r = strike(e, m);
      loss = r > 0 ? k.own_value[m] : r == 0 ? std::max(0.0, k.own_value[m] - k.enemy_value[e]) : 0;
    } else {
      const auto& p = k.moved[n] ? k.moved_guess : k.unmoved_guess;
      for (int kind = 0; kind < kBomb; ++kind)
        if (strike(kind, m) > 0) loss += p[kind] * k.own_value[m];
      if (!k.moved[n]) loss *= kUnmovedThreat;
    }
    worst = std::max(worst, loss);
  }
  return kThreatChance * worst;
}

class StrategoHeuristic final : public Bot {
 public:
  explicit StrategoHeuristic(std::uint64_t seed) : rng_(seed) {}

  Action act(const PlayerView& view) override {
    const auto& game = dynamic_cast<const StrategoGame&>(view.game());
    obs_.resize(static_cast<std::size_t>(game.observation_shape().size()));
    view.observation(obs_);
    view.legal_actions(legal_);
    if (legal_[0] < StrategoGame::kMoveBase) return set_up(game.barrage());
    if (legal_.size() == 1) return legal_[0];
    return move(view.viewer(), game);
  }

  void restart() override {
    planned_ = false;
    last_from_ = last_to_ = kNone;
  }

 private:
  // The next square of the own setup plan, drawn afresh when a setup begins.
  Action set_up(bool barrage) {
    int square = 0;
    for (int c = 0; c < kSquares; ++c)
      if (obs_[static_cast<std::size_t>(kNextSetupPlane * kCells + c)] > 0.5f) square = c;
    if (square == 0 || !planned_) {
      plan_ = stratego_heuristic_setup(barrage, rng_);
      planned_ = true;
    }
    const Action want = plan_[static_cast<std::size_t>(square)];
    if (std::find(legal_.begin(), legal_.end(), want) != legal_.end()) return want;
    return legal_[rng_.below(static_cast<std::uint32_t>(legal_.size()))];  // a setup begun without the plan
  }

  Action move(Player me, const StrategoGame& game) {
    const Knowledge k = read_knowledge(obs_, game);
    for (int m = 0; m < kBomb; ++m)
      for (int moved : {0, 1})
        unknown_ev_[m][moved] = unknown_strike(k, m, moved ? k.moved_guess : k.unmoved_guess, survives_[m][moved]);
    best_.clear();
    double best_score = 0;
    for (Action action : legal_) {
      const auto [from, to] = squares_of(game.action_to_view(me, action));
      const double s = score(k, from, to);
      if (best_.empty() || s > best_score + kTie) {
        best_.clear();
        best_score = s;
      }
      if (s >= best_score - kTie) best_.push_back(action);
    }
    const Action chosen = best_[rng_.below(static_cast<std::uint32_t>(best_.size()))];
    std::tie(last_from_, last_to_) = squares_of(game.action_to_view(me, chosen));
    return chosen;
  }

  static std::pair<int, int> squares_of(Action move) {
    const StrategoGame::Move m = StrategoGame::move_of(move);
    return {m.from, m.to()};
  }

  double score(const Knowledge& k, int from, int to) const {
    const int m = k.mine[from], e = k.enemy[to];
    if (e == kFlag) return kWin;
    double s = 0, stays = 1;
    if (e >= 0) {
      s += outcome(k, m, e);
      stays = strike(m, e) > 0;
    } else if (e == kUnknown) {
      s += unknown_ev_[m][k.moved[to]];
      stays = survives_[m][k.moved[to]];
    }
    if (e != kNone) s += stays * intrusion(k, to);
    // A guard leaves the Flag's side only to strike a piece that came close to it.
    const bool guards = k.own_flag != kNone && steps(from, k.own_flag) == 1;
    if (guards && steps(to, k.own_flag) != 1 && (e == kNone || steps(to, k.own_flag) > 2)) s -= kGuardLeave;
    s += danger(k, from, m) - stays * danger(k, to, m);
    s += kOpportunity * (stays * opportunity(k, to, m, to) - opportunity(k, from, m, to));
    if (e == kNone) {  // a strike is valued by its result, a move by the prey it nears
      const int before = prey_distance(k, from, m), after = prey_distance(k, to, m);
      if (before != kFar && after != kFar) s += kApproach * (before - after);
    }
    s += kAdvance * (to / kSide - from / kSide);
    if (from == last_to_ && to == last_from_) s -= kBacktrack;
    return s;
  }

  // What the own piece `m` could win striking the enemy piece on `cell` (kNone-free: an enemy
  // stands there), intrusion included.
  double strike_value(const Knowledge& k, int m, int cell) const {
    const int e = k.enemy[cell];
    if (e == kFlag) return kWin;
    if (e == kUnknown) return unknown_ev_[m][k.moved[cell]] + survives_[m][k.moved[cell]] * intrusion(k, cell);
    return outcome(k, m, e) + (strike(m, e) > 0 ? intrusion(k, cell) : 0);
  }

  // The best the own piece `m` on `cell` could win striking an adjacent enemy piece next move,
  // other than the one on `struck` (taken now, if this move strikes).
  double opportunity(const Knowledge& k, int cell, int m, int struck) const {
    double best = 0;
    for (int d = 0; d < kDirs; ++d) {
      const int n = kNeighbours.next[cell][d];
      if (n >= 0 && n != struck && k.enemy[n] != kNone) best = std::max(best, strike_value(k, m, n));
    }
    return best;
  }

  // Steps from `cell` to the nearest enemy piece that the own piece `m` would gladly strike, or
  // kFar; an intruder near the own Flag counts as kIntruderPull steps nearer per step inside the
  // guard zone, so that defenders turn to it first.
  int prey_distance(const Knowledge& k, int cell, int m) const {
    int nearest = kFar;
    for (int c = 0; c < kCells; ++c) {
      if (k.enemy[c] == kNone || strike_value(k, m, c) <= 0) continue;
      const int inside = k.own_flag == kNone ? 0 : std::max(0, kGuardZone - steps(c, k.own_flag));
      nearest = std::min(nearest, steps(cell, c) - kIntruderPull * inside);
    }
    return nearest;
  }

  Rng rng_;
  std::vector<float> obs_;
  std::vector<Action> legal_, best_;  // kept between moves, so that their capacity is too
  std::array<std::int8_t, kSquares> plan_{};
  bool planned_ = false;
  int last_from_ = kNone, last_to_ = kNone;  // the own last move, on the own frame
  // Per own kind, striking an unknown unmoved / moved piece: the expected result (unknown_strike)
  // and the chance of taking its square.
  std::array<std::array<double, 2>, kBomb> unknown_ev_{}, survives_{};
};

}  // namespace

std::unique_ptr<Bot> make_stratego_heuristic(const Game& game, std::uint64_t seed) {
  if (dynamic_cast<const StrategoGame*>(&game) == nullptr)
    throw InputError("the Stratego heuristic player plays stratego, not " + game.to_string());
  return std::make_unique<StrategoHeuristic>(seed);
}

}  // namespace boardlab
