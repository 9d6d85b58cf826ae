// Elo ratings by maximum likelihood from pairwise results, with 95% confidence intervals.
#pragma once

#include <string>
#include <vector>

namespace boardlab {

// Results of player `a` against player `b`: a's wins, draws, a's losses.
struct PairResult {
  int a = 0;
  int b = 0;
  double wins = 0;
  double draws = 0;
  double losses = 0;
};

struct EloFit {
  std::vector<double> elo;     // anchor at 0
  std::vector<double> standard_error;  // of each rating (0 for the anchor)
  std::vector<double> low;      // 95% interval: elo ± 1.96 · stderr
  std::vector<double> high;
  int iterations = 0;
};

// Maximises the likelihood of the scores under P(a beats b) = 1 / (1 + 10^((Rb − Ra)/400)),
// a draw counting as half a win and half a loss, with player `anchor` fixed at 0. The
// interval comes from the inverse observed information (Eigen). `prior_draws` virtual
// draws are added to every pair that played, so that a player who won every game gets a
// finite rating (BayesElo's prior); 0 gives the plain maximum likelihood.
EloFit fit_elo(int num_players, const std::vector<PairResult>& results, int anchor = 0, double prior_draws = 1.0);

}  // namespace boardlab
