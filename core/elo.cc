// Newton's method on the Bradley–Terry (Elo) log-likelihood, with Eigen for the linear algebra.
#include "core/elo.h"

#include <Eigen/Dense>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.h"

namespace boardlab {
namespace {

constexpr double kScale = 400.0 / 2.302585092994046;  // Elo points per natural-log unit of odds

}  // namespace

EloFit fit_elo(int num_players, const std::vector<PairResult>& results, int anchor, double prior_draws) {
  if (num_players < 1) throw InputError("fit_elo: need at least one player");
  if (anchor < 0 || anchor >= num_players) throw InputError("fit_elo: anchor " + std::to_string(anchor) + " is not a player");
  if (!(prior_draws >= 0) || !std::isfinite(prior_draws)) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", prior_draws);
    throw InputError(std::string("fit_elo: prior_draws must be 0 or more, got ") + text);
  }
  // Scores and game counts per pair, draws as half points.
  struct Pair {
    int a, b;
    double score, games;
  };
  std::vector<Pair> pairs;
  for (const PairResult& r : results) {
    if (r.a < 0 || r.a >= num_players || r.b < 0 || r.b >= num_players || r.a == r.b)
      throw InputError("fit_elo: bad pair " + std::to_string(r.a) + " vs " + std::to_string(r.b));
    if (!(r.wins >= 0 && r.draws >= 0 && r.losses >= 0) || !std::isfinite(r.wins + r.draws + r.losses))
      throw InputError("fit_elo: result counts must be finite and 0 or more");
    const double games = r.wins + r.draws + r.losses;
    if (games == 0) continue;
    pairs.push_back({r.a, r.b, r.wins + 0.5 * r.draws + 0.5 * prior_draws, games + prior_draws});
  }
  // Ratings in natural-log units for every player but the anchor.
  std::vector<int> index(num_players, -1);
  int free_count = 0;
  for (int p = 0; p < num_players; ++p)
    if (p != anchor) index[p] = free_count++;
  Eigen::VectorXd theta = Eigen::VectorXd::Zero(free_count);
  Eigen::MatrixXd info = Eigen::MatrixXd::Zero(free_count, free_count);
  auto rating = [&](int p) { return index[p] < 0 ? 0.0 : theta[index[p]]; };

  EloFit fit;
  for (fit.iterations = 1; free_count > 0 && fit.iterations <= 100; ++fit.iterations) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(free_count);
    info.setZero();
    for (const Pair& pr : pairs) {
      const double p = 1.0 / (1.0 + std::exp(rating(pr.b) - rating(pr.a)));
      const double g = pr.score - pr.games * p;  // d logL / d theta_a
      const double h = pr.games * p * (1 - p);
      const int ia = index[pr.a], ib = index[pr.b];
      if (ia >= 0) {
        grad[ia] += g;
        info(ia, ia) += h;
      }
      if (ib >= 0) {
        grad[ib] -= g;
        info(ib, ib) += h;
      }
      if (ia >= 0 && ib >= 0) {
        info(ia, ib) -= h;
        info(ib, ia) -= h;
      }
    }
    // A tiny ridge keeps players who never met the anchor's group from making it singular.
    info.diagonal().array() += 1e-9;
    Eigen::VectorXd step = info.ldlt().solve(grad);
    // Damped Newton: a step of more than 2 log-odds units (~800 Elo) is cut back.
    const double largest = step.cwiseAbs().maxCoeff();
    if (largest > 2.0) step *= 2.0 / largest;
    theta += step;
    if (largest < 1e-10) break;
  }
  if (free_count == 0) fit.iterations = 0;
  const Eigen::MatrixXd covariance = info.ldlt().solve(Eigen::MatrixXd::Identity(free_count, free_count));
  for (int p = 0; p < num_players; ++p) {
    const double elo = kScale * rating(p);
    const double se = index[p] < 0 ? 0.0 : kScale * std::sqrt(std::max(0.0, covariance(index[p], index[p])));
    fit.elo.push_back(elo);
    fit.standard_error.push_back(se);
    fit.low.push_back(elo - 1.96 * se);
    fit.high.push_back(elo + 1.96 * se);
  }
  return fit;
}

}  // namespace boardlab
