// Deals weighted by the likelihood of the other seats' past decisions in each (see deal_belief.h).
#include "mcts/deal_belief.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"

namespace boardlab {

void DealBelief::start(const PlayerView& view, int deals, int window, Rng& rng) {
  deals_.clear();
  decisions_.clear();
  requests_.clear();
  for (int d = 0; d < deals; ++d) {
    deals_.push_back(view.sample(rng));
    if (deals_.back()->starts_from_initial_state()) add_decisions(d, view.viewer(), window);
  }
  for (const Decision& decision : decisions_)
    requests_.push_back({decision.state.get(), decision.state->current_player(), decision.legal});
  weights_.assign(deals_.size(), 1.0);
  normalize();
}

void DealBelief::add_decisions(int deal, Player viewer, int window) {
  // Replays the deal from the initial state, keeping the state before each decision of
  // another seat; only the last `window` of them stay.
  const State& target = *deals_[static_cast<std::size_t>(deal)];
  const std::size_t first = decisions_.size();
  std::unique_ptr<State> state = target.game().new_initial_state();
  for (const Step& step : target.history()) {
    if (step.player >= 0 && step.player != viewer) {
      Decision decision{deal, state->clone(), state->legal_actions(step.player), 0};
      const auto it = std::lower_bound(decision.legal.begin(), decision.legal.end(), step.action);
      if (it == decision.legal.end() || *it != step.action)
        throw InputError("deal belief: " + target.game().name() + ": a drawn deal's history has seat " +
                         std::to_string(step.player) + " play action " + std::to_string(step.action) +
                         ", which is not legal when replayed from the initial state");
      decision.taken = static_cast<std::size_t>(it - decision.legal.begin());
      decisions_.push_back(std::move(decision));
    }
    state->apply(step.action);
  }
  const std::size_t count = decisions_.size() - first;
  if (window > 0 && count > static_cast<std::size_t>(window))
    decisions_.erase(decisions_.begin() + static_cast<std::ptrdiff_t>(first),
                     decisions_.end() - static_cast<std::ptrdiff_t>(window));
}

void DealBelief::weigh(std::span<const Evaluation> evals, float floor) {
  if (evals.size() != decisions_.size())
    throw InputError("deal belief: " + std::to_string(evals.size()) + " evaluations for " +
                     std::to_string(decisions_.size()) + " past decisions");
  if (deals_.empty()) return;
  std::vector<double> log_weight(deals_.size(), 0.0);
  for (std::size_t i = 0; i < decisions_.size(); ++i) {
    const Decision& decision = decisions_[i];
    const std::vector<float>& prior = evals[i].prior;
    if (prior.size() != decision.legal.size())
      throw InputError("deal belief: the evaluator returned " + std::to_string(prior.size()) + " priors for " +
                       std::to_string(decision.legal.size()) + " legal actions");
    double total = 0;
    for (float p : prior) total += std::max(p, 0.0f);
    const double n = static_cast<double>(prior.size());
    const double model = total > 0 ? std::max(prior[decision.taken], 0.0f) / total : 1.0 / n;
    log_weight[static_cast<std::size_t>(decision.deal)] += std::log((1.0 - floor) * model + floor / n);
  }
  // With no floor every deal can be ruled out; then none is preferred.
  double top = *std::max_element(log_weight.begin(), log_weight.end());
  if (!std::isfinite(top)) {
    std::fill(log_weight.begin(), log_weight.end(), 0.0);
    top = 0;
  }
  for (std::size_t d = 0; d < deals_.size(); ++d) weights_[d] = std::exp(log_weight[d] - top);
  normalize();
}

void DealBelief::normalize() {
  double sum = 0;
  for (double w : weights_) sum += w;
  cumulative_.resize(weights_.size());
  double running = 0;
  for (std::size_t d = 0; d < weights_.size(); ++d) {
    weights_[d] /= sum;
    cumulative_[d] = running += weights_[d];
  }
}

std::unique_ptr<State> DealBelief::draw(Rng& rng) const {
  if (deals_.empty()) throw InputError("deal belief: no deals drawn (start() first)");
  const double pick = rng.uniform() * cumulative_.back();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), pick);
  const auto index = std::min<std::size_t>(static_cast<std::size_t>(it - cumulative_.begin()), deals_.size() - 1);
  return deals_[index]->clone();
}

double DealBelief::effective_deals() const {
  double sum = 0, squares = 0;
  for (double w : weights_) {
    sum += w;
    squares += w * w;
  }
  return squares > 0 ? sum * sum / squares : 0;
}

}  // namespace boardlab
