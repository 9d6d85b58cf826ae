// Test helpers for the games' heuristic players (the `heuristic` player kind): checked games against random, and arena results.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "arena/arena.h"
#include "core/bot.h"
#include "core/game.h"
#include "core/random_play.h"
#include "core/rng.h"
#include "mcts/bots.h"

namespace boardlab {

// Plays one game of `game`, seat p played by `specs[p]` ("heuristic", "random", ...), each
// seeded from `seed`. Every action a bot returns is checked against its seat's legal actions
// before it is applied (a failure shows the position). Returns the game's record, so that two
// games can be compared whole.
inline std::string play_checked_game(const Game& game, const std::vector<std::string>& specs, std::uint64_t seed) {
  std::vector<std::unique_ptr<Bot>> bots;
  for (Player p = 0; p < game.num_players(); ++p) bots.push_back(make_search_bot(specs[p], game, seed * 131 + p));
  std::unique_ptr<State> state = game.new_initial_state();
  Rng chance(seed ^ 0xc4a2ceULL);
  std::vector<Action> legal, joint;
  const auto chosen = [&](Player p) {
    const Action action = bots[p]->act(PlayerView(*state, p));
    state->legal_actions(p, legal);
    EXPECT_TRUE(std::find(legal.begin(), legal.end(), action) != legal.end())
        << game.player_name(p) << " chose the illegal action " << action << " in\n" << state->to_string();
    return action;
  };
  while (!state->is_terminal()) {
    if (state->is_chance_node()) {
      apply_random_step(*state, chance, joint);
    } else if (state->is_simultaneous_node()) {
      joint.clear();
      for (Player p = 0; p < game.num_players(); ++p) joint.push_back(chosen(p));
      state->apply_joint(joint);
    } else {
      state->apply(chosen(state->current_player()));
    }
    if (::testing::Test::HasFailure()) break;
  }
  return state->record();
}

// The heuristic player against `opponent` in a two-player game, one checked game with each
// seat order, seeded from `seed`.
inline void play_checked_both_ways(const Game& game, const std::string& opponent, std::uint64_t seed) {
  play_checked_game(game, {"heuristic", opponent}, seed);
  play_checked_game(game, {opponent, "heuristic"}, seed);
}

// The heuristic player against `others` (one spec per other seat) over `games` games of the
// arena, every seat order in turn, after `opening_turns` random turns (the game's own number
// when not given); standings[0] is the heuristic's.
inline ArenaReport heuristic_arena(const Game& game, const std::vector<std::string>& others, int games,
                                   std::optional<int> opening_turns = std::nullopt, std::uint64_t seed = 1) {
  std::vector<std::string> players = {"heuristic"};
  players.insert(players.end(), others.begin(), others.end());
  ArenaOptions options;
  options.games = games;
  options.seed = seed;
  options.threads = 1;
  options.opening_turns = opening_turns;
  return run_arena(game, players, round_robin_groups(static_cast<int>(players.size()), game.num_players()),
                   make_search_bot, options);
}

}  // namespace boardlab
