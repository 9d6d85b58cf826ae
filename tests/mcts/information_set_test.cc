// Tests for hidden information: information-set search against single-sample search, deals per simulation, availability counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "core/errors.h"
#include "games/registry.h"
#include "mcts/bots.h"
#include "mcts/rollout_evaluator.h"
#include "mcts/search.h"
#include "tests/mcts/search_test_util.h"

namespace boardlab {
namespace {

// ---------------------------------------------------------------------------------------
// Two test-only hidden-information games.

// Shared plumbing: a history of steps, text actions, a trivial observation.
class StepState : public State {
 public:
  int move_number() const override { return static_cast<int>(history_.size()); }
  void observation(Player, std::span<float> out) const override { out[0] = static_cast<float>(history_.size()); }
  std::uint64_t hash() const override {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const Step& s : history_) h = (h ^ static_cast<std::uint64_t>(s.action + 8 * (s.player + 2))) * 0x100000001b3ULL;
    return h;
  }
  std::string to_string() const override { return record(); }
  std::string action_text(Player, Action action) const override { return std::to_string(action); }
  Action read_action(Player, std::string_view text) const override { return std::stoi(std::string(text)); }
  std::vector<Step> history() const override { return history_; }

 protected:
  explicit StepState(const Game& game) : State(game) {}
  void check_legal(Action action) const {
    const std::vector<Action> legal = legal_actions(current_player());
    if (std::find(legal.begin(), legal.end(), action) == legal.end())
      throw IllegalActionError(game().name() + ": illegal action " + std::to_string(action) + " at " + record());
  }
  std::vector<Step> history_;
};

GameType hidden_type() {
  GameType t;
  t.chance = Chance::kSetup;
  t.information = Information::kImperfect;
  return t;
}

// Strategy fusion in its plainest form (Frank and Basin 1998). Chance tosses two coins
// nobody sees. Player 0 plays safe (scores 1/2) or risky, and then guesses its coin
// (scores 1 when right, -1 when wrong); then player 1 does the same with the other coin.
// Returns are half the difference of the scores. Playing safe is right (1/2 against 0);
// a search that takes one deal as the truth sees its coin, goes risky, and then guesses
// with a new deal: half its guesses are wrong.
class CoinGame final : public Game {
 public:
  CoinGame() : Game("coin_guess", {}) {}
  GameType type() const override { return hidden_type(); }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 2; }
  ObservationShape observation_shape() const override { return {1, 1, 1}; }
  int max_game_length() const override { return 6; }
  std::unique_ptr<State> new_initial_state() const override;
};

class CoinState final : public StepState {
 public:
  explicit CoinState(const Game& game) : StepState(game) {}
  Player current_player() const override {
    if (coins_ < 2) return kChancePlayer;
    if (done_[1]) return kTerminalPlayer;
    return done_[0] ? 1 : 0;
  }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (player == current_player() && player != kTerminalPlayer) out = {0, 1};
  }
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override {
    if (!is_chance_node()) return State::chance_outcomes(out);
    out = {{0, 0.5}, {1, 0.5}};
  }
  void apply(Action action) override {
    check_legal(action);
    const Player actor = current_player();
    history_.push_back({actor, action});
    if (actor == kChancePlayer) {
      coin_[coins_++] = action;
    } else if (!risky_[actor]) {
      if (action == 0) {
        score_[actor] = 0.5;
        done_[actor] = true;
      } else {
        risky_[actor] = true;
      }
    } else {
      score_[actor] = action == coin_[actor] ? 1.0 : -1.0;
      done_[actor] = true;
    }
  }
  void write_returns(std::span<double> out) const override {
    out[0] = is_terminal() ? (score_[0] - score_[1]) / 2 : 0.0;
    out[1] = -out[0];
  }
  std::string action_seen_by(Player viewer, Player actor, Action action) const override {
    return actor == kChancePlayer ? "?" : State::action_seen_by(viewer, actor, action);
  }
  std::unique_ptr<State> sample_hidden(Player, Rng& rng) const override {
    auto out = std::make_unique<CoinState>(*this);
    for (int c = 0; c < coins_; ++c) {
      out->coin_[c] = static_cast<Action>(rng.below(2));
      out->history_[c].action = out->coin_[c];
    }
    return out;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<CoinState>(*this); }

 private:
  int coins_ = 0;
  Action coin_[2] = {0, 0};
  bool risky_[2] = {false, false};
  bool done_[2] = {false, false};
  double score_[2] = {0, 0};
};

std::unique_ptr<State> CoinGame::new_initial_state() const { return std::make_unique<CoinState>(*this); }

// Player 1's legal actions depend on a card only it sees. Chance deals player 1 card 0
// or 1; player 0 picks 0 or 1; player 1 then has actions {0, 1} with card 0 and {1, 2}
// with card 1; player 0 picks 0 or 1 again; the returns come from a table.
class HiddenMovesGame final : public Game {
 public:
  HiddenMovesGame() : Game("hidden_moves", {}) {}
  GameType type() const override { return hidden_type(); }
  int num_players() const override { return 2; }
  int num_distinct_actions() const override { return 3; }
  ObservationShape observation_shape() const override { return {1, 1, 1}; }
  int max_game_length() const override { return 4; }
  std::unique_ptr<State> new_initial_state() const override;
};

class HiddenMovesState final : public StepState {
 public:
  explicit HiddenMovesState(const Game& game) : StepState(game) {}
  Player current_player() const override {
    switch (history_.size()) {
      case 0: return kChancePlayer;
      case 1: return 0;
      case 2: return 1;
      case 3: return 0;
      default: return kTerminalPlayer;
    }
  }
  void list_legal_actions(Player player, std::vector<Action>& out) const override {
    out.clear();
    if (player != current_player() || player == kTerminalPlayer) return;
    if (player == 1) out = card() == 0 ? std::vector<Action>{0, 1} : std::vector<Action>{1, 2};
    else out = {0, 1};
  }
  void chance_outcomes(std::vector<ChanceOutcome>& out) const override {
    if (!is_chance_node()) return State::chance_outcomes(out);
    out = {{0, 0.5}, {1, 0.5}};
  }
  void apply(Action action) override {
    check_legal(action);
    history_.push_back({current_player(), action});
  }
  void write_returns(std::span<double> out) const override {
    out[0] = 0;
    if (is_terminal()) {
      const int k = history_[1].action * 9 + history_[2].action * 3 + history_[3].action + card() * 5;
      out[0] = static_cast<double>((k * 7) % 9 - 4) / 4.0;
    }
    out[1] = -out[0];
  }
  std::string action_seen_by(Player viewer, Player actor, Action action) const override {
    return actor == kChancePlayer && viewer != 1 ? "?" : State::action_seen_by(viewer, actor, action);
  }
  std::unique_ptr<State> sample_hidden(Player p, Rng& rng) const override {
    auto out = std::make_unique<HiddenMovesState>(*this);
    // Player 0 cannot see the card: any card that allows player 1's moves so far.
    if (p == 0 && !history_.empty()) {
      std::vector<Action> cards;
      for (Action c : {0, 1})
        if (history_.size() < 3 || history_[2].action == 1 || history_[2].action == 2 * c) cards.push_back(c);
      out->history_[0].action = cards[rng.below(static_cast<std::uint32_t>(cards.size()))];
    }
    return out;
  }
  std::unique_ptr<State> clone() const override { return std::make_unique<HiddenMovesState>(*this); }

 private:
  Action card() const { return history_[0].action; }
};

std::unique_ptr<State> HiddenMovesGame::new_initial_state() const {
  return std::make_unique<HiddenMovesState>(*this);
}

// ---------------------------------------------------------------------------------------

struct Score {
  double mean = 0;
  double standard_error = 0;
};

// The return of players[0] in each game of an arena between players[0] and players[1].
std::vector<double> returns_of_first(const Game& game, const std::vector<std::string>& players, int games,
                                     std::uint64_t seed) {
  ArenaOptions options;
  options.games = games;
  options.threads = 1;
  options.seed = seed;
  options.opening_turns = 0;
  const ArenaReport report = run_arena(game, players, {{0, 1}}, make_search_bot, options);
  std::vector<double> out;
  for (const ArenaGame& g : report.games)
    for (std::size_t s = 0; s < g.seats.size(); ++s)
      if (g.seats[s] == 0) out.push_back(g.returns[s]);
  return out;
}

Score score_of(const std::vector<double>& values) {
  double sum = 0, squares = 0;
  for (double v : values) {
    sum += v;
    squares += v * v;
  }
  const double n = static_cast<double>(values.size());
  const double mean = sum / n;
  return {mean, std::sqrt(std::max(0.0, squares / n - mean * mean) / n)};
}

const std::string kInformationSet = "mcts(simulations=100,hidden=information_set)";
const std::string kSingleSample = "mcts(simulations=100,hidden=single_sample)";

TEST(InformationSetSearch, BeatsSingleSampleSearchWhereStrategyFusionBites) {
  // One sampled deal shows the coins, so single-sample search finds "risky, then guess
  // right" worth 1 and leaves the sure 1/2; its guess, searched with a new deal, is a coin
  // toss. Information-set search averages the deals: risky is worth 0, and it plays safe.
  // Head to head the expected return is +1/4 a game.
  const CoinGame game;
  const Score score = score_of(returns_of_first(game, {kInformationSet, kSingleSample}, 400, 1));
  EXPECT_GT(score.mean, 0.15);
  EXPECT_GT(score.mean, 4 * score.standard_error) << score.mean << " ± " << score.standard_error;
}

TEST(InformationSetSearch, ScoresMoreThanSingleSampleSearchAtKuhnPoker) {
  // Both search modes, 100 simulations each, play the same deals against a uniformly
  // random opponent, whose bets say nothing about its card: the uniform deals that
  // sample_hidden draws are then the true beliefs. Information-set search weighs every
  // deal the player cannot tell apart, for instance calling a bet with the queen when
  // that wins on average. Single-sample search takes the one deal it drew as the truth:
  // it over-trusts it, calling or folding by a coin toss. (Head to head, single-sample
  // search wins by about 0.05 a game: uniform deals ignore what its honest bets say
  // about its card; see mcts/information_set.cc.)
  const auto loaded = load_game("kuhn_poker");
  const Game& kuhn = *loaded;
  const std::vector<double> with_sets = returns_of_first(kuhn, {kInformationSet, "random"}, 6000, 2);
  const std::vector<double> with_one = returns_of_first(kuhn, {kSingleSample, "random"}, 6000, 2);
  ASSERT_EQ(with_sets.size(), with_one.size());
  // Paired by game: the same seeds deal the same cards.
  std::vector<double> difference(with_sets.size());
  for (std::size_t i = 0; i < difference.size(); ++i) difference[i] = with_sets[i] - with_one[i];
  const Score gain = score_of(difference);
  EXPECT_GT(score_of(with_sets).mean, 0.1);
  EXPECT_GT(gain.mean, 3 * gain.standard_error) << gain.mean << " ± " << gain.standard_error;
}

TEST(InformationSetSearch, EachSimulationDrawsADealFromTheView) {
  // Player 0 holds the queen, player 1 the king. Every request gives player 0 the queen.
  // After pass-pass the showdown's return depends on player 1's card: with a deal per
  // simulation that terminal edge averages wins and losses; with one sampled deal every
  // visit returns the same.
  const auto loaded = load_game("kuhn_poker");
  const Game& kuhn = *loaded;
  auto state = kuhn.new_initial_state();
  state->apply(1);  // Q to player 0
  state->apply(2);  // K to player 1
  for (HiddenInformation hidden : {HiddenInformation::kInformationSet, HiddenInformation::kSingleSample}) {
    SCOPED_TRACE(std::string(hidden_information_name(hidden)));
    SearchConfig config;
    config.simulations = 400;
    config.hidden = hidden;
    config.c_puct = 4;  // wide, so that the pass-pass line gets many visits
    Search search(kuhn, config, 3);
    int requests = 0;
    FunctionEvaluator evaluator([&](const State& s, std::span<const Action> legal, Evaluation& eval) {
      EXPECT_EQ(s.history()[0].action, 1);
      EXPECT_NE(s.history()[1].action, 1);
      ++requests;
      eval.prior.assign(legal.size(), 1.0f);
      eval.value = {0.0f, 0.0f};
    });
    const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
    EXPECT_EQ(requests, 4);  // the root, pass, bet and pass-bet: the rest is terminal
    EXPECT_EQ(result.simulations, 400);
    EXPECT_EQ(result.legal, (std::vector<Action>{0, 1}));
    const Tree& tree = search.tree();
    const std::int32_t pass = tree.find_child(Tree::kRoot, 0);
    ASSERT_GE(pass, 0);
    const std::int32_t showdown = tree.find_child(pass, 0);
    ASSERT_GE(showdown, 0);
    const Node& node = tree[showdown];
    // Under information sets whether the game is over belongs to the deal, so no node is
    // marked terminal; one sampled deal for the whole search may mark it.
    ASSERT_EQ(node.status, hidden == HiddenInformation::kInformationSet ? NodeStatus::kFresh : NodeStatus::kTerminal);
    ASSERT_GT(node.visits, 20);
    // Player 1 chose this edge: +1 with the king, -1 with the jack.
    if (hidden == HiddenInformation::kInformationSet) {
      EXPECT_LT(std::abs(node.mean_value()), 0.6f) << node.mean_value();
    } else {
      EXPECT_EQ(std::abs(node.mean_value()), 1.0f);
    }
  }
}

TEST(InformationSetSearch, ChildrenAreAvailableOnlyWhereTheDealAllowsThem) {
  // Below player 0's first move, player 1's actions are {0, 1} or {1, 2} by its card:
  // the node ends with all three, action 1 available in every pass and actions 0 and 2
  // in the passes whose deal allowed them, about half each.
  const HiddenMovesGame game;
  auto state = game.new_initial_state();
  state->apply(1);
  for (int leaves : {1, 8}) {
    for (SearchAlgorithm algorithm : {SearchAlgorithm::kPuct, SearchAlgorithm::kUct, SearchAlgorithm::kGumbel}) {
      SCOPED_TRACE(std::string(algorithm_name(algorithm)) + " " + std::to_string(leaves));
      SearchConfig config;
      config.algorithm = algorithm;
      config.simulations = 600;
      config.leaves_per_step = leaves;
      config.gumbel_considered = 2;
      Search search(game, config, 5);
      RolloutEvaluator evaluator(5);
      // A game that applied an action illegal in its deal would throw.
      search_from(search, PlayerView(*state, 0), evaluator);
      const Tree& tree = search.tree();
      for (std::int32_t i = 0; i < tree.size(); ++i) ASSERT_EQ(tree[i].in_flight, 0);
      for (Action first : {0, 1}) {
        const std::int32_t node = tree.find_child(Tree::kRoot, first);
        ASSERT_GE(node, 0);
        const Node& n = tree[node];
        ASSERT_EQ(n.status, NodeStatus::kExpanded);
        ASSERT_EQ(n.mover, 1);
        ASSERT_EQ(n.num_children, 3);
        int available[3];
        double priors = 0;
        int passes = 0;
        for (int c = 0; c < 3; ++c) {
          const Node& child = tree[n.first_child + c];
          available[c] = tree.available(n.first_child + c);
          EXPECT_EQ(child.action, c);
          EXPECT_LE(child.visits, available[c]);
          priors += child.prior;
          passes += child.visits;
        }
        EXPECT_NEAR(priors, 1.0, 1e-5);
        EXPECT_EQ(passes, n.visits - 1);
        if (leaves == 1) {
          // Every pass had action 1 and exactly one of 0 and 2.
          EXPECT_EQ(available[1], passes);
          EXPECT_EQ(available[0] + available[2], passes);
        }
        EXPECT_GT(passes, 50);
        EXPECT_NEAR(available[0], passes / 2.0, 0.15 * passes);
      }
    }
  }
}

TEST(InformationSetSearch, WhetherTheGameIsOverBelongsToTheDeal) {
  // Barrage Stratego at Red's first move: Red's Scout on a4 may strike Blue's unknown piece on
  // a7, which ends the game in the deals that make it the Flag (1 in 8) and plays on in the
  // others. The search must take both: the strike's value for Red is the share of deals it
  // wins at once (the evaluator says 0 everywhere else), and its node is expanded for the
  // deals that play on.
  const auto game = load_game("stratego(variant=barrage)");
  auto state = game->new_initial_state();
  // Red fills a1, b1, .. k4: seven pieces on rank 1, the second Scout on a4. Blue fills
  // k10 .. a7 (its squares turned by 180 degrees): its eight pieces on rank 7, the Flag on a7.
  const std::string red = std::string("FB1X932") + std::string(23, '.') + "2" + std::string(9, '.');
  const std::string blue = std::string(32, '.') + "B1X9322F";
  for (const std::string* side : {&red, &blue})
    for (char c : *side) state->apply(state->string_to_action(state->current_player(), std::string(1, c)));
  ASSERT_EQ(state->current_player(), 0);
  const Action strike = state->string_to_action(0, "a4-a7");

  SearchConfig config;
  config.algorithm = SearchAlgorithm::kPuct;
  config.simulations = 600;
  config.hidden = HiddenInformation::kInformationSet;
  Search search(*game, config, 5);
  FunctionEvaluator evaluator([&](const State&, std::span<const Action> legal, Evaluation& eval) {
    eval.prior.assign(legal.size(), 1.0f);
    eval.value = {0.0f, 0.0f};
  });
  const SearchResult result = search_from(search, PlayerView(*state, 0), evaluator);
  EXPECT_EQ(result.simulations, 600);
  const Tree& tree = search.tree();
  const std::int32_t child = tree.find_child(Tree::kRoot, strike);
  ASSERT_GE(child, 0);
  const Node& node = tree[child];
  ASSERT_GE(node.visits, 40);
  EXPECT_EQ(node.status, NodeStatus::kExpanded);
  // 1/8 of the deals, within the noise of the visits' deals (about 0.05 at 40 visits).
  EXPECT_GT(node.mean_value(), 0.02f);
  EXPECT_LT(node.mean_value(), 0.35f);
}

}  // namespace
}  // namespace boardlab
