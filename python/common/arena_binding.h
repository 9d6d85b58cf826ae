// Arena and player bindings shared by _boardlab (search players) and _boardlab_nn (network players too).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "../module/arguments.h"
#include "../module/handles.h"
#include "arena/arena.h"
#include "arena/ladder.h"
#include "core/bot.h"
#include "core/errors.h"
#include "ladder_dict.h"
#include "stoppable.h"

namespace boardlab::python {

// A number the report does not have (NaN) is None, as it is null in the JSON form.
inline pybind11::object number_or_none(double value) {
  namespace py = pybind11;
  return std::isnan(value) ? py::object(py::none()) : py::object(py::float_(value));
}

// Groups a caller named: each of `seats` distinct players among `n`.
inline std::vector<std::vector<int>> checked_groups(const std::vector<std::vector<int>>& groups, int n, int seats) {
  if (groups.empty()) throw InputError("arena: groups is empty");
  for (const auto& group : groups) {
    if (static_cast<int>(group.size()) != seats)
      throw InputError("arena: a group of " + std::to_string(group.size()) + " players; the game seats " +
                       std::to_string(seats));
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (group[i] < 0 || group[i] >= n)
        throw InputError("arena: group player " + std::to_string(group[i]) + " is not one of the " +
                         std::to_string(n) + " players");
      for (std::size_t j = 0; j < i; ++j)
        if (group[j] == group[i]) throw InputError("arena: player " + std::to_string(group[i]) + " twice in a group");
    }
  }
  return groups;
}

// Every player rated against a stored ladder: its rungs held, the others fitted (arena/ladder.h).
inline pybind11::dict ladder_dict(const Ladder& ladder, const std::string& file, const ArenaReport& report,
                                  double prior_draws) {
  namespace py = pybind11;
  const std::vector<std::string>& all = report.players;
  py::list ratings;
  bool any_rung = false;
  for (const std::string& player : all) any_rung = any_rung || ladder.find(player) >= 0;
  if (any_rung) {
    const EloFit fit = rate_on_ladder(ladder, report, prior_draws);
    for (std::size_t i = 0; i < all.size(); ++i)
      ratings.append(py::dict(py::arg("player") = all[i], py::arg("rung") = ladder.find(all[i]) >= 0,
                              py::arg("rated") = static_cast<bool>(fit.rated[i]),
                              py::arg("elo") = number_or_none(fit.elo[i]),
                              py::arg("low") = number_or_none(fit.low[i]), py::arg("high") = number_or_none(fit.high[i])));
  }
  py::dict out = ladder_to_dict(ladder);
  out["file"] = file;
  out["ratings"] = ratings;
  return out;
}

// The report as a dict; a number it does not have (NaN: the rating of a player no game links
// to the anchor, the means of a player with no games) is None, as it is null in the JSON form.
inline pybind11::dict report_dict(const ArenaReport& report, const std::vector<std::string>& all, int stopped_by) {
  namespace py = pybind11;
  py::list elo;
  for (std::size_t i = 0; i < all.size(); ++i)
    elo.append(py::dict(py::arg("player") = all[i], py::arg("rated") = static_cast<bool>(report.elo.rated[i]),
                        py::arg("elo") = number_or_none(report.elo.elo[i]),
                        py::arg("stderr") = number_or_none(report.elo.standard_error[i]),
                        py::arg("low") = number_or_none(report.elo.low[i]), py::arg("high") = number_or_none(report.elo.high[i])));
  py::list standings;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Standing& s = report.standings[i];
    standings.append(py::dict(py::arg("player") = all[i], py::arg("games") = s.games,
                              py::arg("mean_return") = number_or_none(s.mean_return),
                              py::arg("mean_rank") = number_or_none(s.mean_rank),
                              py::arg("truncated") = s.truncated, py::arg("moves") = s.moves,
                              py::arg("ms_per_move") = number_or_none(s.ms_per_move())));
  }
  py::list pairings;
  for (const Pairing& p : report.pairings)
    pairings.append(py::dict(py::arg("a") = all[p.a], py::arg("b") = all[p.b], py::arg("wins") = p.wins,
                             py::arg("draws") = p.draws, py::arg("losses") = p.losses, py::arg("score") = p.score(),
                             py::arg("score_first") = number_or_none(p.score_first()),
                             py::arg("score_second") = number_or_none(p.score_second())));
  py::list records;
  for (const ArenaGame& g : report.games) {
    std::vector<std::string> seats;
    for (int s : g.seats) seats.push_back(all[s]);
    records.append(py::dict(py::arg("group") = g.group, py::arg("seats") = seats, py::arg("returns") = g.returns,
                            py::arg("truncated") = g.truncated, py::arg("length") = g.length,
                            py::arg("record") = g.record));
  }
  py::dict out(py::arg("game") = report.game, py::arg("seats") = report.seats, py::arg("players") = all,
               py::arg("elo") = elo, py::arg("converged") = report.elo.converged, py::arg("standings") = standings,
               py::arg("pairings") = pairings, py::arg("games") = records, py::arg("truncated") = report.truncated,
               py::arg("seconds") = report.seconds, py::arg("planned") = report.planned,
               py::arg("return_span") = report.return_span,
               py::arg("stopped") = report.stopped, py::arg("signal") = stopped_by);
  out["table"] = report.table();
  out["json"] = report.json();
  out["elo_csv"] = report.elo_csv();
  out["pairings_csv"] = report.pairings_csv();
  out["standings_csv"] = report.standings_csv();
  out["records"] = report.records();
  return out;
}

// Plays an arena with the GIL released. `against` names one player to play all the others
// (else round robin); progress, when asked, is a line on standard error updated per game.
// Ctrl-C or SIGTERM ends it early with the games played so far: the result then says
// stopped=True and the signal, for the caller to report.
// `groups` (indices into `players`) replaces the round robin; `ladder` also rates every player
// against the game's stored ladder (arena/ladder.h), the rungs held at their stored ratings.
inline pybind11::dict run_arena_with(const BotFactory& factory, const GameHandle& game,
                                     const std::vector<std::string>& players, int games,
                                     const std::optional<std::string>& against, std::uint64_t seed, int threads,
                                     std::optional<int> opening_turns, bool progress, double prior_draws,
                                     const std::optional<std::vector<std::vector<int>>>& groups = std::nullopt,
                                     bool ladder = false) {
  namespace py = pybind11;
  if (players.size() < 2 && !against) throw InputError("arena: name at least two players");
  if (groups && against) throw InputError("arena: give groups or against, not both");
  std::optional<Ladder> stored;
  if (ladder && !(stored = find_ladder(*game.game)))
    throw InputError("arena: " + game.game->to_string() + " has no stored ladder (" + ladder_file(game.game->name()) +
                     "; build one with `boardlab ladder`)");
  std::vector<std::string> all = players;
  int focus = -1;
  if (against) {
    focus = 0;
    all.insert(all.begin(), *against);
  }
  ArenaOptions options;
  options.games = games;
  options.seed = seed;
  options.threads = threads;
  options.opening_turns = opening_turns;
  options.prior_draws = prior_draws;
  options.anchor = default_anchor(all);
  if (progress) {
    options.progress = [](const ArenaProgress& p) {
      std::fprintf(stderr, "\r  %d/%d games, %.2f games/s, ETA %.0f s   ", p.done, p.total, p.games_per_second(),
                   p.eta_seconds());
      if (p.done == p.total) std::fprintf(stderr, "\n");
      std::fflush(stderr);
    };
  }
  const int n = static_cast<int>(all.size());
  const auto played = groups ? checked_groups(*groups, n, game.game->num_players())
                     : focus >= 0 ? focus_groups(focus, n, game.game->num_players())
                                  : round_robin_groups(n, game.game->num_players());
  const auto [report, stopped_by] = run_stoppable([&] { return run_arena(*game.game, all, played, factory, options); });
  if (progress && report.stopped) std::fprintf(stderr, "\n");  // the progress line stays as it was
  py::dict out = report_dict(report, all, stopped_by);
  out["ladder"] = stored ? ladder_dict(*stored, ladder_file(game.game->name()), report, prior_draws) : py::object(py::none());
  return out;
}

// Defines run_arena() and make_bot() on `m` for the given factory.
inline void bind_arena(pybind11::module_& m, BotFactory factory) {
  namespace py = pybind11;
  m.def(
      "run_arena",
      [factory](const GameHandle& game, const std::vector<TextArg>& players, const IntArg& games,
                const std::optional<TextArg>& against, const SeedArg& seed, const IntArg& threads,
                const std::optional<IntArg>& opening_turns, bool progress, double prior_draws,
                const std::optional<std::vector<std::vector<int>>>& groups, bool ladder) {
        return run_arena_with(factory, game, text_args(players, "run_arena: players"),
                              int_arg<int>(games, "run_arena: games", 1), text_arg(against, "run_arena: against"),
                              seed_arg(seed, "run_arena: seed"), int_arg<int>(threads, "run_arena: threads"),
                              int_arg<int>(opening_turns, "run_arena: opening_turns"), progress, prior_draws, groups,
                              ladder);
      },
      py::arg("game"), py::arg("players"), py::arg("games") = 100, py::arg("against") = py::none(),
      py::arg("seed") = 0, py::arg("threads") = 0, py::arg("opening_turns") = py::none(), py::arg("progress") = false,
      py::arg("prior_draws") = 1.0, py::arg("groups") = py::none(), py::arg("ladder") = false,
      "Plays `games` games per group of players (as many as the game seats) on all cores, round robin or "
      "`against` with each group of the others, each game opened by `opening_turns` random turns (None: the "
      "game's own number, game.traits().arena_opening_turns), and returns the results: pairwise table, standings (games, "
      "mean return, mean rank), and ratings fitted to each game's outcome (Plackett-Luce on the Elo scale: for "
      "two players Elo of pair_score, so chips count and not only hands won; for more, the ranking) with 95% "
      "intervals; a player no game links to the anchor (one with no "
      "games) has rated=False and None for its rating, interval and means. Ctrl-C or SIGTERM stops it early: the "
      "results then hold the games played, with stopped=True, planned (the games scheduled) and signal. `groups` "
      "(lists of indices into players, as many as the game seats) replaces the round robin; ladder=True also "
      "rates every player against the game's stored ladder (its rungs held at their stored ratings): "
      "result['ladder'], else None.");
  m.def(
      "make_bot",
      [factory](const TextArg& spec, const GameHandle& game, const SeedArg& seed) {
        return factory(text_arg(spec, "make_bot: spec"), *game.game, seed_arg(seed, "make_bot: seed"));
      },
      py::arg("spec"), py::arg("game"), py::arg("seed") = 0,
      "A player from a spec (random, heuristic, uct:N, mcts(key=value,...); agent:PATH(key=value,...) with the network "
      "module).");
}

}  // namespace boardlab::python
