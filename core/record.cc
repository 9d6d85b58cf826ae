// The default game record: turns of same-player actions joined by '-', separated by spaces.
#include <sstream>

#include "core/errors.h"
#include "core/game.h"

namespace boardlab {
namespace {

std::vector<std::string> split_turn(const std::string& turn) {
  // "--" is a whole action in some notations (Virus War's pass), not two separators.
  if (turn == "--") return {turn};
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto dash = turn.find('-', start);
    parts.push_back(turn.substr(start, dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  return parts;
}

}  // namespace

std::string State::record() const {
  std::unique_ptr<State> replay = game().new_initial_state();
  std::string out;
  Player turn_player = kInvalidAction;
  for (Action action : history()) {
    const Player mover = replay->current_player();
    if (!out.empty()) out += mover == turn_player ? "-" : " ";
    out += replay->action_to_string(action);
    turn_player = mover;
    replay->apply(action);
  }
  return out;
}

std::unique_ptr<State> Game::load_record(std::string_view record) const {
  std::unique_ptr<State> state = new_initial_state();
  std::istringstream turns{std::string(record)};
  std::string turn;
  for (int number = 1; turns >> turn; ++number) {
    const std::string where = "record turn " + std::to_string(number) + " '" + turn + "'";
    if (state->is_terminal()) throw NotationError(where + ": the game is already over");
    const Player mover = state->current_player();
    const std::vector<std::string> parts = split_turn(turn);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string sub = where + ", part " + std::to_string(i + 1) + " '" + parts[i] + "'";
      if (parts[i].empty()) throw NotationError(where + ": empty part between '-' separators");
      if (state->is_terminal()) throw NotationError(sub + ": the game ended before this part");
      if (state->current_player() != mover)
        throw NotationError(sub + ": the turn already ended after " + std::to_string(i) + " part(s)");
      try {
        state->apply(state->string_to_action(parts[i]));
      } catch (const InputError& e) {
        throw NotationError(sub + ": " + e.what());
      }
    }
    if (!state->is_terminal() && state->current_player() == mover)
      throw NotationError(where + ": the turn is incomplete, player " + std::to_string(mover) +
                          " must still move");
  }
  return state;
}

}  // namespace boardlab
