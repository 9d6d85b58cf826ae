// Final score margins per seat, scaled onto [-1, 1].
#include "core/score_margin.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"

namespace boardlab {

void score_margins(const State& final, std::span<float> out) {
  const Game& game = final.game();
  const double max_margin = game.traits().max_score_margin;
  if (!(max_margin > 0)) throw InputError(game.name() + " declares no final score, so it has no score margin");
  const int seats = game.num_players();
  if (out.size() != static_cast<std::size_t>(seats))
    throw InputError("score margins: " + std::to_string(out.size()) + " outputs for " + std::to_string(seats) +
                     " players of " + game.name());
  // Thread-local: the search reads margins at every terminal leaf and must not allocate there.
  thread_local std::vector<double> score;
  score.resize(static_cast<std::size_t>(seats));
  final.scores(score);
  for (Player p = 0; p < seats; ++p) {
    double best_other = -std::numeric_limits<double>::infinity();
    for (Player q = 0; q < seats; ++q)
      if (q != p) best_other = std::max(best_other, score[q]);
    const double margin = seats > 1 ? score[p] - best_other : score[p];
    if (!std::isfinite(margin)) throw InputError(game.name() + "'s final score is not a finite number");
    out[p] = static_cast<float>(std::clamp(margin / max_margin, -1.0, 1.0));
  }
}

}  // namespace boardlab
