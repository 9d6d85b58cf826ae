// Newton's method on the Plackett–Luce log-likelihood of rankings with ties, with Eigen for the linear algebra.
#include "arena/ratings.h"

#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "core/errors.h"

namespace boardlab {
namespace {

constexpr int kMaxIterations = 100;
// A Newton step longer than this (in natural-log units, ~800 Elo) is cut back: far from the
// optimum the quadratic model overshoots, and a runaway rating should run away slowly.
constexpr double kMaxStep = 2.0;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// The log-likelihood of a set of rankings, reduced to what Newton's method needs:
// Σ_p linear[p]·θp − Σ_U coefficient_U · log Σ_{j∈U} e^θj over subsets U of two or more
// players (a one-player subset's term is linear and lives in `linear`).
struct Model {
  std::vector<double> linear;
  std::vector<std::pair<std::vector<int>, double>> terms;
};

class ModelBuilder {
 public:
  explicit ModelBuilder(int num_players) : linear_(num_players, 0.0) {}

  // Adds `weight` games ranked `groups` (already checked).
  void add(const std::vector<std::vector<int>>& groups, double weight) {
    std::vector<int> remaining;
    for (const auto& group : groups) remaining.insert(remaining.end(), group.begin(), group.end());
    std::sort(remaining.begin(), remaining.end());
    for (const auto& group : groups) {
      const int k = static_cast<int>(group.size());
      for (int p : group) linear_[p] += weight;
      // T: the players of the group already placed, as a bit mask over the group.
      for (unsigned mask = 0; mask + 1 < (1u << k); ++mask) {
        const int t = std::popcount(mask);
        std::vector<int> rest;
        for (int p : remaining) {
          const auto at = std::find(group.begin(), group.end(), p);
          if (at == group.end() || !(mask >> (at - group.begin()) & 1u)) rest.push_back(p);
        }
        const double coefficient = weight / binomial(k, t);
        if (rest.size() == 1) linear_[rest[0]] -= coefficient;
        else terms_[rest] += coefficient;
      }
      for (int p : group) remaining.erase(std::find(remaining.begin(), remaining.end(), p));
    }
  }

  Model build() && {
    Model model{std::move(linear_), {}};
    for (auto& [subset, coefficient] : terms_) model.terms.emplace_back(subset, coefficient);
    return model;
  }

 private:
  static double binomial(int k, int t) {
    double out = 1;
    for (int i = 1; i <= t; ++i) out = out * (k - t + i) / i;
    return out;
  }

  std::vector<double> linear_;
  std::map<std::vector<int>, double> terms_;
};

// Checks every ranking, then builds the model of the rankings plus `prior_draws` virtual
// draws between every two players that met.
Model build_model(int num_players, const std::vector<Ranking>& rankings, double prior_draws) {
  ModelBuilder builder(num_players);
  std::vector<char> met(static_cast<std::size_t>(num_players) * num_players, 0);
  std::vector<char> seen(num_players, 0);
  std::map<std::vector<std::vector<int>>, double> distinct;
  for (const Ranking& ranking : rankings) {
    if (!(ranking.weight >= 0) || !std::isfinite(ranking.weight))
      throw InputError("fit_rankings: a ranking's weight must be finite and 0 or more, got " + number(ranking.weight));
    std::vector<int> players;
    for (const auto& group : ranking.groups) {
      if (group.empty()) throw InputError("fit_rankings: a ranking has an empty group");
      if (static_cast<int>(group.size()) > kMaxTiedGroup)
        throw InputError("fit_rankings: a tie of " + std::to_string(group.size()) + " players; at most " +
                         std::to_string(kMaxTiedGroup) + " may tie");
      for (int p : group) {
        if (p < 0 || p >= num_players)
          throw InputError("fit_rankings: no player " + std::to_string(p) + " (there are " +
                           std::to_string(num_players) + ")");
        if (seen[p]) {
          for (int q : players) seen[q] = 0;
          throw InputError("fit_rankings: player " + std::to_string(p) + " appears twice in one ranking");
        }
        seen[p] = 1;
        players.push_back(p);
      }
    }
    for (int p : players) seen[p] = 0;
    if (ranking.weight == 0) continue;
    // Identical rankings (tied players in any order) are expanded once, with their weights summed.
    std::vector<std::vector<int>> canonical = ranking.groups;
    for (auto& group : canonical) std::sort(group.begin(), group.end());
    distinct[canonical] += ranking.weight;
    for (int a : players)
      for (int b : players) met[static_cast<std::size_t>(a) * num_players + b] = 1;
  }
  for (const auto& [groups, weight] : distinct) builder.add(groups, weight);
  if (prior_draws > 0)
    for (int a = 0; a < num_players; ++a)
      for (int b = a + 1; b < num_players; ++b)
        if (met[static_cast<std::size_t>(a) * num_players + b]) builder.add({{a, b}}, prior_draws);
  return std::move(builder).build();
}

// log Σ_{j∈subset} e^θj, and the softmax weights of the subset in `weights`.
double log_sum_exp(const std::vector<int>& subset, std::span<const double> theta, std::vector<double>& weights) {
  double top = theta[subset[0]];
  for (int p : subset) top = std::max(top, theta[p]);
  double sum = 0;
  weights.resize(subset.size());
  for (std::size_t i = 0; i < subset.size(); ++i) sum += weights[i] = std::exp(theta[subset[i]] - top);
  for (double& w : weights) w /= sum;
  return top + std::log(sum);
}

double log_likelihood(const Model& model, std::span<const double> theta) {
  double out = 0;
  std::vector<double> weights;
  for (std::size_t p = 0; p < model.linear.size(); ++p) out += model.linear[p] * theta[p];
  for (const auto& [subset, coefficient] : model.terms) out -= coefficient * log_sum_exp(subset, theta, weights);
  return out;
}

// Which players games link to the held players (`held[p]` not NaN): a held player that played
// and every player met (in a ranking of weight above 0) by a player linked. The rest have no
// rating relative to the held ones.
std::vector<char> linked_to(std::span<const double> held, int num_players, const std::vector<Ranking>& rankings) {
  std::vector<std::vector<int>> games_of(num_players);  // the weighted rankings each player is in
  for (std::size_t r = 0; r < rankings.size(); ++r)
    if (rankings[r].weight > 0)
      for (const auto& group : rankings[r].groups)
        for (int p : group) games_of[p].push_back(static_cast<int>(r));
  std::vector<char> linked(num_players, 0), ranking_seen(rankings.size(), 0);
  std::vector<int> frontier;
  for (int p = 0; p < num_players; ++p)
    if (!std::isnan(held[p]) && !games_of[p].empty()) {
      linked[p] = 1;
      frontier.push_back(p);
    }
  while (!frontier.empty()) {
    const int p = frontier.back();
    frontier.pop_back();
    for (int r : games_of[p]) {
      if (ranking_seen[r]) continue;
      ranking_seen[r] = 1;
      for (const auto& group : rankings[r].groups)
        for (int q : group)
          if (!linked[q]) {
            linked[q] = 1;
            frontier.push_back(q);
          }
    }
  }
  return linked;
}

}  // namespace

void check_rating_options(std::string_view who, int num_players, int anchor, double prior_draws) {
  const std::string prefix = std::string(who) + ": ";
  if (num_players < 1) throw InputError(prefix + "need at least one player");
  if (anchor < 0 || anchor >= num_players) throw InputError(prefix + "anchor " + std::to_string(anchor) + " is not a player");
  if (!(prior_draws >= 0) || !std::isfinite(prior_draws))
    throw InputError(prefix + "prior_draws must be 0 or more, got " + number(prior_draws));
}

Ranking ranking_from_returns(std::span<const int> players, std::span<const double> returns) {
  if (players.size() != returns.size())
    throw InputError("ranking_from_returns: " + std::to_string(players.size()) + " players but " +
                     std::to_string(returns.size()) + " returns");
  std::vector<std::size_t> order(players.size());
  for (std::size_t s = 0; s < order.size(); ++s) order[s] = s;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return returns[a] > returns[b]; });
  Ranking ranking;
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || returns[order[i]] != returns[order[i - 1]]) ranking.groups.emplace_back();
    ranking.groups.back().push_back(players[order[i]]);
  }
  return ranking;
}

double pair_score(double mine, double theirs, double span) {
  if (!(span > 0) || !std::isfinite(span))
    throw InputError("pair_score: the range of the returns must be positive and finite, got " + number(span));
  if (!std::isfinite(mine) || !std::isfinite(theirs))
    throw InputError("pair_score: returns must be finite, got " + number(mine) + " and " + number(theirs));
  return std::clamp(0.5 + (mine - theirs) / (2 * span), 0.0, 1.0);
}

double pair_points(double mine, double theirs, int seats, double span) {
  if (seats < 2) throw InputError("pair_points: a pairing needs at least 2 seats, got " + std::to_string(seats));
  if (seats == 2) return pair_score(mine, theirs, span);
  return mine > theirs ? 1.0 : mine == theirs ? 0.5 : 0.0;
}

void append_outcomes(std::span<const int> players, std::span<const double> returns, double span,
                     std::vector<Ranking>& out) {
  if (players.size() != 2) {
    out.push_back(ranking_from_returns(players, returns));
    return;
  }
  if (returns.size() != 2)
    throw InputError("append_outcomes: 2 players but " + std::to_string(returns.size()) + " returns");
  const double first = pair_score(returns[0], returns[1], span);
  const int a = players[0], b = players[1];
  if (first == 0.5) {
    out.push_back({{{a, b}}, 1.0});
    return;
  }
  if (first > 0) out.push_back({{{a}, {b}}, first});
  if (first < 1) out.push_back({{{b}, {a}}, 1 - first});
}

double rankings_log_likelihood(int num_players, const std::vector<Ranking>& rankings, std::span<const double> theta) {
  check_rating_options("rankings_log_likelihood", num_players, 0, 0.0);
  if (static_cast<int>(theta.size()) != num_players)
    throw InputError("rankings_log_likelihood: " + std::to_string(theta.size()) + " strengths for " +
                     std::to_string(num_players) + " players");
  return log_likelihood(build_model(num_players, rankings, 0.0), theta);
}

EloFit fit_rankings(int num_players, const std::vector<Ranking>& rankings, int anchor, double prior_draws) {
  check_rating_options("fit_rankings", num_players, anchor, prior_draws);
  std::vector<double> held(num_players, std::numeric_limits<double>::quiet_NaN());
  held[anchor] = 0;
  EloFit fit = fit_rankings_held(num_players, rankings, held, prior_draws);
  fit.anchor = anchor;
  return fit;
}

EloFit fit_rankings_held(int num_players, const std::vector<Ranking>& rankings, std::span<const double> held_elo,
                         double prior_draws) {
  check_rating_options("fit_rankings_held", num_players, 0, prior_draws);
  if (static_cast<int>(held_elo.size()) != num_players)
    throw InputError("fit_rankings_held: " + std::to_string(held_elo.size()) + " held ratings for " +
                     std::to_string(num_players) + " players");
  int anchor = -1;
  for (int p = 0; p < num_players; ++p) {
    if (std::isinf(held_elo[p]))
      throw InputError("fit_rankings_held: player " + std::to_string(p) + "'s held rating is infinite");
    if (anchor < 0 && !std::isnan(held_elo[p])) anchor = p;
  }
  if (anchor < 0) throw InputError("fit_rankings_held: no player's rating is held, so nothing fixes the scale");
  const Model model = build_model(num_players, rankings, prior_draws);
  // Strengths in natural-log units; the players whose ratings are not held are free.
  std::vector<int> index(num_players, -1);
  std::vector<double> theta(num_players, 0.0);
  int free_count = 0;
  for (int p = 0; p < num_players; ++p) {
    if (std::isnan(held_elo[p])) index[p] = free_count++;
    else theta[p] = held_elo[p] / kEloPerNat;
  }
  Eigen::MatrixXd info = Eigen::MatrixXd::Zero(free_count, free_count);
  std::vector<double> weights;

  EloFit fit;
  fit.anchor = anchor;
  fit.converged = free_count == 0;
  for (fit.iterations = 1; free_count > 0 && fit.iterations <= kMaxIterations; ++fit.iterations) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(free_count);
    info.setZero();
    for (int p = 0; p < num_players; ++p)
      if (index[p] >= 0) grad[index[p]] += model.linear[p];
    for (const auto& [subset, coefficient] : model.terms) {
      log_sum_exp(subset, theta, weights);
      // The term's gradient is coefficient·softmax and its curvature coefficient·(diag(s) − s·sᵀ).
      for (std::size_t i = 0; i < subset.size(); ++i) {
        const int a = index[subset[i]];
        if (a < 0) continue;
        grad[a] -= coefficient * weights[i];
        info(a, a) += coefficient * weights[i];
        for (std::size_t j = 0; j < subset.size(); ++j) {
          const int b = index[subset[j]];
          if (b >= 0) info(a, b) -= coefficient * weights[i] * weights[j];
        }
      }
    }
    // A tiny ridge keeps players who never met the anchor's group from making it singular.
    info.diagonal().array() += 1e-9;
    Eigen::VectorXd step = info.ldlt().solve(grad);
    const double largest = step.cwiseAbs().maxCoeff();
    if (largest > kMaxStep) step *= kMaxStep / largest;
    for (int p = 0; p < num_players; ++p)
      if (index[p] >= 0) theta[p] += step[index[p]];
    if (largest < 1e-10) {
      fit.converged = true;
      break;
    }
  }
  if (free_count == 0) fit.iterations = 0;
  const Eigen::MatrixXd covariance = info.ldlt().solve(Eigen::MatrixXd::Identity(free_count, free_count));
  const std::vector<char> linked = linked_to(held_elo, num_players, rankings);
  for (int p = 0; p < num_players; ++p) {
    fit.rated.push_back(linked[p] != 0);
    const double unrated = std::numeric_limits<double>::quiet_NaN();
    const double elo = !linked[p] ? unrated : index[p] < 0 ? held_elo[p] : kEloPerNat * theta[p];
    const double se = !linked[p]    ? unrated
                      : index[p] < 0 ? 0.0
                                     : kEloPerNat * std::sqrt(std::max(0.0, covariance(index[p], index[p])));
    fit.elo.push_back(elo);
    fit.standard_error.push_back(se);
    fit.low.push_back(elo - 1.96 * se);
    fit.high.push_back(elo + 1.96 * se);
  }
  return fit;
}

}  // namespace boardlab
