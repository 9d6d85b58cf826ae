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
  evaluate(evals);
  std::size_t offset = 0;
  for (const auto& [search, count] : owners_) {
    search->backup(evals.subspan(offset, count));
    offset += count;
  }
  return true;
}

void SearchDriver::evaluate(std::span<Evaluation> evals) {
  const std::int64_t version =
      cache_.capacity() > 0 ? evaluator_->answer_version() : Evaluator::kNotReusable;
  if (version == Evaluator::kNotReusable) {
    evaluator_->evaluate(requests_, evals);
    ++stats_.evaluator_calls;
    stats_.evaluations += requests_.size();
    return;
  }
  const std::size_t n = requests_.size();
  missed_.clear();
  keys_.resize(n);
  answer_of_.resize(n);
  in_call_.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const EvalRequest& request = requests_[i];
    keys_[i] = request.state->hash();
    // The legal count guards against the rare hash collision, whose answer would not fit.
    if (cache_.find(keys_[i], request.player, version, evals[i]) && evals[i].prior.size() == request.legal.size()) {
      answer_of_[i] = -1;
      continue;
    }
    const auto next = static_cast<std::int32_t>(missed_.size());
    answer_of_[i] = in_call_.insert(keys_[i], static_cast<std::uint64_t>(request.player), next);
    if (answer_of_[i] == next) missed_.push_back(request);
  }
  stats_.reused += n - missed_.size();
  if (missed_.empty()) return;
  if (missed_evals_.size() < missed_.size()) missed_evals_.resize(missed_.size());
  const std::span<Evaluation> answers(missed_evals_.data(), missed_.size());
  evaluator_->evaluate(missed_, answers);
  ++stats_.evaluator_calls;
  stats_.evaluations += missed_.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (answer_of_[i] < 0) continue;
    const Evaluation& answer = answers[static_cast<std::size_t>(answer_of_[i])];
    evals[i] = answer;
    cache_.store(keys_[i], requests_[i].player, version, answer);
  }
}

void SearchDriver::run(std::span<Search* const> searches, const StopToken* stop) {
  while (step(searches)) {
    if ((stop_requested() || (stop != nullptr && stop->requested())) && std::all_of(searches.begin(), searches.end(), [](Search* s) { return s->has_result(); }))
      return;
  }
}

}  // namespace boardlab
