// The equilibrium of a small normal-form game: regret matching+ over a table of n seats' payoffs.
//
// A simultaneous round searched as a matrix game (SimultaneousSelection::kMatrix) ends with
// such a table: every seat's few candidate actions, each joint of them valued by the search.
// Each seat's policy is then its strategy in an equilibrium of that table: a best response
// to the others' mixed strategies, not the action with the best value on average over the
// others' samples, which is what decoupled selection estimates.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace boardlab {

// `dims[k]` actions for seat k; payoff[cell * seats + k] is seat k's payoff at joint action
// `cell`, a mixed-radix index of the seats' actions with seat 0's lowest.
struct PayoffTable {
  std::vector<int> dims;
  std::vector<double> payoff;

  std::size_t seats() const { return dims.size(); }
  std::size_t cells() const;
};

// Seat k's expected payoff for each of its actions when every other seat j plays
// strategies[j] (a distribution over its dims[j] actions), into out.
void action_values(const PayoffTable& table, std::span<const std::vector<double>> strategies, std::size_t k,
                   std::vector<double>& out);

// Σ over seats of what a best response gains on the seat's payoff under `strategies`
// (NashConv): 0 exactly at an equilibrium; half of it is a two-seat zero-sum game's
// exploitability.
double nash_conv(const PayoffTable& table, std::span<const std::vector<double>> strategies);

// Regret matching+ with alternating updates and linearly weighted averages (Tammelin et
// al. 2015), up to `iterations` rounds or until the averages' NashConv is below `tolerance`.
// The averages approach a Nash equilibrium in two-seat zero-sum tables (Squares, the
// matrix toys) and a coarse correlated equilibrium's marginals otherwise.
std::vector<std::vector<double>> solve_equilibrium(const PayoffTable& table, int iterations = 4000,
                                                   double tolerance = 1e-4);

}  // namespace boardlab
