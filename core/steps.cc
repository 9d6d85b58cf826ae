// Playing step lists back, with the check that each step names who acts there.
#include "core/steps.h"

namespace boardlab {

std::string seat_name(const Game& game, Player p) {
  if (p == kChancePlayer) return "chance";
  if (p < 0 || p >= game.num_players()) return "player " + std::to_string(p);
  return game.player_name(p) + " (seat " + std::to_string(p) + ")";
}

std::string actor_name(const Game& game, Player p) {
  switch (p) {
    case kTerminalPlayer: return "nobody (the game is over)";
    case kSimultaneousPlayer: return "every seat (a simultaneous round)";
    default: return seat_name(game, p);
  }
}

void check_step_players(const Game& game, Player actor, std::span<const Step> steps, std::size_t i) {
  const std::size_t n = actor == kSimultaneousPlayer ? static_cast<std::size_t>(game.num_players()) : 1;
  for (std::size_t k = 0; k < n && i + k < steps.size(); ++k) {
    const Player expected = actor == kSimultaneousPlayer ? static_cast<Player>(k) : actor;
    if (steps[i + k].player != expected)
      throw InputError("step " + std::to_string(i + k + 1) + " names " + actor_name(game, steps[i + k].player) +
                       " but " + seat_name(game, expected) + " acts there");
  }
}

TurnCount count_turns(std::span<const Step> steps, Action pass, Player seat) {
  TurnCount count;
  Player last = kInvalidPlayer;
  for (const Step& s : steps) {
    if (s.player < 0) continue;
    if (s.player != last && (seat == kInvalidPlayer || s.player == seat)) {
      ++count.turns;
      if (pass != kInvalidAction && s.action == pass) ++count.passes;
    }
    last = s.player;
  }
  return count;
}

void apply_steps(State& state, std::span<const Step> steps) {
  std::vector<Action> joint;
  for (std::size_t i = 0; i < steps.size();) {
    const Player actor = state.current_player();
    if (actor == kTerminalPlayer) throw InputError("step " + std::to_string(i + 1) + ": the game is already over");
    check_step_players(state.game(), actor, steps, i);
    try {
      i += apply_node(state, i, steps.size(), [&](std::size_t s) { return steps[s].action; }, joint);
    } catch (const InputError& e) {
      throw InputError("step " + std::to_string(i + 1) + ": " + e.what());
    }
  }
}

}  // namespace boardlab
