// Arena scheduling, parallel play, and the tally of results, standings and ratings.
#include "arena/arena.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

#include "core/errors.h"
#include "core/random_play.h"
#include "core/stop.h"

namespace boardlab {
namespace {

void combinations(int n, int k, int start, std::vector<int>& current, std::vector<std::vector<int>>& out) {
  if (static_cast<int>(current.size()) == k) {
    out.push_back(current);
    return;
  }
  for (int i = start; i < n; ++i) {
    current.push_back(i);
    combinations(n, k, i + 1, current, out);
    current.pop_back();
  }
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  Rng rng(a * 0x9e3779b97f4a7c15ULL + b);
  return rng();
}

// The game played to its end, or none when `halted` said stop first.
std::optional<ArenaGame> play_one(const Game& game, const std::vector<std::string>& players,
                                  const std::vector<int>& seats, std::uint64_t opening_seed, std::uint64_t bot_seed,
                                  int opening_turns, const BotFactory& factory, const std::function<bool()>& halted) {
  std::vector<std::unique_ptr<Bot>> bots;
  for (std::size_t s = 0; s < seats.size(); ++s) bots.push_back(factory(players[seats[s]], game, mix(bot_seed, s)));
  std::unique_ptr<State> state = game.new_initial_state();
  // Chance draws its own stream, so that the opening's stream is the same for every seating.
  Rng opening(opening_seed), chance(opening_seed ^ 0xc4a2ceULL);
  std::vector<Action> joint;
  ArenaGame result;
  result.seats = seats;
  result.moves.assign(seats.size(), 0);
  result.think_seconds.assign(seats.size(), 0.0);
  const auto act = [&](Player p) {
    const auto start = std::chrono::steady_clock::now();
    const Action action = bots[p]->act(PlayerView(*state, p));
    result.think_seconds[p] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++result.moves[p];
    return action;
  };
  while (!state->is_terminal() && state->move_number() < opening_turns)
    apply_random_step(*state, state->is_chance_node() ? chance : opening, joint);
  while (!state->is_terminal()) {
    if (halted()) return std::nullopt;
    const Player mover = state->current_player();
    if (mover == kChancePlayer) {
      state->apply(state->random_legal_action(chance));
    } else if (mover == kSimultaneousPlayer) {
      joint.resize(seats.size());
      for (Player p = 0; p < static_cast<Player>(seats.size()); ++p) joint[p] = act(p);
      state->apply_joint(joint);
    } else {
      state->apply(act(mover));
    }
  }
  result.returns = state->returns();
  result.truncated = state->is_truncated();
  const std::vector<Step> history = state->history();
  result.length = static_cast<int>(history.size());
  result.record = state->record();
  return result;
}

}  // namespace

int default_anchor(const std::vector<std::string>& players) {
  const auto it = std::find(players.begin(), players.end(), "random");
  return it == players.end() ? 0 : static_cast<int>(it - players.begin());
}

std::vector<std::vector<int>> round_robin_groups(int num_players, int seats) {
  if (num_players < seats)
    throw InputError("arena: " + std::to_string(seats) + "-player game needs at least " + std::to_string(seats) +
                     " players, got " + std::to_string(num_players) +
                     "; each entry of the list is one player, so list a baseline more than once to fill seats "
                     "with copies of it (random,random,random)");
  std::vector<std::vector<int>> out;
  std::vector<int> current;
  combinations(num_players, seats, 0, current, out);
  return out;
}

std::vector<std::vector<int>> focus_groups(int focus, int num_players, int seats) {
  std::vector<std::vector<int>> out;
  for (auto& group : round_robin_groups(num_players, seats))
    if (std::find(group.begin(), group.end(), focus) != group.end()) out.push_back(group);
  return out;
}

std::vector<std::vector<int>> seat_orders(const std::vector<int>& group) {
  std::vector<std::vector<int>> out;
  if (group.empty()) return out;
  // Bases: the first player fixed in seat 0, the others in every order. Each permutation is
  // exactly one rotation of exactly one base.
  std::vector<int> rest(group.begin() + 1, group.end());
  std::sort(rest.begin(), rest.end());
  do {
    std::vector<int> order = {group[0]};
    order.insert(order.end(), rest.begin(), rest.end());
    for (std::size_t r = 0; r < order.size(); ++r) {
      out.push_back(order);
      std::rotate(order.begin(), order.end() - 1, order.end());
    }
  } while (std::next_permutation(rest.begin(), rest.end()));
  return out;
}

namespace {

void check_arena(const Game& game, const std::vector<std::string>& players,
                 const std::vector<std::vector<int>>& groups, const BotFactory& factory,
                 const ArenaOptions& options) {
  if (options.games < 1) throw InputError("arena: games must be at least 1, got " + std::to_string(options.games));
  if (static_cast<std::int64_t>(options.games) * static_cast<std::int64_t>(groups.size()) > kMaxArenaGames)
    throw InputError("arena: " + std::to_string(options.games) + " games for each of " + std::to_string(groups.size()) +
                     " group(s) of players is more than the " + std::to_string(kMaxArenaGames) +
                     " games one arena plays");
  if (options.threads < 0 || options.threads > kMaxArenaThreads)
    throw InputError("arena: threads must be 0 (every core) to " + std::to_string(kMaxArenaThreads) + ", got " +
                     std::to_string(options.threads));
  if (options.opening_turns && *options.opening_turns < 0) throw InputError("arena: opening_turns must be 0 or more");
  if (!(options.max_seconds >= 0) || !std::isfinite(options.max_seconds))
    throw InputError("arena: max_seconds must be a finite number of seconds, 0 or more");
  if (groups.empty()) throw InputError("arena: no group of players to play");
  // The rating options too, so that they fail before the games rather than after.
  if (options.anchor < 0 || options.anchor >= static_cast<int>(players.size()))
    throw InputError("arena: anchor " + std::to_string(options.anchor) + " is not a player (there are " +
                     std::to_string(players.size()) + ")");
  if (!(options.prior_draws >= 0) || !std::isfinite(options.prior_draws)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", options.prior_draws);
    throw InputError(std::string("arena: prior_draws must be 0 or more, got ") + text);
  }
  for (const auto& group : groups) {
    if (static_cast<int>(group.size()) != game.num_players())
      throw InputError("arena: a group of " + std::to_string(group.size()) + " players for a " +
                       std::to_string(game.num_players()) + "-player game");
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (group[i] < 0 || group[i] >= static_cast<int>(players.size()))
        throw InputError("arena: no player " + std::to_string(group[i]));
      // A player is one entrant: the same spec twice in a game is two entries in the list.
      if (std::find(group.begin(), group.begin() + static_cast<std::ptrdiff_t>(i), group[i]) !=
          group.begin() + static_cast<std::ptrdiff_t>(i))
        throw InputError("arena: player " + std::to_string(group[i]) + " twice in one group");
    }
  }
  // Check every spec once up front, so a typo fails before any game is played.
  for (const auto& spec : players) factory(spec, game, 0);
}

// Pairings, standings and the ratings of the report's games.
void tally(ArenaReport& report, const ArenaOptions& options) {
  const int n = static_cast<int>(report.players.size());
  std::vector<Pairing> table(static_cast<std::size_t>(n * n));
  std::vector<double> return_sum(n, 0.0), rank_sum(n, 0.0);
  report.standings.assign(n, Standing{});
  for (const ArenaGame& g : report.games) {
    const std::size_t seats = g.seats.size();
    report.truncated += g.truncated;
    for (std::size_t s = 0; s < seats; ++s) {
      Standing& standing = report.standings[g.seats[s]];
      ++standing.games;
      standing.truncated += g.truncated;
      standing.moves += g.moves[s];
      standing.think_seconds += g.think_seconds[s];
      return_sum[g.seats[s]] += g.returns[s];
      int better = 0, equal = 0;
      for (std::size_t t = 0; t < seats; ++t) {
        better += g.returns[t] > g.returns[s];
        equal += g.returns[t] == g.returns[s];
        if (s == t) continue;
        Pairing& p = table[g.seats[s] * n + g.seats[t]];
        if (g.returns[s] > g.returns[t]) ++p.wins;
        else if (g.returns[s] < g.returns[t]) ++p.losses;
        else ++p.draws;
        const double points = pair_points(g.returns[s], g.returns[t], static_cast<int>(seats), report.return_span);
        p.points += points;
        if (seats == 2 && s == 0) {
          ++p.games_first;
          p.points_first += points;
        }
      }
      rank_sum[g.seats[s]] += 1 + better + (equal - 1) / 2.0;
    }
  }
  for (int p = 0; p < n; ++p) {
    Standing& standing = report.standings[p];
    if (standing.games == 0) {  // no mean to take: NaN, shown as "no games" and null, never as a 0
      standing.mean_return = standing.mean_rank = std::numeric_limits<double>::quiet_NaN();
      continue;
    }
    standing.mean_return = return_sum[p] / standing.games;
    standing.mean_rank = rank_sum[p] / standing.games;
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      Pairing p = table[a * n + b];
      if (p.games() == 0) continue;
      p.a = a;
      p.b = b;
      report.pairings.push_back(p);
    }
  }
  report.elo = fit_rankings(n, report.outcomes(), options.anchor, options.prior_draws);
}

}  // namespace

ArenaReport run_arena(const Game& game, const std::vector<std::string>& players,
                      const std::vector<std::vector<int>>& groups, const BotFactory& factory,
                      const ArenaOptions& options) {
  check_arena(game, players, groups, factory, options);
  struct Job {
    int group;
    std::vector<int> seats;
    std::uint64_t opening_seed;
    std::uint64_t bot_seed;
  };
  std::vector<Job> jobs;
  const int seats = game.num_players();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto orders = seat_orders(groups[g]);
    for (int k = 0; k < options.games; ++k) {
      const auto rotation = static_cast<std::uint64_t>(k / seats);
      jobs.push_back({static_cast<int>(g), orders[k % orders.size()], mix(mix(options.seed, g), rotation),
                      mix(mix(options.seed ^ 0xb07ULL, g), static_cast<std::uint64_t>(k))});
    }
  }

  ArenaReport report;
  report.game = game.to_string();
  report.seats = seats;
  report.return_span = game.type().max_return - game.type().min_return;
  report.players = players;
  report.planned = static_cast<int>(jobs.size());
  std::vector<std::optional<ArenaGame>> played(jobs.size());
  const int threads = std::max(1, options.threads > 0 ? options.threads
                                                      : static_cast<int>(std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex mutex;
  ArenaProgress progress;
  progress.total = static_cast<int>(jobs.size());
  const auto start = std::chrono::steady_clock::now();
  const std::function<bool()> halted = [&] {
    return stop_requested() ||
           (options.max_seconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= options.max_seconds);
  };
  const int opening_turns = options.opening_turns.value_or(game.traits().arena_opening_turns);
  auto worker = [&]() {
    for (std::size_t i; !failed && !halted() && (i = next++) < jobs.size();) {
      try {
        const Job& job = jobs[i];
        std::optional<ArenaGame> result = play_one(game, players, job.seats, job.opening_seed, job.bot_seed,
                                                   opening_turns, factory, halted);
        if (!result) return;
        result->group = job.group;
        std::lock_guard lock(mutex);
        played[i] = std::move(result);
        ++progress.done;
        progress.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (options.progress) options.progress(progress);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failed) error = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < std::min<int>(threads, static_cast<int>(jobs.size())); ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  for (auto& g : played)
    if (g) report.games.push_back(std::move(*g));
  report.stopped = static_cast<int>(report.games.size()) < report.planned;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  tally(report, options);
  return report;
}

}  // namespace boardlab
