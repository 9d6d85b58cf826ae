// The training run's one-line progress report.
#include "nn/progress_line.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace boardlab {

std::string duration(double seconds) {
  const auto s = static_cast<long>(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

std::string progress_line(const MetricsRow& row, std::int64_t step, const TrainConfig& cfg,
                          const std::optional<RunEvaluation>& last_eval, std::int64_t replay_positions,
                          double elapsed, double eta) {
  auto cell = [&](const char* name) {
    const auto it = row.find(name);
    return it == row.end() || it->second.empty() ? std::string("-") : it->second;
  };
  std::string line = "step " + std::to_string(step) + "/" + std::to_string(cfg.run.max_steps) + " | games " +
                     cell("games") + " | " + cell("positions_per_s") + " pos/s, " + cell("simulations_per_s") +
                     " sims/s, batch " + cell("mean_batch");
  if (row.contains("policy_loss")) line += " | loss policy " + row.at("policy_loss") + " value " + row.at("value_loss");
  if (last_eval && !std::isnan(last_eval->ladder_elo))
    line += " | ladder " + rating_text(last_eval->ladder_elo, last_eval->ladder_low, last_eval->ladder_high);
  else if (last_eval)
    line += " | elo " + rating_text(last_eval->elo, last_eval->low, last_eval->high) + " (" +
            (cfg.evaluation.opponents.empty() ? std::string("first opponent") : cfg.evaluation.opponents.front()) + " = 0)";
  else if (replay_positions < cfg.replay.min_positions)
    line += " | filling replay " + std::to_string(replay_positions) + "/" + std::to_string(cfg.replay.min_positions);
  return line + " | " + duration(elapsed) + " elapsed, ETA " + duration(eta);
}

}  // namespace boardlab
