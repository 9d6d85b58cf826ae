// Evaluation games of a training run, their files and their metrics columns.
#include "nn/run_evaluator.h"

#include <algorithm>
#include <cmath>

#include "arena/arena.h"
#include "core/steps.h"
#include "files/atomic_file.h"
#include "nn/agent_bot.h"

namespace boardlab {
namespace {

// Draws and passes of the network's own games (player 0's), read back from their records.
void tally_network_games(const Game& game, const ArenaReport& report, RunEvaluation& out) {
  int games = 0, draws = 0;
  std::int64_t turns = 0, passes = 0;
  const Action pass = game.traits().pass_action;
  for (const ArenaGame& g : report.games) {
    int seat = -1;
    for (std::size_t s = 0; s < g.seats.size(); ++s)
      if (g.seats[s] == 0) seat = static_cast<int>(s);
    if (seat < 0) continue;
    ++games;
    draws += is_draw(g.returns) ? 1 : 0;
    if (pass == kInvalidAction) continue;
    const std::unique_ptr<State> final_state = game.load_record(g.record);
    const TurnCount count = count_turns(final_state->history(), pass, seat);
    turns += count.turns;
    passes += count.passes;
  }
  out.draw_rate = games > 0 ? static_cast<double>(draws) / games : std::nan("");
  out.pass_rate = pass != kInvalidAction && turns > 0 ? static_cast<double>(passes) / static_cast<double>(turns)
                                                      : std::nan("");
}

}  // namespace

RunEvaluator::RunEvaluator(const Game& game, const RunEvaluatorOptions& options, RunFolder& run)
    : game_(&game), options_(options), run_(&run), ladder_(find_ladder(game)) {
  for (const std::string& o : options_.opponents)
    if (std::find(scored_.begin(), scored_.end(), o) == scored_.end()) scored_.push_back(o);
}

std::vector<std::string> RunEvaluator::opponents() const {
  std::vector<std::string> out = options_.opponents;
  if (ladder_)
    for (std::string& rung : ladder_->around(ladder_elo_, options_.ladder_rungs, options_.opponents))
      out.push_back(std::move(rung));
  return out;
}

void RunEvaluator::rate_on_ladder(const ArenaReport& report, RunEvaluation& out) {
  if (!ladder_) {
    if (options_.ladder_rungs > 0 && !said_no_ladder_)
      run_->log("no stored ladder for " + game_->to_string() + " (" + ladder_file(game_->name()) +
                "): evaluations rate the network against their own opponents only");
    said_no_ladder_ = true;
    return;
  }
  for (const std::string& p : report.players)
    if (ladder_->find(p) >= 0) out.ladder_opponents.push_back(p);
  if (out.ladder_opponents.empty()) return;
  const EloFit fit = boardlab::rate_on_ladder(*ladder_, report);
  if (!fit.rated[0]) return;
  out.ladder_elo = fit.elo[0];
  out.ladder_low = fit.low[0];
  out.ladder_high = fit.high[0];
  ladder_elo_ = out.ladder_elo;
}

std::optional<RunEvaluation> RunEvaluator::evaluate(std::shared_ptr<const Model> network, std::int64_t step,
                                                    double max_seconds) {
  const std::string current_name = "net@" + std::to_string(step);
  std::vector<std::string> players = {current_name};
  for (const auto& o : opponents()) players.push_back(o);
  std::string previous_name;
  if (options_.previous && previous_ && previous_step_ != step) {
    previous_name = "net@" + std::to_string(previous_step_);
    players.push_back(previous_name);
  }
  const std::shared_ptr<const Model> previous = previous_;
  const BotFactory factory = [&](std::string_view spec, const Game& g, std::uint64_t seed) -> std::unique_ptr<Bot> {
    if (spec == current_name) return make_network_bot(network, g, options_.search, seed);
    if (!previous_name.empty() && spec == previous_name) return make_network_bot(previous, g, options_.search, seed);
    return make_any_bot(spec, g, seed);
  };
  ArenaOptions arena;
  arena.games = options_.games;
  arena.seed = options_.seed * 1000003 + static_cast<std::uint64_t>(step);
  arena.anchor = default_anchor(players);
  arena.max_seconds = max_seconds;
  // The ladder's ratings hold for games opened as its own were.
  if (ladder_) arena.opening_turns = ladder_->opening_turns;
  Model::set_torch_threads(1);
  const ArenaReport report = run_arena(*game_, players, focus_groups(0, static_cast<int>(players.size()),
                                                                       game_->num_players()),
                                       factory, arena);
  if (report.stopped) {
    run_->log("evaluation at step " + std::to_string(step) + " stopped after " + std::to_string(report.games.size()) +
              " of " + std::to_string(report.planned) + " games (" + metric_number(report.seconds, 0) +
              " s); none recorded");
    return std::nullopt;
  }
  const std::string base = run_->evaluation_base(step);
  write_file_atomically(base + ".txt", report.table());
  write_file_atomically(base + ".json", report.json());

  RunEvaluation out;
  out.step = step;
  out.table = report.table();
  out.elo = report.elo.elo[0];
  out.low = report.elo.low[0];
  out.high = report.elo.high[0];
  out.seconds = report.seconds;
  rate_on_ladder(report, out);
  auto score_against = [&](const std::string& name) {
    double points = 0;
    int games = 0;
    for (const Pairing& p : report.pairings)
      if (p.a == 0 && players[static_cast<std::size_t>(p.b)] == name) {
        points += p.points;
        games += p.games();
      }
    return games > 0 ? points / games : std::nan("");
  };
  for (const auto& o : scored_) out.scores.push_back(score_against(o));
  out.scores.push_back(previous_name.empty() ? std::nan("") : score_against(previous_name));
  tally_network_games(*game_, report, out);
  previous_ = std::move(network);
  previous_step_ = step;
  std::string ladder_line;
  if (!std::isnan(out.ladder_elo))
    ladder_line = "ladder rating " + rating_text(out.ladder_elo, out.ladder_low, out.ladder_high) +
                  " (rungs held at their stored ratings)\n";
  run_->log("evaluation at step " + std::to_string(step) + " (" + metric_number(report.seconds, 0) + " s):\n" +
            out.table + ladder_line);
  return out;
}

std::vector<std::string> RunEvaluator::metric_columns() const {
  std::vector<std::string> columns = {"elo", "elo_low", "elo_high", "ladder_elo", "ladder_low", "ladder_high"};
  for (const auto& o : scored_) columns.push_back("score_vs_" + o);
  columns.push_back("score_vs_previous");
  columns.push_back("eval_draw_rate");
  columns.push_back("eval_pass_rate");
  return columns;
}

MetricsRow RunEvaluator::metrics(const RunEvaluation& e) const {
  MetricsRow row;
  row["elo"] = metric_number(e.elo, 1);
  row["elo_low"] = metric_number(e.low, 1);
  row["elo_high"] = metric_number(e.high, 1);
  row["ladder_elo"] = metric_number(e.ladder_elo, 1);
  row["ladder_low"] = metric_number(e.ladder_low, 1);
  row["ladder_high"] = metric_number(e.ladder_high, 1);
  for (std::size_t i = 0; i < scored_.size(); ++i) row["score_vs_" + scored_[i]] = metric_number(e.scores[i], 3);
  row["score_vs_previous"] = metric_number(e.scores.back(), 3);
  row["eval_draw_rate"] = metric_number(e.draw_rate, 3);
  row["eval_pass_rate"] = metric_number(e.pass_rate, 3);
  return row;
}

}  // namespace boardlab
