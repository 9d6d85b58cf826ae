// Returns by rank for games of n players: +1 for the first place down to −1 for the last, linearly, ties averaged, so that they sum to zero.
#pragma once

#include <cstddef>
#include <span>

namespace boardlab {

// `standing[p]` orders the seats, higher is better (tokens held, how long a player lasted);
// seats with equal standings share the mean of the places they span. Two players get +1 and
// −1, or 0 and 0 when tied.
template <typename T>
void rank_returns(std::span<const T> standing, std::span<double> out) {
  const std::size_t n = standing.size();
  for (std::size_t p = 0; p < n; ++p) {
    int better = 0, equal = 0;
    for (std::size_t q = 0; q < n; ++q) {
      better += standing[q] > standing[p];
      equal += standing[q] == standing[p];
    }
    const double place = better + (equal - 1) / 2.0;  // 0 for the first, n − 1 for the last
    out[p] = n == 1 ? 0 : 1.0 - 2.0 * place / static_cast<double>(n - 1);
  }
}

}  // namespace boardlab
