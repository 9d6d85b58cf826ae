// Default implementations shared by every game: convenience overloads, masks, records.
#include "core/game.h"

#include <algorithm>

#include "core/errors.h"

namespace boardlab {

const std::vector<Symmetry>& Game::symmetries() const {
  static const std::vector<Symmetry> kNone;
  return kNone;
}

std::string Game::player_name(Player p) const { return "P" + std::to_string(p); }

Action Game::action_to_view(Player, Action action) const { return action; }
Action Game::action_from_view(Player, Action action) const { return action; }

std::vector<Action> State::legal_actions() const {
  std::vector<Action> out;
  legal_actions(out);
  return out;
}

void State::legal_actions_for(Player p, std::vector<Action>& out) const {
  if (p == current_player()) {
    legal_actions(out);
  } else {
    out.clear();
  }
}

void State::legal_mask(std::span<std::uint8_t> out) const {
  if (static_cast<int>(out.size()) != game().num_distinct_actions())
    throw InputError("legal_mask: buffer has " + std::to_string(out.size()) + " entries, the game has " +
                     std::to_string(game().num_distinct_actions()) + " actions");
  std::fill(out.begin(), out.end(), 0);
  std::vector<Action> actions;
  legal_actions(actions);
  for (Action a : actions) out[a] = 1;
}

Action State::random_legal_action(Rng& rng) const {
  std::vector<Action> actions;
  legal_actions(actions);
  if (actions.empty()) throw IllegalActionError("random_legal_action: no legal action in this state");
  return actions[rng.below(static_cast<std::uint32_t>(actions.size()))];
}

void State::apply_joint(std::span<const Action>) {
  throw IllegalActionError("apply_joint: " + game().name() + " has no simultaneous moves; use apply()");
}

std::vector<double> State::returns() const {
  std::vector<double> out(game().num_players());
  returns(out);
  return out;
}

std::unique_ptr<State> State::sample_hidden(Player, Rng&) const { return clone(); }

}  // namespace boardlab
