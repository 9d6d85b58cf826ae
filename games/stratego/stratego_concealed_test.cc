// Stratego's setup as a concealed choice (PlayerView::choice_concealed) and searches that draw it from a policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "core/player_view.h"
#include "games/registry.h"
#include "mcts/search.h"
#include "tests/mcts/search_test_util.h"

namespace boardlab {
namespace {

// A prior that rises along the legal list (legal[i] gets weight i + 1, unnormalized), and
// value 0: a search's visits would not follow it, a draw from it must.
class SlopedPrior final : public Evaluator {
 public:
  void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override {
    for (std::size_t r = 0; r < requests.size(); ++r) {
      out[r].prior.resize(requests[r].legal.size());
      for (std::size_t i = 0; i < out[r].prior.size(); ++i) out[r].prior[i] = static_cast<float>(i + 1);
      out[r].value.assign(2, 0.0f);
      ++calls;
    }
  }
  int calls = 0;
};

SearchConfig concealed_policy_config() {
  SearchConfig config;
  config.algorithm = SearchAlgorithm::kGumbel;
  config.simulations = 16;
  config.concealed_moves = ConcealedMoves::kPolicy;
  return config;
}

TEST(StrategoConcealed, TheSetupIsConcealedAndTheMovesAreNot) {
  std::shared_ptr<const Game> game = load_game("stratego(variant=barrage)");
  std::unique_ptr<State> state = game->new_initial_state();
  EXPECT_TRUE(PlayerView::of_mover(*state).choice_concealed());  // Red's first square: `?` or `.` to Blue
  EXPECT_FALSE(PlayerView(*state, 1).choice_concealed());        // Blue does not act
  Rng rng(3);
  while (state->move_number() < 2 && !state->is_terminal()) state->apply(state->random_legal_action(rng));
  ASSERT_FALSE(state->is_terminal());
  // Both sides have set up: every move and strike is shown to both as it is.
  EXPECT_FALSE(PlayerView::of_mover(*state).choice_concealed());
}

// Draws a setup step 4,000 times at concealed_temperature T: each must come from the sloped
// prior raised to 1/T, one evaluator call each and no search, and the policy must be that
// distribution.
void expect_setup_steps_drawn_at(float temperature) {
  SCOPED_TRACE(temperature);
  std::shared_ptr<const Game> game = load_game("stratego(variant=barrage)");
  std::unique_ptr<State> state = game->new_initial_state();
  const PlayerView view = PlayerView::of_mover(*state);
  const std::vector<Action> legal = view.legal_actions();
  const std::size_t n = legal.size();
  std::vector<double> expected(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double weight = static_cast<double>(k + 1);
    expected[k] = temperature > 0 ? std::pow(weight, 1.0 / temperature) : (k + 1 == n ? 1.0 : 0.0);
  }
  double total = 0;
  for (double w : expected) total += w;
  for (double& w : expected) w /= total;
  SearchConfig config = concealed_policy_config();
  config.concealed_temperature = temperature;
  Search search(*game, config, 7);
  SlopedPrior evaluator;
  std::vector<int> drawn(n, 0);
  constexpr int kDraws = 4000;
  for (int i = 0; i < kDraws; ++i) {
    const SearchResult result = search_from(search, view, evaluator);
    ASSERT_TRUE(result.concealed);
    ASSERT_EQ(result.legal, legal);
    for (std::size_t k = 0; k < n; ++k) ASSERT_NEAR(result.policy[k], expected[k], 1e-6);
    ++drawn[static_cast<std::size_t>(std::find(legal.begin(), legal.end(), result.action) - legal.begin())];
  }
  EXPECT_EQ(evaluator.calls, kDraws);  // the root's evaluation alone
  for (std::size_t k = 0; k < n; ++k) {
    const double sd = std::sqrt(kDraws * expected[k] * (1 - expected[k]));
    EXPECT_NEAR(drawn[k], kDraws * expected[k], 4 * sd + 1e-9) << "action " << legal[k];
  }
}

TEST(StrategoConcealed, ASetupStepIsDrawnFromThePriorWithoutASearch) { expect_setup_steps_drawn_at(1.0f); }

TEST(StrategoConcealed, ALowerTemperatureDrawsFromASharperPriorAndZeroFromItsLikeliest) {
  expect_setup_steps_drawn_at(0.5f);
  expect_setup_steps_drawn_at(0.0f);
}

// search_mixed: every setup step gets the whole search, and the step played is drawn from the
// search's policy rather than its most visited choice. With every value 0 Gumbel's improved
// policy is the prior itself, so the draws must follow the sloped prior.
TEST(StrategoConcealed, SearchMixedSearchesASetupStepAndDrawsFromTheSearchsPolicy) {
  std::shared_ptr<const Game> game = load_game("stratego(variant=barrage)");
  std::unique_ptr<State> state = game->new_initial_state();
  const PlayerView view = PlayerView::of_mover(*state);
  const std::vector<Action> legal = view.legal_actions();
  const std::size_t n = legal.size();
  SearchConfig config = concealed_policy_config();
  config.concealed_moves = ConcealedMoves::kSearchMixed;
  config.gumbel_scale = 0;  // as players search: Gumbel's own choice would be the likeliest action
  Search search(*game, config, 7);
  SlopedPrior evaluator;
  std::vector<int> drawn(n, 0);
  constexpr int kDraws = 1500;
  const double total = static_cast<double>(n * (n + 1) / 2);
  for (int i = 0; i < kDraws; ++i) {
    const SearchResult result = search_from(search, view, evaluator);
    ASSERT_FALSE(result.concealed);  // a search target, not an outcome's
    ASSERT_EQ(result.simulations, 16);
    for (std::size_t k = 0; k < n; ++k) ASSERT_NEAR(result.policy[k], static_cast<double>(k + 1) / total, 1e-4);
    ++drawn[static_cast<std::size_t>(std::find(legal.begin(), legal.end(), result.action) - legal.begin())];
  }
  for (std::size_t k = 0; k < n; ++k) {
    const double p = static_cast<double>(k + 1) / total;
    EXPECT_NEAR(drawn[k], kDraws * p, 4 * std::sqrt(kDraws * p * (1 - p))) << "action " << legal[k];
  }
}

TEST(StrategoConcealed, SearchMixedAtTemperatureZeroPlaysTheSearchsLikeliestChoice) {
  std::shared_ptr<const Game> game = load_game("stratego(variant=barrage)");
  std::unique_ptr<State> state = game->new_initial_state();
  SearchConfig config = concealed_policy_config();
  config.concealed_moves = ConcealedMoves::kSearchMixed;
  config.concealed_temperature = 0;
  Search search(*game, config, 7);
  SlopedPrior evaluator;
  const PlayerView view = PlayerView::of_mover(*state);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(search_from(search, view, evaluator).action, view.legal_actions().back());
}

TEST(StrategoConcealed, AMoveIsSearchedWithItsWholeBudget) {
  std::shared_ptr<const Game> game = load_game("stratego(variant=barrage,setup=random)");
  std::unique_ptr<State> state = game->new_initial_state();
  Rng rng(5);
  while (state->current_player() == kChancePlayer) state->apply(state->random_legal_action(rng));
  Search search(*game, concealed_policy_config(), 7);
  SlopedPrior evaluator;
  const SearchResult result = search_from(search, PlayerView::of_mover(*state), evaluator);
  EXPECT_FALSE(result.concealed);
  EXPECT_EQ(result.simulations, 16);
}

}  // namespace
}  // namespace boardlab
