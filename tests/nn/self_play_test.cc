// Tests for self-play records: chance drawn by the worker, forced steps without positions, one target per searched position, simultaneous rounds, hidden information, truncation.
#include "core/steps.h"
#include "nn/self_play.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <span>
#include <cmath>
#include <numeric>
#include <set>
#include <vector>

#include "core/errors.h"
#include "core/player_view.h"
#include "games/biased_rps/biased_rps.h"
#include "games/registry.h"
#include "mcts/rollout_evaluator.h"
#include "nn_test_games.h"
#include "nn_test_util.h"
#include "tests/error_of.h"

namespace boardlab {
namespace {

using nn_testing::CoinNimGame;

// Self-play with a uniform evaluator until `positions` positions are done; every game it finished.
std::vector<SelfPlayGame> self_play(const Game& game, std::int64_t positions, std::uint64_t seed,
                                    const SearchConfig& search, const SelfPlayConfig& config) {
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(game.num_players());
  SelfPlayWorker worker(game, search, config, evaluator, seed);
  std::vector<SelfPlayGame> games;
  const std::atomic<bool> stop{false};
  worker.run(positions, stop, [&](SelfPlayGame&& g) { games.push_back(std::move(g)); });
  return games;
}

std::vector<SelfPlayGame> self_play(const Game& game, std::int64_t positions, std::uint64_t seed) {
  SearchConfig search;
  search.simulations = 4;
  SelfPlayConfig config;
  config.concurrent_games = 8;
  return self_play(game, positions, seed, search, config);
}

TEST(SelfPlay, RecordsChanceForcedAndSearchedStepsOfEveryGame) {
  const CoinNimGame game;
  const std::vector<SelfPlayGame> games = self_play(game, 1500, 7);
  ASSERT_GT(games.size(), 200u);
  ReplayBuffer replay(game, 1 << 20);
  int heads = 0, forced = 0, searched = 0;
  std::vector<Action> legal;
  for (const SelfPlayGame& g : games) {
    // Replayed here step by step: each step names who acted, and a position (one target,
    // the mover's, over its legal actions) stands before every step with a choice.
    std::unique_ptr<State> state = game.new_initial_state();
    std::size_t next = 0;
    for (std::size_t i = 0; i < g.steps.size(); ++i) {
      const Player actor = state->current_player();
      ASSERT_EQ(g.steps[i].player, actor) << "step " << i;
      state->legal_actions(actor, legal);
      const bool has_position = next < g.positions.size() && g.positions[next].ply == static_cast<int>(i);
      if (actor == kChancePlayer) {
        EXPECT_EQ(i, 0u);
        EXPECT_FALSE(has_position) << "chance is drawn, not searched";
        heads += g.steps[i].action == 1;
      } else if (legal.size() == 1) {
        EXPECT_FALSE(has_position) << "a forced step is no position";
        ++forced;
      } else {
        ASSERT_TRUE(has_position) << "step " << i << " had a choice";
        const SelfPlayGame::Position& position = g.positions[next++];
        ASSERT_EQ(position.targets.size(), 1u);
        EXPECT_EQ(position.targets[0].player, actor);
        EXPECT_EQ(position.targets[0].legal, legal);
        EXPECT_NEAR(std::accumulate(position.targets[0].policy.begin(), position.targets[0].policy.end(), 0.0), 1.0, 1e-5);
        ++searched;
      }
      state->apply(g.steps[i].action);
    }
    EXPECT_EQ(next, g.positions.size());
    EXPECT_TRUE(state->is_terminal());
    EXPECT_EQ(g.returns, state->returns());
    EXPECT_FALSE(g.truncated);
    replay.add(g);
  }
  EXPECT_GT(forced, 0);
  EXPECT_GT(searched, 0);
  // The coin is drawn with its probabilities by the worker's own random stream.
  const double n = static_cast<double>(games.size());
  EXPECT_NEAR(heads / n, CoinNimGame::kHeads, 5 * std::sqrt(CoinNimGame::kHeads * (1 - CoinNimGame::kHeads) / n));
}

TEST(SelfPlay, PlayoutCapRandomizationSearchesAFractionInFullAndOnlyThoseTrainThePolicy) {
  // test_count: two legal actions at every ply, 60 plies a game, so every step is a
  // position and the observation tells its ply.
  const nn_testing::CountGame game(2, 2, 60, 60);
  SearchConfig search;
  search.simulations = 8;
  SelfPlayConfig config;
  config.concurrent_games = 1;  // no game left unfinished with searches counted
  config.full_search_fraction = 0.25;
  config.fast_simulations = 2;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  SelfPlayWorker worker(game, search, config, evaluator, 5);
  std::vector<SelfPlayGame> games;
  const std::atomic<bool> stop{false};
  worker.run(1200, stop, [&](SelfPlayGame&& g) { games.push_back(std::move(g)); });
  ASSERT_GE(games.size(), 20u);
  std::int64_t full = 0, fast = 0;
  std::vector<std::vector<bool>> full_at;
  for (const SelfPlayGame& g : games) {
    ASSERT_EQ(g.positions.size(), 60u);
    full_at.emplace_back();
    for (const SelfPlayGame::Position& position : g.positions) {
      (position.full_search ? full : fast) += 1;
      full_at.back().push_back(position.full_search);
      ASSERT_TRUE(position.targets[0].root_value.has_value());
      EXPECT_EQ(*position.targets[0].root_value, 0.0f);  // the evaluator's values are all 0
    }
  }
  const double n = static_cast<double>(full + fast);
  EXPECT_NEAR(static_cast<double>(full) / n, 0.25, 5 * std::sqrt(0.25 * 0.75 / n));
  // Each search spends its budget, except that the solver may prove the last two plies of
  // a game sooner.
  const auto budgets = static_cast<std::uint64_t>(8 * full + 2 * fast);
  EXPECT_LE(worker.simulations(), budgets);
  EXPECT_GE(worker.simulations(), budgets - 2 * 8 * games.size());
  EXPECT_EQ(worker.searches(), static_cast<std::uint64_t>(full + fast));

  // In the batch, a fast position's example has policy weight 0 and no policy; the value
  // trains on every example.
  for (std::size_t g = 0; g < games.size(); ++g) {
    ReplayBuffer replay(game, 1 << 20);
    replay.add(games[g]);
    TrainBatch batch;
    Rng rng(g);
    replay.sample(100, rng, false, batch);
    for (int i = 0; i < batch.size; ++i) {
      const auto ply = static_cast<std::size_t>(batch.obs[static_cast<std::size_t>(i)]);
      const float weight = full_at[g][ply] ? 1.0f : 0.0f;
      ASSERT_EQ(batch.policy_weight[static_cast<std::size_t>(i)], weight) << "ply " << ply;
      EXPECT_FLOAT_EQ(batch.policy[2 * static_cast<std::size_t>(i)] + batch.policy[2 * static_cast<std::size_t>(i) + 1], weight);
    }
  }

  // Searching every move in full keeps the flag set and draws nothing: the same games as
  // a worker that never heard of fast searches.
  config.full_search_fraction = 1;
  SelfPlayWorker plain(game, search, config, evaluator, 5);
  games.clear();
  plain.run(120, stop, [&](SelfPlayGame&& g) { games.push_back(std::move(g)); });
  for (const SelfPlayGame& g : games)
    for (const SelfPlayGame::Position& position : g.positions) EXPECT_TRUE(position.full_search);

  config.full_search_fraction = 0.5;
  config.fast_simulations = 9;
  EXPECT_EQ(error_of<InputError>([&] { SelfPlayWorker(game, search, config, evaluator, 1); }),
            "self-play: fast_simulations must lie in 1..8 (the full budget, search.simulations), got 9");
  config.full_search_fraction = 0;
  EXPECT_EQ(error_of<InputError>([&] { SelfPlayWorker(game, search, config, evaluator, 1); }),
            "self-play: full_search_fraction must lie in (0, 1], got 0.000000");
}

TEST(SelfPlay, ManyGamesAreSteppedInChunksOfTheBatchWithTheStopCheckedBetween) {
  // 100,000 concurrent games went to the network as one batch per round (81 s), and a stop
  // or a pause waited for all of it. With a max_batch the worker sends chunks of about that
  // many leaves and checks the stop flag after each.
  const Game& game = nn_testing::virus_war();
  SearchConfig search;
  search.simulations = 4;
  SelfPlayConfig config;
  config.concurrent_games = 50;
  std::vector<std::size_t> batches;
  std::atomic<bool> stop{false};
  FunctionEvaluator uniform = FunctionEvaluator::uniform(2);
  struct Counting final : Evaluator {
    Evaluator* inner;
    std::vector<std::size_t>* batches;
    std::atomic<bool>* stop;
    std::size_t stop_after = 0;
    void evaluate(std::span<const EvalRequest> requests, std::span<Evaluation> out) override {
      batches->push_back(requests.size());
      inner->evaluate(requests, out);
      if (batches->size() == stop_after) *stop = true;
    }
  } counting;
  counting.inner = &uniform;
  counting.batches = &batches;
  counting.stop = &stop;
  SelfPlayWorker worker(game, search, config, counting, 3);
  worker.set_max_batch(16);
  counting.stop_after = 2;
  std::int64_t games = 0;
  worker.run(std::numeric_limits<std::int64_t>::max(), stop, [&](SelfPlayGame&&) { ++games; });
  // The stop came after the second chunk: two calls of 16 games each, not one of 50.
  EXPECT_EQ(batches, (std::vector<std::size_t>{16, 16}));
  // The next run goes on where this one stopped: the last chunk holds the 2 games left.
  stop = false;
  batches.clear();
  counting.stop_after = 2;
  worker.run(std::numeric_limits<std::int64_t>::max(), stop, [&](SelfPlayGame&&) { ++games; });
  EXPECT_EQ(batches, (std::vector<std::size_t>{16, 2}));
  // Every game still finishes.
  stop = false;
  batches.clear();
  counting.stop_after = 0;
  worker.run(100, stop, [&](SelfPlayGame&&) { ++games; });
  EXPECT_GT(games, 0);
  EXPECT_TRUE(std::all_of(batches.begin(), batches.end(), [](std::size_t n) { return n <= 16; }));
  EXPECT_EQ(error_of<InputError>([&] { worker.set_max_batch(0); }), "self-play: max_batch must be at least 1, got 0");
}

TEST(SelfPlay, GamesEndedByACapSaySo) {
  const std::shared_ptr<const Game> game = load_game("morabaraba(move_cap=8)");
  const std::vector<SelfPlayGame> games = self_play(*game, 60, 3);
  ASSERT_FALSE(games.empty());
  ReplayBuffer replay(*game, 1 << 20);
  for (const SelfPlayGame& g : games) {
    EXPECT_TRUE(g.truncated);
    const std::unique_ptr<State> state = game->new_initial_state();
    apply_steps(*state, g.steps);
    EXPECT_TRUE(state->is_truncated());
    replay.add(g);
  }
}

TEST(SelfPlay, ASimultaneousRoundTrainsEverySeatOnItsOwnMixedPolicy) {
  // biased_rps, one search per round: one position with a target per seat, each seat's
  // action drawn from its policy. Regret matching's policies average out near the
  // equilibrium (1/4, 1/2, 1/4); a worker that trained the argmax, or one seat only, fails.
  const auto game = load_game("biased_rps(rounds=3)");
  SearchConfig search;
  search.simulations = 4000;
  SelfPlayConfig config;
  config.concurrent_games = 4;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  SelfPlayWorker worker(*game, search, config, evaluator, 11);
  std::vector<SelfPlayGame> games;
  const std::atomic<bool> stop{false};
  worker.run(120, stop, [&](SelfPlayGame&& g) { games.push_back(std::move(g)); });
  ASSERT_GE(games.size(), 40u);
  ReplayBuffer replay(*game, 1 << 20);
  std::vector<double> mean_policy(3, 0.0), played(3, 0.0);
  double targets = 0;
  for (const SelfPlayGame& g : games) {
    ASSERT_EQ(g.positions.size(), 3u);
    ASSERT_EQ(g.steps.size(), 6u);
    for (std::size_t r = 0; r < 3; ++r) {
      const SelfPlayGame::Position& position = g.positions[r];
      EXPECT_EQ(position.ply, static_cast<int>(2 * r));
      ASSERT_EQ(position.targets.size(), 2u);
      for (Player p = 0; p < 2; ++p) {
        const SelfPlayGame::Target& t = position.targets[p];
        EXPECT_EQ(t.player, p);
        EXPECT_EQ(t.legal, (std::vector<Action>{0, 1, 2}));
        EXPECT_NEAR(std::accumulate(t.policy.begin(), t.policy.end(), 0.0), 1.0, 1e-5);
        for (int a = 0; a < 3; ++a) mean_policy[a] += t.policy[a];
        targets += 1;
        EXPECT_EQ(g.steps[2 * r + p].player, p);
        played[g.steps[2 * r + p].action] += 1;
      }
    }
    replay.add(g);
  }
  for (int a = 0; a < 3; ++a) {
    // Uniform play is 0.083 from the equilibrium on rock and scissors; playing the most
    // likely action would play paper every time.
    EXPECT_NEAR(mean_policy[a] / targets, kBiasedRpsEquilibrium[a], 0.05) << "action " << a;
    EXPECT_NEAR(played[a] / targets, kBiasedRpsEquilibrium[a], 0.12) << "action " << a;
  }
}

// The seats whose policy a game trains: the players the targets of its full searches name.
std::set<Player> trained_seats(const SelfPlayGame& g) {
  std::set<Player> seats;
  for (const auto& position : g.positions)
    if (position.full_search)
      for (const auto& target : position.targets) seats.insert(target.player);
  return seats;
}

// The action a fixed opponent's one-hot target names (kInvalidAction where it is not one-hot).
Action one_hot_action(const SelfPlayGame::Target& t) {
  if (std::count(t.policy.begin(), t.policy.end(), 1.0f) != 1) return kInvalidAction;
  return t.legal[static_cast<std::size_t>(std::find(t.policy.begin(), t.policy.end(), 1.0f) - t.policy.begin())];
}

TEST(SelfPlay, AFixedOpponentTakesEverySeatButTheNetworksAndTrainsNothing) {
  // Virus War against random: in each game one seat, the next in turn from game to game, is
  // searched and trains its policy; the other's sub-moves train the value alone.
  const auto game = load_game("virus_war");
  SearchConfig search;
  search.simulations = 4;
  SelfPlayConfig config;
  config.concurrent_games = 4;
  config.opponent = "random";
  const std::vector<SelfPlayGame> games = self_play(*game, 600, 5, search, config);
  ASSERT_GE(games.size(), 4u);
  int as_first = 0;
  for (const SelfPlayGame& g : games) {
    const std::set<Player> seats = trained_seats(g);
    ASSERT_EQ(seats.size(), 1u);
    const Player learner = *seats.begin();
    as_first += learner == 0 ? 1 : 0;
    std::size_t opponent_steps = 0, opponent_positions = 0;
    for (const Step& step : g.steps) opponent_steps += step.player != learner ? 1 : 0;
    for (const auto& position : g.positions) {
      if (position.full_search) continue;
      ASSERT_EQ(position.targets.size(), 1u);
      EXPECT_NE(position.targets[0].player, learner);
      EXPECT_FALSE(position.targets[0].root_value.has_value());  // no search: the result alone
      // The move made: its one-hot policy names the step that follows the position.
      const auto& t = position.targets[0];
      EXPECT_EQ(one_hot_action(t), g.steps[static_cast<std::size_t>(position.ply)].action);
      ++opponent_positions;
    }
    EXPECT_GT(opponent_steps, 0u);
    EXPECT_GT(opponent_positions, 0u);
    EXPECT_LE(opponent_positions, opponent_steps);
  }
  EXPECT_GT(as_first, 0);
  EXPECT_LT(as_first, static_cast<int>(games.size()));
}

TEST(SelfPlay, AnOpponentFractionSeatsTheOpponentInThatShareOfGames) {
  // Virus War, random in a quarter of the games: those train one seat's policy, the others
  // every seat's, as self-play does.
  const auto game = load_game("virus_war");
  SearchConfig search;
  search.simulations = 4;
  SelfPlayConfig config;
  config.concurrent_games = 8;
  config.opponent = "random";
  config.opponent_fraction = 0.25;
  const std::vector<SelfPlayGame> games = self_play(*game, 12000, 7, search, config);
  ASSERT_GE(games.size(), 50u);
  int against = 0;
  for (const SelfPlayGame& g : games) {
    const std::size_t seats = trained_seats(g).size();
    ASSERT_TRUE(seats == 1 || seats == 2) << seats;
    against += seats == 1 ? 1 : 0;
  }
  const double share = static_cast<double>(against) / static_cast<double>(games.size());
  EXPECT_GT(share, 0.1);
  EXPECT_LT(share, 0.45);
  // Refused with a search that models the opponent: its policy head would learn both.
  search.model_opponents = true;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  EXPECT_EQ(error_of([&] { SelfPlayWorker(*game, search, config, evaluator, 1); }),
            "self-play: search.model_opponents trains the policy head on the fixed opponent's moves, so every game "
            "must seat it (opponent_fraction 1), not 0.250000");
}

TEST(SelfPlay, AnImitatedOpponentsMovesTrainThePolicyBesideTheNetworks) {
  // Virus War against random with imitate_opponent: every position trains the policy, the
  // network's seat on its search, the opponent's seat on the move it made (one-hot).
  const auto game = load_game("virus_war");
  SearchConfig search;
  search.simulations = 4;
  SelfPlayConfig config;
  config.concurrent_games = 4;
  config.opponent = "random";
  config.imitate_opponent = true;
  const std::vector<SelfPlayGame> games = self_play(*game, 600, 5, search, config);
  ASSERT_GE(games.size(), 4u);
  for (const SelfPlayGame& g : games) {
    EXPECT_EQ(trained_seats(g).size(), 2u);
    int imitated = 0;
    for (const auto& position : g.positions) {
      EXPECT_TRUE(position.full_search);
      const auto& t = position.targets.at(0);
      if (t.root_value.has_value()) continue;  // the network's own search
      EXPECT_EQ(one_hot_action(t), g.steps[static_cast<std::size_t>(position.ply)].action);
      ++imitated;
    }
    EXPECT_GT(imitated, 0);
  }
  // Refused beside a search that models the opponent, whose policy head learns it already.
  search.model_opponents = true;
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  EXPECT_EQ(error_of([&] { SelfPlayWorker(*game, search, config, evaluator, 1); }),
            "self-play: imitate_opponent and search.model_opponents both train the policy head on the fixed "
            "opponent's moves; model_opponents alone already does");
}

TEST(SelfPlay, AFixedOpponentChoosesItsSimultaneousActionsItself) {
  // biased_rps against rock-only play would be too easy to spot; against random, the
  // opponent's actions are uniform whatever the search thinks of its seat, and each round
  // trains the network's seat only.
  const auto game = load_game("biased_rps(rounds=3)");
  SearchConfig search;
  search.simulations = 64;
  SelfPlayConfig config;
  config.concurrent_games = 4;
  config.opponent = "random";
  const std::vector<SelfPlayGame> games = self_play(*game, 600, 9, search, config);
  ASSERT_GE(games.size(), 150u);
  std::vector<double> opponent_played(3, 0.0);
  double opponent_actions = 0;
  for (const SelfPlayGame& g : games) {
    ASSERT_EQ(g.positions.size(), 3u);
    const std::set<Player> seats = trained_seats(g);
    ASSERT_EQ(seats.size(), 1u);
    for (const auto& position : g.positions) EXPECT_EQ(position.targets.size(), 1u);
    for (const Step& step : g.steps)
      if (step.player != *seats.begin()) {
        opponent_played[step.action] += 1;
        opponent_actions += 1;
      }
  }
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(opponent_played[a] / opponent_actions, 1.0 / 3, 0.06) << "action " << a;
}

TEST(SelfPlay, AModelledOpponentsMovesTrainThePolicyToo) {
  // With SearchConfig::model_opponents the policy head learns the opponent's moves alone (the
  // search follows it at the opponent's nodes): each round's one target is the opponent's move.
  const auto game = load_game("biased_rps(rounds=3)");
  SearchConfig search;
  search.simulations = 16;
  search.model_opponents = true;
  SelfPlayConfig config;
  config.concurrent_games = 2;
  config.opponent = "random";
  const std::vector<SelfPlayGame> games = self_play(*game, 120, 3, search, config);
  ASSERT_GE(games.size(), 10u);
  for (const SelfPlayGame& g : games)
    for (const auto& position : g.positions) {
      ASSERT_EQ(position.targets.size(), 1u);
      EXPECT_TRUE(position.full_search);
      const auto& t = position.targets[0];
      EXPECT_EQ(one_hot_action(t), g.steps[static_cast<std::size_t>(position.ply + t.player)].action);
    }
}

TEST(SelfPlay, AnUnknownOpponentIsRefusedByName) {
  const auto game = load_game("virus_war");
  SelfPlayConfig config;
  config.opponent = "grandmaster";
  FunctionEvaluator evaluator = FunctionEvaluator::uniform(2);
  EXPECT_TRUE(error_of([&] { SelfPlayWorker(*game, SearchConfig{}, config, evaluator, 1); })
                  .starts_with("self-play: opponent: player 'grandmaster': unknown kind 'grandmaster'"));
}

TEST(SelfPlay, ARandomOpeningOpensTheDrawnShareOfGamesAndTrainsNothing) {
  // biased_rps of 3 rounds with 2 random opening turns (rounds) in about half the games:
  // those games have one position, at ply 4, after two rounds of steps for both seats; the
  // others three. Without the key every game is searched from its first round.
  const auto game = load_game("biased_rps(rounds=3)");
  SearchConfig search;
  search.simulations = 16;
  const auto play = [&](double fraction) {
    SelfPlayConfig config;
    config.concurrent_games = 4;
    config.random_opening_fraction = fraction;
    config.random_opening_turns = 2;
    return self_play(*game, 300, 11, search, config);
  };
  int opened = 0, whole = 0;
  const std::vector<SelfPlayGame> games = play(0.5);
  ASSERT_GE(games.size(), 100u);
  for (const SelfPlayGame& g : games) {
    ASSERT_EQ(g.steps.size(), 6u);
    const auto state = game->new_initial_state();
    apply_steps(*state, g.steps);
    EXPECT_TRUE(state->is_terminal());
    if (g.positions.size() == 1) {
      ++opened;
      EXPECT_EQ(g.positions[0].ply, 4);
    } else {
      ++whole;
      ASSERT_EQ(g.positions.size(), 3u);
      EXPECT_EQ(g.positions[0].ply, 0);
    }
  }
  EXPECT_GT(opened, games.size() / 4);
  EXPECT_GT(whole, games.size() / 4);
  for (const SelfPlayGame& g : play(0)) EXPECT_EQ(g.positions.size(), 3u);
}

TEST(SelfPlay, ARandomOpeningCountsWholeTurnsOfSubMoves) {
  // Virus War's turn is three sub-moves: two opening turns are six steps of alternating
  // players, and the first searched position comes after them.
  const auto game = load_game("virus_war");
  SearchConfig search;
  search.simulations = 2;
  SelfPlayConfig config;
  config.concurrent_games = 2;
  config.random_opening_fraction = 1;
  config.random_opening_turns = 2;
  const std::vector<SelfPlayGame> games = self_play(*game, 200, 3, search, config);
  ASSERT_FALSE(games.empty());
  for (const SelfPlayGame& g : games) {
    ASSERT_FALSE(g.positions.empty());
    const auto state = game->new_initial_state();
    apply_steps(*state, std::span<const Step>(g.steps).first(static_cast<std::size_t>(g.positions[0].ply)));
    EXPECT_EQ(state->move_number(), 2);
  }
}

TEST(SelfPlay, ASeatWhoseOnlyActionIsForcedHasNoTargetAtARound) {
  // Squares: once a player has no room its only action is pass while the other still
  // places. The round is searched for the other seat alone; the forced seat's pass is a
  // step without a target, so that the network never learns a pass that was no choice.
  const auto game = load_game("squares");
  const std::vector<SelfPlayGame> games = self_play(*game, 3000, 5);
  ASSERT_GT(games.size(), 20u);
  int one_seat_rounds = 0;
  std::vector<Action> legal;
  for (const SelfPlayGame& g : games) {
    std::unique_ptr<State> state = game->new_initial_state();
    std::size_t next = 0;
    for (std::size_t i = 0; i < g.steps.size(); i += 2) {
      ASSERT_TRUE(state->is_simultaneous_node());
      std::vector<Player> choosing;
      for (Player p = 0; p < 2; ++p) {
        state->legal_actions(p, legal);
        if (legal.size() > 1) choosing.push_back(p);
      }
      const bool has_position = next < g.positions.size() && g.positions[next].ply == static_cast<int>(i);
      EXPECT_EQ(has_position, !choosing.empty()) << "round at step " << i;
      if (has_position) {
        const SelfPlayGame::Position& position = g.positions[next++];
        std::vector<Player> trained;
        for (const auto& t : position.targets) trained.push_back(t.player);
        EXPECT_EQ(trained, choosing) << "round at step " << i;
        one_seat_rounds += choosing.size() == 1;
      }
      state->apply_joint(std::vector<Action>{g.steps[i].action, g.steps[i + 1].action});
    }
    EXPECT_EQ(next, g.positions.size());
    EXPECT_TRUE(state->is_terminal());
  }
  EXPECT_GT(one_seat_rounds, 0) << "no game reached a round where one seat was out of room";
}

TEST(SelfPlay, AModelledOpponentForcedToPassLeavesNoPositionWithoutATarget) {
  // Squares against random, the opponent modelled: a round where the opponent has no room
  // (its one action is pass) and the network still places has neither the network's target
  // (the policy head learns the opponent alone) nor the opponent's (it had no choice), and
  // the replay would refuse the game for a position without a target.
  const auto game = load_game("squares");
  SearchConfig search;
  search.simulations = 4;
  search.model_opponents = true;
  SelfPlayConfig config;
  config.concurrent_games = 2;
  config.opponent = "random";
  const std::vector<SelfPlayGame> games = self_play(*game, 1500, 7, search, config);
  ASSERT_GE(games.size(), 10u);
  int forced_opponent_rounds = 0;
  std::vector<Action> legal;
  for (const SelfPlayGame& g : games) {
    for (const auto& position : g.positions) EXPECT_FALSE(position.targets.empty()) << "ply " << position.ply;
    std::unique_ptr<State> state = game->new_initial_state();
    for (std::size_t i = 0; i < g.steps.size(); i += 2) {
      int forced = 0;
      for (Player p = 0; p < 2; ++p) forced += state->legal_actions(p).size() == 1;
      forced_opponent_rounds += forced == 1;
      state->apply_joint(std::vector<Action>{g.steps[i].action, g.steps[i + 1].action});
    }
  }
  EXPECT_GT(forced_opponent_rounds, 0) << "no game reached a round where one seat was out of room";
}

TEST(SelfPlay, HiddenInformationSearchesFromTheMoversViewAndTrainsTheMoverOnly) {
  // kuhn_poker: chance deals, then each decision is searched from the mover's view. The
  // evaluator sees the states the search asks about: with information-set search they are
  // samples, so the hidden card of the player not to move varies across one game's requests.
  const auto game = load_game("kuhn_poker");
  SearchConfig search;
  search.simulations = 32;
  SelfPlayConfig config;
  config.concurrent_games = 1;
  std::set<std::pair<Action, Action>> deals_seen;
  FunctionEvaluator evaluator([&](const State& s, std::span<const Action> legal, Evaluation& eval) {
    const std::vector<Step> h = s.history();
    deals_seen.insert({h[0].action, h[1].action});
    eval.prior.assign(legal.size(), 1.0f);
    eval.value.assign(2, 0.0f);
  });
  SelfPlayWorker worker(*game, search, config, evaluator, 3);
  std::vector<SelfPlayGame> games;
  const std::atomic<bool> stop{false};
  worker.run(1, stop, [&](SelfPlayGame&& g) { games.push_back(std::move(g)); });
  ASSERT_EQ(games.size(), 1u);
  const SelfPlayGame& g = games.front();
  ASSERT_EQ(g.steps[0].player, kChancePlayer);
  ASSERT_EQ(g.steps[1].player, kChancePlayer);
  // Both deals the mover cannot tell apart were searched, not only the true one.
  EXPECT_GE(deals_seen.size(), 2u);
  for (const SelfPlayGame::Position& position : g.positions) {
    ASSERT_EQ(position.targets.size(), 1u);
    EXPECT_EQ(position.targets[0].player, g.steps[position.ply].player);
  }
  ReplayBuffer replay(*game, 1 << 20);
  replay.add(g);
  EXPECT_EQ(replay.positions(), static_cast<std::int64_t>(g.positions.size()));
}

TEST(SelfPlay, AConcealedChoiceIsDrawnUnsearchedAndItsTargetFollowsTheOutcome) {
  // Barrage's setup is concealed from the opponent: with concealed_moves=policy each setup
  // step is the uniform prior's draw, and its target moves the played piece by the outcome.
  // Players' concealed_temperature does not reach self-play: at 0 a player would take the
  // first of the equally likely pieces every time.
  const auto game = load_game("stratego(variant=barrage)");
  SearchConfig search;
  search.algorithm = SearchAlgorithm::kGumbel;
  search.simulations = 4;
  search.concealed_moves = ConcealedMoves::kPolicy;
  search.concealed_temperature = 0;
  SelfPlayConfig config;
  config.concurrent_games = 1;
  const std::vector<SelfPlayGame> games = self_play(*game, 1, 11, search, config);
  ASSERT_EQ(games.size(), 1u);
  const SelfPlayGame& g = games.front();
  ASSERT_NE(g.returns[0], 0.0) << "the test wants a decided game: pick another seed";
  std::unique_ptr<State> state = game->new_initial_state();
  std::size_t step = 0;
  int concealed = 0, searched = 0;
  for (const SelfPlayGame::Position& position : g.positions) {
    while (step < static_cast<std::size_t>(position.ply)) state->apply(g.steps[step++].action);
    const SelfPlayGame::Target& target = position.targets.front();
    EXPECT_TRUE(position.full_search);
    EXPECT_NEAR(std::accumulate(target.policy.begin(), target.policy.end(), 0.0), 1.0, 1e-5);
    const bool setup = state->move_number() < 2;  // each side's setup is its first turn
    ASSERT_EQ(PlayerView::of_mover(*state).choice_concealed(), setup) << "ply " << position.ply;
    if (!setup) {
      ++searched;
      continue;
    }
    ++concealed;
    const Action played = g.steps[step].action;
    const double prior = 1.0 / static_cast<double>(target.legal.size());
    for (std::size_t k = 0; k < target.legal.size(); ++k) {
      if (target.legal[k] != played) continue;
      if (g.returns[static_cast<std::size_t>(target.player)] > 0) EXPECT_GT(target.policy[k], prior + 1e-4);
      else EXPECT_LT(target.policy[k], prior - 1e-4);
    }
  }
  EXPECT_GE(concealed, 16);  // 8 pieces a side; the squares after the last piece are forced empty
  EXPECT_GT(searched, 0);
}

}  // namespace
}  // namespace boardlab
