// Tests for deals weighted by the other seats' moves: Bayes' rule at Kuhn poker, the window, and a search that reads a bet.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "games/registry.h"
#include "mcts/deal_belief.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "tests/mcts/search_test_util.h"

namespace boardlab {
namespace {

constexpr Action kJack = 0, kQueen = 1, kKing = 2;
constexpr Action kPass = 0, kBet = 1;

// Player 0 of Kuhn poker as an honest bettor: it bets 90% of the time with the king and
// 10% with the jack (its card is the deal's first step). Player 1 is uniform; values are 0.
void honest_bettor(const State& s, std::span<const Action> legal, Evaluation& eval) {
  eval.value = {0.0f, 0.0f};
  eval.prior.assign(legal.size(), 1.0f);
  if (s.current_player() != 0 || legal.size() != 2) return;
  const bool king = s.history()[0].action == kKing;
  eval.prior = {king ? 0.1f : 0.9f, king ? 0.9f : 0.1f};
}

// Player 1 holds the queen and faces player 0's bet.
std::unique_ptr<State> queen_facing_a_bet(const Game& kuhn) {
  auto state = kuhn.new_initial_state();
  state->apply(kKing);
  state->apply(kQueen);
  state->apply(kBet);
  return state;
}

std::vector<Evaluation> answer(std::span<const EvalRequest> requests) {
  std::vector<Evaluation> evals(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) honest_bettor(*requests[i].state, requests[i].legal, evals[i]);
  return evals;
}

// Player 1's belief, `deals` deals drawn with `seed`, as the queen faces the bet.
class QueenFacingABet : public ::testing::Test {
 protected:
  void start(int deals, std::uint64_t seed) {
    rng.reseed(seed);
    belief.start(PlayerView(*state, 1), deals, 0, rng);
  }
  std::shared_ptr<const Game> kuhn = load_game("kuhn_poker");
  std::unique_ptr<State> state = queen_facing_a_bet(*kuhn);
  DealBelief belief;
  Rng rng{0};
};

TEST_F(QueenFacingABet, WeighsEachDealByTheLikelihoodOfTheBetInIt) {
  start(64, 5);
  ASSERT_EQ(belief.size(), 64);
  ASSERT_EQ(belief.requests().size(), 64u);  // one decision of player 0 in each deal
  const std::vector<Evaluation> evals = answer(belief.requests());
  belief.weigh(evals, 0.0f);
  int kings = 0;
  double king_weight = 0;
  for (int d = 0; d < belief.size(); ++d) {
    ASSERT_EQ(belief.deal(d).history()[1].action, kQueen);  // the viewer's own card is never redrawn
    const bool king = belief.deal(d).history()[0].action == kKing;
    EXPECT_NE(belief.deal(d).history()[0].action, kQueen);
    kings += king;
    if (king) king_weight += belief.weights()[d];
  }
  ASSERT_GT(kings, 10);
  ASSERT_LT(kings, 54);
  // Bayes' rule over the drawn deals: each king deal weighs 0.9, each jack deal 0.1.
  const double expected = 0.9 * kings / (0.9 * kings + 0.1 * (64 - kings));
  EXPECT_NEAR(king_weight, expected, 1e-6);  // the priors are floats
  EXPECT_LT(belief.effective_deals(), 60.0);
  // Drawing follows the weights.
  int drawn_kings = 0;
  for (int i = 0; i < 4000; ++i) drawn_kings += belief.draw(rng)->history()[0].action == kKing;
  EXPECT_NEAR(drawn_kings / 4000.0, expected, 0.03);
}

TEST_F(QueenFacingABet, AFloorKeepsAnImpossibleMoveFromRulingADealOut) {
  start(32, 6);
  std::vector<Evaluation> evals = answer(belief.requests());
  for (std::size_t i = 0; i < evals.size(); ++i)  // a model sure that the jack never bets
    if (belief.requests()[i].state->history()[0].action == kJack) evals[i].prior = {1.0f, 0.0f};
  belief.weigh(evals, 0.2f);
  for (int d = 0; d < belief.size(); ++d) EXPECT_GT(belief.weights()[d], 0.0);
  belief.weigh(evals, 0.0f);
  for (int d = 0; d < belief.size(); ++d) {
    if (belief.deal(d).history()[0].action == kJack) {
      EXPECT_EQ(belief.weights()[d], 0.0);
    }
  }
}

TEST(DealBelief, TheWindowKeepsTheOtherSeatsLastDecisions) {
  // Leduc hold'em: Js to player 0, Ks to player 1; check, bet, call; Qs public; check, bet.
  // Player 0 has seen two decisions of player 1.
  const auto leduc = load_game("leduc_poker");
  auto state = leduc->new_initial_state();
  for (Action a : {0, 4, 1, 2, 1, 2, 1, 2}) state->apply(a);
  const PlayerView view(*state, 0);
  DealBelief all, last;
  Rng rng(7);
  all.start(view, 8, 0, rng);
  last.start(view, 8, 1, rng);
  EXPECT_EQ(all.requests().size(), 16u);
  ASSERT_EQ(last.requests().size(), 8u);
  for (const EvalRequest& request : last.requests()) {
    EXPECT_EQ(request.player, 1);
    EXPECT_EQ(request.state->history().size(), state->history().size() - 1);  // before the second bet
  }
}

TEST(DealBelief, NoDecisionOfAnotherSeatLeavesEveryDealEqual) {
  const auto kuhn = load_game("kuhn_poker");
  auto state = kuhn->new_initial_state();
  state->apply(kKing);
  state->apply(kQueen);
  DealBelief belief;
  Rng rng(8);
  belief.start(PlayerView(*state, 0), 16, 0, rng);
  EXPECT_TRUE(belief.requests().empty());
  EXPECT_NEAR(belief.effective_deals(), 16.0, 1e-9);
}

TEST(DealBelief, SearchWithWeightedDealsFoldsTheQueenToAnHonestBet) {
  // Calling with the queen wins 2 against the jack and loses 2 against the king; folding
  // loses 1. Uniform deals make the call worth 0, so information-set search calls. The
  // honest bettor's bet makes the king about 6 times as likely as the jack (0.86 against
  // 0.14 with the floor of 0.1), the call worth -1.44, and the weighted search folds.
  const auto kuhn = load_game("kuhn_poker");
  const auto state = queen_facing_a_bet(*kuhn);
  FunctionEvaluator evaluator(honest_bettor);
  for (int deals : {0, 64}) {
    SCOPED_TRACE(deals);
    SearchConfig config;
    config.simulations = 400;
    config.belief_deals = deals;
    Search search(*kuhn, config, 9);
    const SearchResult result = search_from(search, PlayerView(*state, 1), evaluator);
    EXPECT_EQ(result.action, deals > 0 ? kPass : kBet);
    EXPECT_EQ(result.simulations, 400);
  }
}

}  // namespace
}  // namespace boardlab
