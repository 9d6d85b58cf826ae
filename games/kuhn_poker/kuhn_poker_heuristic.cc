// Kuhn poker's heuristic reference player: Kuhn's equilibrium with alpha = 1/3, written from the rules.
//
// Kuhn (1950) solved the game whole, so its "heuristic" is exact: every member of the
// equilibrium family is unexploitable, and the one with alpha = 1/3 (player 0 bluffs J a third
// of the time and always bets K) wins the most hands from a player who bets and calls at
// random, which is what the ladder's lower rungs (random and rollout UCT) do. A rung that is an
// equilibrium also gives the ladder a top that no agent can beat in expectation: an agent's
// rating above it is a win rate, not chips, and the exact exploitability says the rest.
//
// Player 0: bets K always, J with 1/3, passes Q; after pass-bet calls with K always, with Q
//   2/3 (alpha + 1/3), folds J.
// Player 1: after a pass bets K always, J with 1/3, passes Q; facing a bet calls with K
//   always, with Q 1/3, folds J.
#include "games/kuhn_poker/kuhn_poker_heuristic.h"

#include <algorithm>
#include <string>

#include "core/errors.h"
#include "core/rng.h"

namespace boardlab {
namespace {

constexpr int kObservationSize = 11;

// The chance of a bet at each card: opening (player 0's first step or player 1 after a pass),
// and facing a bet (a call).
constexpr std::array<double, 3> kOpenBet = {1.0 / 3, 0.0, 1.0};
constexpr std::array<double, 3> kCallAsFirst = {0.0, 2.0 / 3, 1.0};
constexpr std::array<double, 3> kCallAsSecond = {0.0, 1.0 / 3, 1.0};

class KuhnHeuristicBot final : public Bot {
 public:
  explicit KuhnHeuristicBot(std::uint64_t seed) : rng_(seed) {}
  Action act(const PlayerView& view) override {
    std::array<float, kObservationSize> observation{};
    view.observation(observation);
    return rng_.uniform() < kuhn_heuristic_policy(observation)[1] ? 1 : 0;
  }

 private:
  Rng rng_;
};

}  // namespace

std::array<double, 2> kuhn_heuristic_policy(std::span<const float> observation) {
  if (observation.size() != kObservationSize)
    throw InputError("kuhn_heuristic_policy: a Kuhn observation has 11 floats, got " +
                     std::to_string(observation.size()));
  const int seat = observation[1] > 0.5f ? 1 : 0;
  const auto card_it = std::max_element(observation.begin() + 2, observation.begin() + 5);
  if (*card_it < 0.5f) throw InputError("kuhn_heuristic_policy: the observation holds no card");
  const int card = static_cast<int>(card_it - (observation.begin() + 2));
  // The last step of the betting so far (pass or bet); a player acts facing a bet only after one.
  bool facing_bet = false;
  for (int i = 0; i < 3 && observation[5 + 2 * i] + observation[6 + 2 * i] > 0.5f; ++i)
    facing_bet = observation[6 + 2 * i] > 0.5f;
  const double bet = !facing_bet   ? kOpenBet[card]
                     : seat == 0   ? kCallAsFirst[card]
                                   : kCallAsSecond[card];
  return {1.0 - bet, bet};
}

std::unique_ptr<Bot> make_kuhn_poker_heuristic(const Game& game, std::uint64_t seed) {
  if (game.name() != "kuhn_poker")
    throw InputError("the Kuhn poker heuristic player plays kuhn_poker, not " + game.to_string());
  return std::make_unique<KuhnHeuristicBot>(seed);
}

}  // namespace boardlab
