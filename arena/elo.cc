// Pairwise results as two-player rankings for the Plackett–Luce fit.
#include "arena/elo.h"

#include <cmath>
#include <string>

#include "core/errors.h"

namespace boardlab {

EloFit fit_elo(int num_players, const std::vector<PairResult>& results, int anchor, double prior_draws) {
  check_rating_options("fit_elo", num_players, anchor, prior_draws);
  std::vector<Ranking> rankings;
  for (const PairResult& r : results) {
    if (r.a < 0 || r.a >= num_players || r.b < 0 || r.b >= num_players || r.a == r.b)
      throw InputError("fit_elo: bad pair " + std::to_string(r.a) + " vs " + std::to_string(r.b));
    if (!(r.wins >= 0 && r.draws >= 0 && r.losses >= 0) || !std::isfinite(r.wins + r.draws + r.losses))
      throw InputError("fit_elo: result counts must be finite and 0 or more");
    rankings.push_back({{{r.a}, {r.b}}, r.wins});
    rankings.push_back({{{r.a, r.b}}, r.draws});
    rankings.push_back({{{r.b}, {r.a}}, r.losses});
  }
  return fit_rankings(num_players, rankings, anchor, prior_draws);
}

}  // namespace boardlab
