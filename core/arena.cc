// Arena scheduling, parallel play and result tables.
#include "core/arena.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

#include "core/errors.h"
#include "core/random_play.h"

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

std::vector<std::vector<int>> permutations(std::vector<int> group) {
  std::vector<std::vector<int>> out;
  std::sort(group.begin(), group.end());
  do out.push_back(group);
  while (std::next_permutation(group.begin(), group.end()));
  return out;
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  Rng rng(a * 0x9e3779b97f4a7c15ULL + b);
  return rng();
}

ArenaGame play_one(const Game& game, const std::vector<std::string>& players, const std::vector<int>& seats,
                   std::uint64_t opening_seed, std::uint64_t bot_seed, int opening_turns, const BotFactory& factory) {
  std::vector<std::unique_ptr<Bot>> bots;
  for (std::size_t s = 0; s < seats.size(); ++s) bots.push_back(factory(players[seats[s]], game, mix(bot_seed, s)));
  std::unique_ptr<State> state = game.new_initial_state();
  // Chance draws its own stream, so that the opening's stream is the same for every seating.
  Rng opening(opening_seed), chance(opening_seed ^ 0xc4a2ceULL);
  std::vector<Action> joint;
  ArenaGame result;
  result.seats = seats;
  while (!state->is_terminal() && state->move_number() < opening_turns)
    apply_random_step(*state, state->is_chance_node() ? chance : opening, joint);
  while (!state->is_terminal()) {
    const Player mover = state->current_player();
    if (mover == kChancePlayer) {
      state->apply(state->random_legal_action(chance));
    } else if (mover == kSimultaneousPlayer) {
      joint.resize(seats.size());
      for (Player p = 0; p < static_cast<Player>(seats.size()); ++p) joint[p] = bots[p]->act(PlayerView(*state, p));
      state->apply_joint(joint);
    } else {
      state->apply(bots[mover]->act(PlayerView(*state, mover)));
    }
  }
  result.returns = state->returns();
  const std::vector<Step> history = state->history();
  result.length = static_cast<int>(history.size());
  result.record = state->record();
  return result;
}

std::string fixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string signed_fixed(double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.0f", value);
  return buf;
}

std::string pad(const std::string& s, std::size_t width, bool left = true) {
  if (s.size() >= width) return s;
  return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, as
// player specs such as "mcts:simulations=64,c_puct=2" do.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

int default_anchor(const std::vector<std::string>& players) {
  const auto it = std::find(players.begin(), players.end(), "random");
  return it == players.end() ? 0 : static_cast<int>(it - players.begin());
}

std::vector<std::vector<int>> round_robin_groups(int num_players, int seats) {
  if (num_players < seats)
    throw InputError("arena: " + std::to_string(seats) + "-player game needs at least " + std::to_string(seats) +
                     " players, got " + std::to_string(num_players));
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

ArenaReport run_arena(const Game& game, const std::vector<std::string>& players,
                      const std::vector<std::vector<int>>& groups, const BotFactory& factory,
                      const ArenaOptions& options) {
  if (options.games < 1) throw InputError("arena: games must be at least 1, got " + std::to_string(options.games));
  if (options.opening_turns < 0) throw InputError("arena: opening_turns must be 0 or more");
  if (groups.empty()) throw InputError("arena: no group of players to play");
  // The rating options too, so that they fail before the games rather than after.
  if (options.anchor < 0 || options.anchor >= static_cast<int>(players.size()))
    throw InputError("arena: anchor " + std::to_string(options.anchor) + " is not a player (there are " +
                     std::to_string(players.size()) + ")");
  if (!(options.prior_draws >= 0) || !std::isfinite(options.prior_draws))
    throw InputError("arena: prior_draws must be 0 or more, got " + fixed(options.prior_draws, 2));
  for (const auto& group : groups) {
    if (static_cast<int>(group.size()) != game.num_players())
      throw InputError("arena: a group of " + std::to_string(group.size()) + " players for a " +
                       std::to_string(game.num_players()) + "-player game");
    for (int p : group)
      if (p < 0 || p >= static_cast<int>(players.size())) throw InputError("arena: no player " + std::to_string(p));
  }
  // Check every spec once up front, so a typo fails before any game is played.
  for (const auto& spec : players) factory(spec, game, 0);

  struct Job {
    int group;
    std::vector<int> seats;
    std::uint64_t opening_seed;
    std::uint64_t bot_seed;
  };
  std::vector<Job> jobs;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto orders = permutations(groups[g]);
    for (int k = 0; k < options.games; ++k) {
      const auto opening = static_cast<std::uint64_t>(k / static_cast<int>(orders.size()));
      jobs.push_back({static_cast<int>(g), orders[k % orders.size()], mix(mix(options.seed, g), opening),
                      mix(mix(options.seed ^ 0xb07ULL, g), static_cast<std::uint64_t>(k))});
    }
  }

  ArenaReport report;
  report.game = game.to_string();
  report.players = players;
  report.games.resize(jobs.size());
  const int threads = std::max(1, options.threads > 0 ? options.threads
                                                      : static_cast<int>(std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex mutex;
  ArenaProgress progress;
  progress.total = static_cast<int>(jobs.size());
  const auto start = std::chrono::steady_clock::now();
  auto worker = [&]() {
    for (std::size_t i; !failed && (i = next++) < jobs.size();) {
      try {
        const Job& job = jobs[i];
        ArenaGame result =
            play_one(game, players, job.seats, job.opening_seed, job.bot_seed, options.opening_turns, factory);
        result.group = job.group;
        std::lock_guard lock(mutex);
        report.games[i] = std::move(result);
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
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // Every pair of seats in a game is one pairwise result: the higher return wins.
  const int n = static_cast<int>(players.size());
  std::vector<Pairing> table(static_cast<std::size_t>(n * n));
  for (const ArenaGame& g : report.games) {
    for (std::size_t s = 0; s < g.seats.size(); ++s) {
      for (std::size_t t = 0; t < g.seats.size(); ++t) {
        if (s == t) continue;
        Pairing& p = table[g.seats[s] * n + g.seats[t]];
        if (g.returns[s] > g.returns[t]) ++p.wins;
        else if (g.returns[s] < g.returns[t]) ++p.losses;
        else ++p.draws;
      }
    }
  }
  std::vector<PairResult> results;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      Pairing p = table[a * n + b];
      if (p.games() == 0) continue;
      p.a = a;
      p.b = b;
      report.pairings.push_back(p);
      results.push_back({a, b, static_cast<double>(p.wins), static_cast<double>(p.draws), static_cast<double>(p.losses)});
    }
  }
  report.elo = fit_elo(n, results, options.anchor, options.prior_draws);
  return report;
}

std::string ArenaReport::table() const {
  std::size_t width = 8;
  for (const auto& p : players) width = std::max(width, p.size() + 2);
  std::string out = pad("pairing", 2 * width + 4) + pad("wins", 7, false) + pad("draws", 7, false) +
                    pad("losses", 8, false) + pad("score", 9, false) + "\n";
  for (const Pairing& p : pairings)
    out += pad(players[p.a], width) + " vs " + pad(players[p.b], width) + pad(std::to_string(p.wins), 7, false) +
           pad(std::to_string(p.draws), 7, false) + pad(std::to_string(p.losses), 8, false) +
           pad(fixed(100 * p.score(), 1) + "%", 9, false) + "\n";
  out += "\n" + pad("player", width) + pad("elo", 7, false) + "   95% interval\n";
  for (std::size_t i = 0; i < players.size(); ++i) {
    out += pad(players[i], width) + pad(signed_fixed(elo.elo[i]), 7, false);
    out += elo.standard_error[i] == 0 && elo.elo[i] == 0
               ? "   (anchor)\n"
               : "   [" + signed_fixed(elo.low[i]) + ", " + signed_fixed(elo.high[i]) + "]\n";
  }
  return out;
}

std::string ArenaReport::json() const {
  std::string out = "{\"game\": " + json_string(game) + ", \"games\": " + std::to_string(games.size()) +
                    ", \"seconds\": " + fixed(seconds, 3) + ", \"players\": [";
  for (std::size_t i = 0; i < players.size(); ++i) {
    out += std::string(i ? ", " : "") + "{\"name\": " + json_string(players[i]) + ", \"elo\": " + fixed(elo.elo[i], 2) +
           ", \"stderr\": " + fixed(elo.standard_error[i], 2) + ", \"low\": " + fixed(elo.low[i], 2) +
           ", \"high\": " + fixed(elo.high[i], 2) + "}";
  }
  out += "], \"pairings\": [";
  for (std::size_t i = 0; i < pairings.size(); ++i) {
    const Pairing& p = pairings[i];
    out += std::string(i ? ", " : "") + "{\"a\": " + json_string(players[p.a]) + ", \"b\": " + json_string(players[p.b]) +
           ", \"wins\": " + std::to_string(p.wins) + ", \"draws\": " + std::to_string(p.draws) +
           ", \"losses\": " + std::to_string(p.losses) + ", \"score\": " + fixed(p.score(), 4) + "}";
  }
  return out + "]}";
}

std::string ArenaReport::elo_csv() const {
  std::string out = "player,elo,stderr,low,high\n";
  for (std::size_t i = 0; i < players.size(); ++i)
    out += csv_field(players[i]) + "," + fixed(elo.elo[i], 2) + "," + fixed(elo.standard_error[i], 2) + "," +
           fixed(elo.low[i], 2) + "," + fixed(elo.high[i], 2) + "\n";
  return out;
}

std::string ArenaReport::pairings_csv() const {
  std::string out = "a,b,wins,draws,losses,score\n";
  for (const Pairing& p : pairings)
    out += csv_field(players[p.a]) + "," + csv_field(players[p.b]) + "," + std::to_string(p.wins) + "," +
           std::to_string(p.draws) + "," + std::to_string(p.losses) + "," + fixed(p.score(), 4) + "\n";
  return out;
}

std::string ArenaReport::records() const {
  std::string out;
  for (const ArenaGame& g : games) {
    std::string seats;
    for (int p : g.seats) seats += (seats.empty() ? "" : ",") + players[p];
    std::string returns;
    for (double r : g.returns) returns += (returns.empty() ? "" : ",") + fixed(r, 2);
    out += "[" + seats + "] [" + returns + "] " + g.record + "\n";
  }
  return out;
}

}  // namespace boardlab
