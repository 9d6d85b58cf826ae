// The self-play columns of metrics.csv, as rates over the interval since the previous row.
#include "nn/self_play_metrics.h"

namespace boardlab {

std::vector<std::string> SelfPlayMetrics::columns() {
  return {"games_per_s", "positions_per_s", "simulations_per_s", "mean_batch", "evaluations_per_simulation",
          "game_length", "draw_rate", "pass_rate", "truncated_rate", "network_lag"};
}

MetricsRow SelfPlayMetrics::take(const ActorPool& actors, const Game& game) {
  const SelfPlayTally t = actors.tally();
  const std::uint64_t sims = actors.simulations(), searches = actors.searches();
  const InferenceStats inference = actors.inference_stats();
  const auto now = Clock::now();
  const double paused = actors.paused_seconds();
  // Over the time the actors played: an evaluation's row follows a pause of a minute.
  const double seconds = std::chrono::duration<double>(now - last_time_).count() - (paused - last_paused_);
  MetricsRow row;
  const double games = static_cast<double>(t.games - last_.games);
  if (seconds > 0.5) {  // less play than that (a row right after a pause) gives no rate worth a row
    row["games_per_s"] = metric_number(games / seconds, 2);
    row["positions_per_s"] = metric_number(static_cast<double>(searches - last_searches_) / seconds, 1);
    row["simulations_per_s"] = metric_number(static_cast<double>(sims - last_sims_) / seconds, 0);
  }
  if (inference.batches > last_inference_.batches)
    row["mean_batch"] = metric_number(static_cast<double>(inference.positions - last_inference_.positions) /
                                          static_cast<double>(inference.batches - last_inference_.batches),
                                      1);
  // Network evaluations per simulation: raised where each search evaluates its root and
  // where a simultaneous round asks once per seat (Squares: about 2), lowered where the
  // evaluation cache (search.cache_positions) answers positions seen before.
  if (sims > last_sims_)
    row["evaluations_per_simulation"] = metric_number(
        static_cast<double>(inference.positions - last_inference_.positions) / static_cast<double>(sims - last_sims_), 3);
  if (games > 0) {
    row["game_length"] = metric_number(static_cast<double>(t.turns - last_.turns) / games, 1);
    row["draw_rate"] = metric_number(static_cast<double>(t.draws - last_.draws) / games, 3);
    row["truncated_rate"] = metric_number(static_cast<double>(t.truncated - last_.truncated) / games, 3);
    row["network_lag"] = metric_number(static_cast<double>(t.network_lag - last_.network_lag) / games, 1);
    if (game.traits().pass_action != kInvalidAction && t.seat_turns > last_.seat_turns)
      row["pass_rate"] = metric_number(
          static_cast<double>(t.passes - last_.passes) / static_cast<double>(t.seat_turns - last_.seat_turns), 3);
  }
  last_ = t;
  last_sims_ = sims;
  last_searches_ = searches;
  last_inference_ = inference;
  last_time_ = now;
  last_paused_ = paused;
  return row;
}

}  // namespace boardlab
