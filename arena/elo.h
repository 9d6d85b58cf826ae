// Elo ratings from pairwise results: the two-player case of the whole-ranking fit (arena/ratings.h).
#pragma once

#include <vector>

#include "arena/ratings.h"

namespace boardlab {

// Results of player `a` against player `b`: a's wins, draws, a's losses.
struct PairResult {
  int a = 0;
  int b = 0;
  double wins = 0;
  double draws = 0;
  double losses = 0;
};

// Maximises the likelihood of the scores under P(a beats b) = 1 / (1 + 10^((Rb − Ra)/400)),
// a draw counting as half a win and half a loss, with player `anchor` fixed at 0. The
// interval comes from the inverse observed information. `prior_draws` virtual draws are
// added to every pair that played, so that a player who won every game gets a finite
// rating (BayesElo's prior); 0 gives the plain maximum likelihood. This is fit_rankings of
// the two-player rankings the results stand for, so the two never disagree. Results that
// come from games of more than two players are not independent: rate those games with
// fit_rankings instead, or the intervals come out too narrow.
EloFit fit_elo(int num_players, const std::vector<PairResult>& results, int anchor = 0, double prior_draws = 1.0);

}  // namespace boardlab
