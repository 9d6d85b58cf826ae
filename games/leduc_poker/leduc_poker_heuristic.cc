// Leduc hold'em's heuristic reference player: raises strong hands, calls middling ones, folds the rest.
//
// A rule player from the rules alone (games/leduc_poker/RULES.md), for the ladder's top where
// rollout UCT plays near random (it samples the hidden card uniformly and learns little from
// the betting). Strength is what the showdown rewards: a pair with the public card beats any
// unpaired hand, and otherwise the higher rank wins.
// - First round: K raises (calls when no raise is left), Q calls, J checks and folds to a bet.
// - Second round: a pair raises (or calls); K, or Q over a public J, calls; anything else
//   checks and folds to a bet.
// It is deterministic (the deal varies the games) and, like any pure strategy, exploitable:
// it never bluffs, so a best response folds to its raises; the exact figure is in its tests.
#include "games/leduc_poker/leduc_poker_heuristic.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/errors.h"

namespace boardlab {
namespace {

constexpr int kObservationSize = 30;
constexpr int kDeck = 6;
constexpr int kJack = 0, kQueen = 1, kKing = 2;  // ranks
constexpr Action kFold = 0, kCall = 1, kRaise = 2;

// The rank (0 J, 1 Q, 2 K) of the one-hot card at `first`, or -1 when none is set.
int rank_at(std::span<const float> observation, int first) {
  for (int c = 0; c < kDeck; ++c)
    if (observation[first + c] > 0.5f) return c / 2;
  return -1;
}

bool has(std::span<const Action> legal, Action a) { return std::find(legal.begin(), legal.end(), a) != legal.end(); }

class LeducHeuristicBot final : public Bot {
 public:
  Action act(const PlayerView& view) override {
    view.observation(observation_);
    view.legal_actions(legal_);
    return leduc_heuristic_action(observation_, legal_);
  }

 private:
  std::array<float, kObservationSize> observation_{};
  std::vector<Action> legal_;
};

}  // namespace

Action leduc_heuristic_action(std::span<const float> observation, std::span<const Action> legal) {
  if (observation.size() != kObservationSize)
    throw InputError("leduc_heuristic_action: a Leduc observation has 30 floats, got " +
                     std::to_string(observation.size()));
  const int own = rank_at(observation, 2);
  if (own < 0 || !has(legal, kCall)) throw InputError("leduc_heuristic_action: no decision of a dealt player to make");
  const int board = rank_at(observation, 2 + kDeck);
  const bool strong = board < 0 ? own == kKing : own == board;
  const bool middling = board < 0 ? own == kQueen : own == kKing || (own == kQueen && board == kJack);
  if (strong) return has(legal, kRaise) ? kRaise : kCall;
  if (middling || !has(legal, kFold)) return kCall;
  return kFold;
}

std::unique_ptr<Bot> make_leduc_poker_heuristic(const Game& game, std::uint64_t /*seed*/) {
  if (game.name() != "leduc_poker")
    throw InputError("the Leduc poker heuristic player plays leduc_poker, not " + game.to_string());
  return std::make_unique<LeducHeuristicBot>();
}

}  // namespace boardlab
