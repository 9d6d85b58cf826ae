// The batched search loop.
#include "mcts/search_driver.h"

#include <algorithm>

#include "core/stop.h"

namespace boardlab {

bool SearchDriver::step(std::span<Search* const> searches) {
  requests_.clear();
  owners_.clear();
  bool active = false;
  for (Search* search : searches) {
    if (search->done()) continue;
    active = true;
    const int count = search->collect();
    if (count == 0) continue;
    const auto requests = search->requests();
    requests_.insert(requests_.end(), requests.begin(), requests.end());
    owners_.emplace_back(search, count);
  }
  if (requests_.empty()) return active;
  if (evals_.size() < requests_.size()) evals_.resize(requests_.size());
  const std::span<Evaluation> evals(evals_.data(), requests_.size());
  evaluator_->evaluate(requests_, evals);
  ++stats_.evaluator_calls;
  stats_.evaluations += requests_.size();
  std::size_t offset = 0;
  for (const auto& [search, count] : owners_) {
    search->backup(evals.subspan(offset, count));
    offset += count;
  }
  return true;
}

void SearchDriver::run(std::span<Search* const> searches) {
  while (step(searches)) {
    if (stop_requested() && std::all_of(searches.begin(), searches.end(), [](Search* s) { return s->has_result(); }))
      return;
  }
}

}  // namespace boardlab
