// Helpers shared by the search tests of every node kind: running a search, catching input errors, proven vectors.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/player_view.h"
#include "mcts/search.h"
#include "mcts/search_driver.h"

namespace boardlab {

// Runs `search` from `view` to the end with `evaluator` (at the config's budget, or `budget`)
// and returns its result.
inline SearchResult search_from(Search& search, const PlayerView& view, Evaluator& evaluator,
                                const std::optional<SearchBudget>& budget = std::nullopt) {
  if (budget) search.start(view, *budget);
  else search.start(view);
  SearchDriver driver(evaluator);
  Search* searches[] = {&search};
  driver.run(searches);
  EXPECT_TRUE(search.done());
  return search.result();
}

// A node's proven return vector, empty when it is not proven.
inline std::vector<float> proven_vector(const Tree& tree, std::int32_t node) {
  if (!tree.is_proven(node)) return {};
  const std::span<const float> value = tree.proven_value(node);
  return {value.begin(), value.end()};
}

}  // namespace boardlab
