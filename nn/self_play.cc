// The self-play loop: step all searches, play decided moves, hand finished games over.
#include "nn/self_play.h"

#include <cmath>

#include "core/errors.h"

namespace boardlab {

SelfPlayWorker::SelfPlayWorker(const Game& game, const SearchConfig& search, const SelfPlayConfig& config,
                               Evaluator& evaluator, std::uint64_t seed)
    : game_(&game), search_config_(search), config_(config), rng_(seed), driver_(evaluator) {
  if (config.concurrent_games < 1) throw InputError("self-play: concurrent_games must be at least 1");
  // The search's support for these node kinds is being built in mcts/; self-play takes
  // them once it lands (one position, one target per seat, at a round).
  if (game.type().simultaneous())
    throw InputError("self-play: " + game.name() +
                     " has simultaneous moves; self-play needs the search's simultaneous nodes (decoupled selection), "
                     "which it does not use yet");
  if (!game.type().perfect_information())
    throw InputError("self-play: " + game.name() +
                     " has imperfect information; self-play needs information-set search over each player's view, "
                     "which it does not use yet");
  search_config_.temperature = 0;  // move choice with temperature happens here, per ply
  slots_.resize(config.concurrent_games);
  for (Slot& slot : slots_) {
    slot.search = std::make_unique<Search>(game, search_config_, rng_());
    new_game(slot);
  }
}

void SelfPlayWorker::new_game(Slot& slot) {
  while (true) {
    slot.state = game_->new_initial_state();
    slot.record = SelfPlayGame{};
    if (advance_to_decision(slot)) return;
  }
}

bool SelfPlayWorker::advance_to_decision(Slot& slot) {
  State& state = *slot.state;
  while (!state.is_terminal()) {
    const Player actor = state.current_player();
    Action action;
    if (actor == kChancePlayer) {
      // Chance is drawn here, with its probabilities, and recorded like any step.
      action = state.random_legal_action(rng_);
    } else {
      state.legal_actions(actor, legal_);
      if (legal_.size() > 1) {
        slot.search->start(PlayerView::of_mover(state));
        return true;
      }
      action = legal_.front();  // forced: a step without a position
    }
    slot.record.steps.push_back({actor, action});
    state.apply(action);
  }
  slot.record.returns = state.returns();
  slot.record.truncated = state.is_truncated();
  return false;
}

Action SelfPlayWorker::choose(const SearchResult& result, int ply) {
  if (search_config_.algorithm == SearchAlgorithm::kGumbel || ply >= config_.temperature_moves ||
      config_.temperature <= 0)
    return result.action;
  double total = 0;
  std::vector<double> weights(result.visits.size());
  for (std::size_t i = 0; i < weights.size(); ++i)
    total += weights[i] = std::pow(static_cast<double>(result.visits[i]), 1.0 / config_.temperature);
  if (total <= 0) return result.action;
  double pick = rng_.uniform() * total;
  for (std::size_t i = 0; i < weights.size(); ++i)
    if ((pick -= weights[i]) < 0) return result.legal[i];
  return result.legal.back();
}

void SelfPlayWorker::run(std::int64_t positions, const std::atomic<bool>& stop,
                         const std::function<void(SelfPlayGame&&)>& sink) {
  std::int64_t finished = 0;
  searches_view_.clear();
  for (Slot& slot : slots_) searches_view_.push_back(slot.search.get());
  while (finished < positions && !stop) {
    driver_.step(searches_view_);
    for (Slot& slot : slots_) {
      if (!slot.search->done()) continue;
      const SearchResult result = slot.search->result();
      ++searches_;
      simulations_ += static_cast<std::uint64_t>(result.simulations);
      const int ply = static_cast<int>(slot.record.steps.size());
      const Player mover = slot.state->current_player();
      slot.record.positions.push_back({ply, {{mover, result.legal, result.policy}}});
      const Action action = choose(result, ply);
      slot.record.steps.push_back({mover, action});
      slot.state->apply(action);
      if (advance_to_decision(slot)) continue;
      finished += static_cast<std::int64_t>(slot.record.positions.size());
      sink(std::move(slot.record));
      new_game(slot);
    }
  }
}

}  // namespace boardlab
