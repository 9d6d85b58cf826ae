// Regret matching+ on a normal-form table, the seats' action values under mixed strategies, and NashConv.
#include "mcts/matrix_game.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace boardlab {

std::size_t PayoffTable::cells() const {
  return std::accumulate(dims.begin(), dims.end(), std::size_t{1}, std::multiplies<>());
}

void action_values(const PayoffTable& table, std::span<const std::vector<double>> strategies, std::size_t k,
                   std::vector<double>& out) {
  const std::size_t seats = table.seats(), cells = table.cells();
  out.assign(static_cast<std::size_t>(table.dims[k]), 0.0);
  std::vector<int> digit(seats, 0);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    double others = 1;
    for (std::size_t j = 0; j < seats && others > 0; ++j)
      if (j != k) others *= strategies[j][static_cast<std::size_t>(digit[j])];
    out[static_cast<std::size_t>(digit[k])] += others * table.payoff[cell * seats + k];
    // The next cell's digits: seat 0's lowest.
    for (std::size_t j = 0; j < seats && ++digit[j] == table.dims[j]; ++j) digit[j] = 0;
  }
}

double nash_conv(const PayoffTable& table, std::span<const std::vector<double>> strategies) {
  double total = 0;
  std::vector<double> values;
  for (std::size_t k = 0; k < table.seats(); ++k) {
    action_values(table, strategies, k, values);
    const double mine = std::inner_product(values.begin(), values.end(), strategies[k].begin(), 0.0);
    total += *std::max_element(values.begin(), values.end()) - mine;
  }
  return total;
}

namespace {

// σ ∝ the positive regrets, uniform where none is positive.
void match_regrets(const std::vector<double>& regret, std::vector<double>& strategy) {
  const double positive = std::accumulate(regret.begin(), regret.end(), 0.0);
  for (std::size_t a = 0; a < regret.size(); ++a)
    strategy[a] = positive > 0 ? regret[a] / positive : 1.0 / static_cast<double>(regret.size());
}

}  // namespace

std::vector<std::vector<double>> solve_equilibrium(const PayoffTable& table, int iterations, double tolerance) {
  const std::size_t seats = table.seats();
  std::vector<std::vector<double>> current(seats), regret(seats), average(seats), normalized(seats);
  for (std::size_t k = 0; k < seats; ++k) {
    const auto n = static_cast<std::size_t>(table.dims[k]);
    current[k].assign(n, 1.0 / static_cast<double>(n));
    regret[k].assign(n, 0.0);
    average[k].assign(n, 0.0);
  }
  std::vector<double> values;
  double weight_sum = 0;
  iterations = std::max(iterations, 1);
  for (int t = 1; t <= iterations; ++t) {
    // Alternating: each seat answers the others' strategies as they stand after their own update.
    for (std::size_t k = 0; k < seats; ++k) {
      action_values(table, current, k, values);
      const double mine = std::inner_product(values.begin(), values.end(), current[k].begin(), 0.0);
      for (std::size_t a = 0; a < values.size(); ++a) regret[k][a] = std::max(0.0, regret[k][a] + values[a] - mine);
      match_regrets(regret[k], current[k]);
      for (std::size_t a = 0; a < values.size(); ++a) average[k][a] += t * current[k][a];
    }
    weight_sum += t;
    if (t % 100 != 0 && t != iterations) continue;
    for (std::size_t k = 0; k < seats; ++k) {
      normalized[k] = average[k];
      for (double& p : normalized[k]) p /= weight_sum;
    }
    if (nash_conv(table, normalized) < tolerance) break;
  }
  return normalized;
}

}  // namespace boardlab
