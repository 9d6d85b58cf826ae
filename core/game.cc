// Default implementations shared by every game: convenience overloads, masks, chance, views, symmetries.
#include "core/game.h"

#include <algorithm>
#include <cstdio>

#include "core/errors.h"
#include "core/player_view.h"

namespace boardlab {

std::string Game::rules_string() const {
  GameParameters rules = params_;
  for (const std::string& name : observation_parameters_) rules.erase(name);
  return game_string(name_, rules);
}

namespace {

std::uint64_t fnv1a(std::uint64_t h, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::string GameType::describe() const {
  std::string out = simultaneous() ? "simultaneous" : "sequential";
  out += chance == Chance::kDeterministic ? ", deterministic"
         : chance == Chance::kSetup       ? ", chance in the setup"
                                          : ", chance nodes";
  out += perfect_information() ? ", perfect information" : ", imperfect information";
  out += utility == Utility::kZeroSum       ? ", zero-sum"
         : utility == Utility::kConstantSum ? ", constant-sum"
                                            : ", general-sum";
  char range[64];
  std::snprintf(range, sizeof range, ", returns in [%g, %g]", min_return, max_return);
  return out + range;
}

// ---------------------------------------------------------------------------- game

const std::vector<Symmetry>& Game::symmetries() const {
  static const std::vector<Symmetry> kNone;
  return kNone;
}

bool Game::symmetry_holds(const State&, int) const { return true; }

std::unique_ptr<State> Game::apply_symmetry(const State& state, int index) const {
  const auto& all = symmetries();
  if (index < 0 || index >= static_cast<int>(all.size()))
    throw InputError("apply_symmetry: " + name() + " has no symmetry " + std::to_string(index));
  if (!symmetry_holds(state, index))
    throw InputError("apply_symmetry: symmetry '" + all[index].name + "' does not hold here");
  if (!state.starts_from_initial_state())
    throw InputError("apply_symmetry: this position has no history to map (it was set up directly)");
  const Symmetry& sym = all[index];
  // Steps are in each actor's real frame; the symmetry's action map is in the viewer's frame.
  const auto mapped = [&](Player actor, Action a) {
    if (actor < 0) return sym.action[a];
    return action_from_view(sym.map_player(actor), sym.action[action_to_view(actor, a)]);
  };
  std::unique_ptr<State> image = new_initial_state();
  const std::vector<Step> steps = state.history();
  std::vector<Action> joint;
  for (std::size_t i = 0; i < steps.size();) {
    if (image->is_simultaneous_node()) {
      // A round is one step per seat, in seat order.
      joint.assign(num_players(), kInvalidAction);
      for (int p = 0; p < num_players(); ++p, ++i)
        joint[sym.map_player(steps[i].player)] = mapped(steps[i].player, steps[i].action);
      image->apply_joint(joint);
    } else {
      image->apply(mapped(steps[i].player, steps[i].action));
      ++i;
    }
  }
  return image;
}

Action Game::action_to_view(Player, Action action) const { return action; }
Action Game::action_from_view(Player, Action action) const { return action; }

int ActionLayout::board_wide() const {
  return static_cast<int>(std::count(slot.begin(), slot.end(), -1));
}

std::string Game::player_name(Player p) const { return "P" + std::to_string(p); }

// ---------------------------------------------------------------------------- state

std::vector<Action> State::legal_actions(Player player) const {
  std::vector<Action> out;
  legal_actions(player, out);
  return out;
}

void State::legal_mask(Player player, std::span<std::uint8_t> out) const {
  if (static_cast<int>(out.size()) != game().num_distinct_actions())
    throw InputError("legal_mask: buffer has " + std::to_string(out.size()) + " entries, the game has " +
                     std::to_string(game().num_distinct_actions()) + " actions");
  std::fill(out.begin(), out.end(), 0);
  std::vector<Action> actions;
  legal_actions(player, actions);
  for (Action a : actions) out[a] = 1;
}

void State::chance_outcomes(std::vector<ChanceOutcome>&) const {
  throw InputError("chance_outcomes: this is not a chance node of " + game().name());
}

std::vector<ChanceOutcome> State::chance_outcomes() const {
  std::vector<ChanceOutcome> out;
  chance_outcomes(out);
  return out;
}

Action State::draw_random_action(Rng& rng) const {
  const Player actor = current_player();
  if (actor == kChancePlayer) {
    std::vector<ChanceOutcome> outcomes;
    chance_outcomes(outcomes);
    const auto probability = [&](std::size_t i) { return outcomes[i].probability; };
    return outcomes[draw_index(rng, outcomes.size(), probability)].action;
  }
  if (actor == kSimultaneousPlayer)
    throw IllegalActionError("random_legal_action: every seat acts at this simultaneous node; name the player");
  return random_legal_action(actor, rng);
}

Action State::draw_random_action_of(Player player, Rng& rng) const {
  std::vector<Action> actions;
  legal_actions(player, actions);
  if (actions.empty())
    throw IllegalActionError("random_legal_action: " +
                             (player >= 0 ? game().player_name(player) : std::string("nobody")) +
                             " has no legal action in this state");
  return actions[rng.below(static_cast<std::uint32_t>(actions.size()))];
}

void State::apply_joint(std::span<const Action>) {
  throw IllegalActionError("apply_joint: " + game().name() +
                           " has no simultaneous moves; play one action at a time (apply, or apply_action in Python)");
}

std::vector<double> State::returns() const {
  std::vector<double> out(game().num_players());
  returns(out);
  return out;
}

std::uint64_t State::information_key(Player p) const {
  if (p < 0 || p >= game().num_players())
    throw InputError("information_key: player " + std::to_string(p) + " is not a seat of " + game().name());
  if (game().type().perfect_information()) return hash();
  std::vector<float> obs(game().observation_shape().size());
  observation(p, obs);
  const std::string seen = record_for(p);
  std::uint64_t h = fnv1a(0xcbf29ce484222325ULL, seen.data(), seen.size());
  return fnv1a(h, obs.data(), obs.size() * sizeof(float));
}

std::unique_ptr<State> State::sample_hidden(Player, Rng&) const { return clone(); }

void State::ownership(Player, std::span<float>) const {
  throw InputError(game().name() + " declares no ownership of cells");
}

void State::scores(std::span<double>) const { throw InputError(game().name() + " declares no score"); }

void State::standing_returns(std::span<double>) const {
  throw InputError(game().name() + " declares no standings: its players do not go out one by one");
}

std::string State::action_seen_by(Player, Player actor, Action action) const {
  return action_to_string(actor, action);
}

// ---------------------------------------------------------------------------- view

PlayerView::PlayerView(const State& state, Player viewer) : state_(&state), viewer_(viewer) {
  if (viewer < 0 || viewer >= state.game().num_players())
    throw InputError("a player's view needs a seat 0.." + std::to_string(state.game().num_players() - 1) +
                     ", got " + std::to_string(viewer));
}

PlayerView PlayerView::of_mover(const State& state) {
  const Player mover = state.current_player();
  if (mover < 0)
    throw InputError("no single player is to move here (" +
                     std::string(mover == kTerminalPlayer        ? "the game is over"
                                 : mover == kChancePlayer        ? "a chance node"
                                                                 : "a simultaneous round: name the player") +
                     ")");
  return PlayerView(state, mover);
}

bool PlayerView::acts() const {
  const Player p = current_player();
  return p == viewer_ || p == kSimultaneousPlayer;
}

Action PlayerView::random_legal_action(Rng& rng) const {
  // The game's own sampler is the fast path when the viewer is the one actor.
  return current_player() == viewer_ ? state_->random_legal_action(rng) : state_->random_legal_action(viewer_, rng);
}

std::unique_ptr<State> PlayerView::sample(Rng& rng) const { return state_->sample_hidden(viewer_, rng); }

bool PlayerView::choice_concealed() const {
  if (current_player() != viewer_ || state_->game().type().perfect_information()) return false;
  const int players = state_->game().num_players();
  for (const Action action : legal_actions()) {
    const std::string own = state_->action_seen_by(viewer_, viewer_, action);
    for (Player other = 0; other < players; ++other)
      if (other != viewer_ && state_->action_seen_by(other, viewer_, action) != own) return true;
  }
  return false;
}

}  // namespace boardlab
