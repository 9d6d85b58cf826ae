// The self-play loop: step all searches, play decided moves, hand finished games over.
#include "nn/self_play.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/errors.h"
#include "core/random_play.h"
#include "nn/agent_bot.h"

namespace boardlab {

SelfPlayWorker::SelfPlayWorker(const Game& game, const SearchConfig& search, const SelfPlayConfig& config,
                               Evaluator& evaluator, std::uint64_t seed)
    : SelfPlayWorker(game, search, config, evaluator, Rng(seed)) {}

SelfPlayWorker::SelfPlayWorker(const Game& game, const SearchConfig& search, const SelfPlayConfig& config,
                               Evaluator& evaluator, const Rng& rng)
    : game_(&game), search_config_(search), config_(config), rng_(rng), driver_(evaluator, search.cache_positions) {
  if (config.concurrent_games < 1) throw InputError("self-play: concurrent_games must be at least 1");
  if (!(config.opponent_fraction > 0 && config.opponent_fraction <= 1))
    throw InputError("self-play: opponent_fraction must lie in (0, 1], got " + std::to_string(config.opponent_fraction));
  if (config.imitate_opponent && search.model_opponents)
    throw InputError("self-play: imitate_opponent and search.model_opponents both train the policy head on the fixed "
                     "opponent's moves; model_opponents alone already does");
  if (config.opponent_fraction < 1 && search.model_opponents)
    throw InputError("self-play: search.model_opponents trains the policy head on the fixed opponent's moves, so "
                     "every game must seat it (opponent_fraction 1), not " + std::to_string(config.opponent_fraction));
  if (!(config.full_search_fraction > 0 && config.full_search_fraction <= 1))
    throw InputError("self-play: full_search_fraction must lie in (0, 1], got " + std::to_string(config.full_search_fraction));
  if (config.full_search_fraction < 1 && (config.fast_simulations < 1 || config.fast_simulations > search.simulations))
    throw InputError("self-play: fast_simulations must lie in 1.." + std::to_string(search.simulations) +
                     " (the full budget, search.simulations), got " + std::to_string(config.fast_simulations));
  search_config_.temperature = 0;  // move choice with temperature happens here, per ply
  // A concealed choice is drawn from the policy it trains: the outcome targets
  // (nn/outcome_target.h) are for that draw, whatever temperature players use.
  search_config_.concealed_temperature = 1;
  slots_.resize(config.concurrent_games);
  for (Slot& slot : slots_) {
    slot.search = std::make_unique<Search>(game, search_config_, rng_());
    if (!config.opponent.empty()) {
      try {
        // One bot per game: together they keep one search thread's cache, not one each, which
        // multiplied the cache's memory by the games a worker plays at once.
        slot.opponent_bot =
            make_any_bot_with_cache(config.opponent, game, rng_(), search.cache_positions / config.concurrent_games);
      } catch (const InputError& e) {
        throw InputError(std::string("self-play: opponent: ") + e.what());
      }
    }
    new_game(slot);
  }
}

void SelfPlayWorker::new_game(Slot& slot) {
  while (true) {
    slot.state = game_->new_initial_state();
    slot.record = SelfPlayGame{};
    slot.concealed.clear();
    slot.search->reseed(rng_());
    // Drawn only when openings are on, so that a run without them keeps its random stream.
    slot.random_opening = config_.random_opening_fraction > 0 && rng_.uniform() < config_.random_opening_fraction;
    // Drawn only below 1, so that a run against the opponent in every game keeps its random stream.
    const bool seated = slot.opponent_bot &&
                        (config_.opponent_fraction >= 1 || rng_.uniform() < config_.opponent_fraction);
    slot.opponent = seated ? slot.opponent_bot.get() : nullptr;
    if (slot.opponent) {
      slot.opponent->restart();
      slot.learner = next_learner_;
      next_learner_ = (next_learner_ + 1) % game_->num_players();
    }
    if (advance_to_decision(slot)) return;
  }
}

bool SelfPlayWorker::advance_to_decision(Slot& slot) {
  State& state = *slot.state;
  while (!state.is_terminal()) {
    if (slot.random_opening && state.move_number() < config_.random_opening_turns) {
      apply_random_step(state, rng_, joint_, &slot.record.steps);
      continue;
    }
    const Player actor = state.current_player();
    Action action;
    if (actor == kChancePlayer) {
      // Chance is drawn here, with its probabilities, and recorded like any step.
      action = state.random_legal_action(rng_);
    } else if (actor == kSimultaneousPlayer) {
      // One search decides for every seat (decoupled statistics per seat; nothing is
      // hidden in a simultaneous game the search accepts, so any seat's view will do).
      const int seats = game_->num_players();
      joint_.resize(seats);
      bool forced = true;
      for (Player p = 0; p < seats && forced; ++p) {
        state.legal_actions(p, legal_);
        forced = legal_.size() == 1;
        joint_[p] = legal_.front();
      }
      if (slot.opponent) forced = opponent_round(slot);
      if (!forced) {
        start_search(slot, PlayerView(state, slot.opponent ? slot.learner : 0));
        return true;
      }
      if (slot.opponent) joint_ = slot.opponent_joint;
      for (Player p = 0; p < seats; ++p) slot.record.steps.push_back({p, joint_[p]});
      state.apply_joint(joint_);
      continue;
    } else if (opponent_seat(slot, actor)) {
      // The fixed opponent plays from its own view with its own search.
      action = slot.opponent->act(PlayerView(state, actor));
      record_opponent_move(slot, actor, action);
    } else {
      state.legal_actions(actor, legal_);
      if (legal_.size() > 1) {
        // The mover searches from its own view: for hidden information, over the states it
        // cannot tell apart (information-set search), never the true one.
        start_search(slot, PlayerView(state, actor));
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

bool SelfPlayWorker::trains_policy(const Slot& slot) const {
  // A search that models a fixed opponent (SearchConfig::model_opponents) reads the opponent's
  // policy from the network's policy head, for every seat: that head then learns the
  // opponent's moves alone, and the network's own choices come from its search's values.
  return slot.full && !(slot.opponent && search_config_.model_opponents);
}

std::optional<SelfPlayGame::Target> SelfPlayWorker::opponent_target(const State& state, Player actor, Action action) {
  // The move a fixed opponent made, as a one-hot target; none where it had no choice.
  state.legal_actions(actor, legal_);
  if (legal_.size() < 2) return std::nullopt;
  SelfPlayGame::Target target{actor, legal_, std::vector<float>(legal_.size(), 0.0f)};
  target.policy[static_cast<std::size_t>(std::find(legal_.begin(), legal_.end(), action) - legal_.begin())] = 1.0f;
  return target;
}

void SelfPlayWorker::record_opponent_move(Slot& slot, Player actor, Action action) {
  // Its positions train the value (the network must judge positions where the opponent moves:
  // its search stops at them or follows them) and, for a search that models the opponent
  // (SearchConfig::model_opponents) or a network that imitates it, the policy too.
  std::optional<SelfPlayGame::Target> target = opponent_target(*slot.state, actor, action);
  if (!target) return;
  slot.record.positions.push_back({static_cast<int>(slot.record.steps.size()), {std::move(*target)},
                                   search_config_.model_opponents || config_.imitate_opponent});
}

bool SelfPlayWorker::opponent_round(Slot& slot) {
  const State& state = *slot.state;
  const int seats = game_->num_players();
  slot.opponent_joint.assign(seats, kInvalidAction);
  for (Player p = 0; p < seats; ++p)
    if (p != slot.learner) slot.opponent_joint[p] = slot.opponent->act(PlayerView(state, p));
  state.legal_actions(slot.learner, legal_);
  slot.opponent_joint[slot.learner] = legal_.front();
  return legal_.size() == 1;
}

void SelfPlayWorker::start_search(Slot& slot, const PlayerView& view) {
  // The draw is made only when fast searches are on, so that a run without them keeps the
  // random stream it always had.
  slot.full = config_.full_search_fraction >= 1 || rng_.uniform() < config_.full_search_fraction;
  if (slot.full) slot.search->start(view);
  else slot.search->start(view, {config_.fast_simulations, false});
}

Action SelfPlayWorker::choose(const SearchResult& result, int ply) {
  if (result.concealed || search_config_.algorithm == SearchAlgorithm::kGumbel || ply >= config_.temperature_moves ||
      config_.temperature <= 0)
    return result.action;
  double total = 0;
  std::vector<double> weights(result.visits.size());
  for (std::size_t i = 0; i < weights.size(); ++i)
    total += weights[i] = std::pow(static_cast<double>(result.visits[i]), 1.0 / config_.temperature);
  if (total <= 0) return result.action;
  return result.legal[draw_index(rng_, weights, total)];
}

void SelfPlayWorker::play_round(Slot& slot, const SearchResult& result, int ply) {
  // Every seat with a choice trains on its own policy, and plays an action drawn from it: at
  // a simultaneous round the policy is a mixed strategy (regret matching's average), and
  // playing its most likely action would be exploitable. A seat whose only action is
  // forced (Squares' pass once it has no room) is no position, as a forced step of a
  // turn-based game is not: its certain target would teach the network to pass wherever
  // the board looks full, and the search then passes where it could place.
  const int seats = game_->num_players();
  SelfPlayGame::Position position{ply, {}, slot.full || (slot.opponent && search_config_.model_opponents)};
  joint_.assign(seats, kInvalidAction);
  if (slot.opponent) {
    // The opponent's seats were chosen before the search, from their own views.
    joint_ = slot.opponent_joint;
    joint_[slot.learner] = kInvalidAction;
  }
  for (const PlayerSearchResult& seat : result.players) {
    if (opponent_seat(slot, seat.player)) continue;
    // A round's targets share one position: where the policy is the opponent's, the network's own seat has none.
    const bool own_policy_only = slot.opponent && search_config_.model_opponents;
    if (seat.legal.size() > 1 && !own_policy_only)
      position.targets.push_back({seat.player, seat.legal, seat.policy, seat.value});
    const double total = std::accumulate(seat.policy.begin(), seat.policy.end(), 0.0);
    joint_[seat.player] = seat.legal[draw_index(rng_, seat.policy, total)];
  }
  // An imitated opponent's targets join a full search's position only: a fast one's trains no
  // policy, and the position's flag is shared by its targets.
  if (slot.opponent && (search_config_.model_opponents || (config_.imitate_opponent && slot.full)))
    for (Player p = 0; p < seats; ++p)
      if (p != slot.learner)
        if (std::optional<SelfPlayGame::Target> target = opponent_target(*slot.state, p, joint_[p]))
          position.targets.push_back(std::move(*target));
  for (Player p = 0; p < seats; ++p) {
    if (joint_[p] == kInvalidAction)
      throw InputError("self-play: the search gave no decision for " + game_->player_name(p) + " at a simultaneous round");
    slot.record.steps.push_back({p, joint_[p]});
  }
  std::sort(position.targets.begin(), position.targets.end(),
            [](const auto& a, const auto& b) { return a.player < b.player; });
  // A modelled opponent forced to pass (Squares with no room) leaves a round with no target
  // at all: no position, as for any forced step (the replay refuses one without a target).
  if (!position.targets.empty()) slot.record.positions.push_back(std::move(position));
  slot.state->apply_joint(joint_);
}

void SelfPlayWorker::set_concealed_targets(Slot& slot) const {
  for (const std::size_t index : slot.concealed) {
    SelfPlayGame::Position& position = slot.record.positions[index];
    SelfPlayGame::Target& target = position.targets.front();
    const Action played = slot.record.steps[static_cast<std::size_t>(position.ply)].action;
    const auto at = std::find(target.legal.begin(), target.legal.end(), played);
    const double advantage = slot.record.returns[static_cast<std::size_t>(target.player)] - target.root_value.value_or(0.0f);
    outcome_target(target.policy, static_cast<std::size_t>(at - target.legal.begin()), advantage, config_.concealed);
  }
}

void SelfPlayWorker::set_max_batch(int positions) {
  if (positions < 1) throw InputError("self-play: max_batch must be at least 1, got " + std::to_string(positions));
  max_batch_ = positions;
}

void SelfPlayWorker::run(std::int64_t positions, const std::atomic<bool>& stop,
                         const std::function<void(SelfPlayGame&&)>& sink) {
  // The games are stepped a chunk at a time, each chunk one evaluator call of about
  // max_batch leaves: a round of 100,000 games as one batch took 81 s, and a stop or a
  // pause waited for it. The next call goes on from the chunk this one stopped before.
  const std::size_t chunk =
      static_cast<std::size_t>(std::max(1, max_batch_ / std::max(1, search_config_.leaves_per_step)));
  std::int64_t finished = 0;
  while (finished < positions && !stop) {
    if (next_slot_ >= slots_.size()) next_slot_ = 0;
    const std::size_t end = std::min(slots_.size(), next_slot_ + chunk);
    searches_view_.clear();
    for (std::size_t i = next_slot_; i < end; ++i) searches_view_.push_back(slots_[i].search.get());
    driver_.step(searches_view_);
    for (std::size_t i = next_slot_; i < end; ++i) {
      Slot& slot = slots_[i];
      if (!slot.search->done()) continue;
      const SearchResult result = slot.search->result();
      searches_.fetch_add(1, std::memory_order_relaxed);
      simulations_.fetch_add(static_cast<std::uint64_t>(result.simulations), std::memory_order_relaxed);
      const int ply = static_cast<int>(slot.record.steps.size());
      const Player mover = slot.state->current_player();
      if (mover == kSimultaneousPlayer) {
        play_round(slot, result, ply);
      } else {
        // A concealed choice's target is the outcome's (set_concealed_targets), whatever its budget was.
        const bool trains = result.concealed ? !(slot.opponent && search_config_.model_opponents) : trains_policy(slot);
        if (result.concealed && trains) slot.concealed.push_back(slot.record.positions.size());
        slot.record.positions.push_back({ply, {{mover, result.legal, result.policy, result.value}}, trains});
        const Action action = choose(result, ply);
        slot.record.steps.push_back({mover, action});
        slot.state->apply(action);
      }
      if (advance_to_decision(slot)) continue;
      set_concealed_targets(slot);
      finished += static_cast<std::int64_t>(slot.record.positions.size());
      sink(std::move(slot.record));
      new_game(slot);
    }
    next_slot_ = end;
  }
}

}  // namespace boardlab
