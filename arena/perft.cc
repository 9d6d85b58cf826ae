// Perft by depth-first enumeration over clones.
#include "arena/perft.h"

#include <vector>

#include "core/errors.h"
#include "core/stop.h"

namespace boardlab {

std::uint64_t perft(const State& state, int depth) {
  if (depth < 0) throw InputError("perft: depth must be 0 or more, got " + std::to_string(depth));
  if (depth == 0) return 1;
  if (state.is_terminal() || stop_requested()) return 0;
  if (state.is_simultaneous_node()) {
    const int players = state.game().num_players();
    std::vector<std::vector<Action>> per_seat(players);
    std::uint64_t joints = 1;
    for (Player p = 0; p < players; ++p) joints *= (per_seat[p] = state.legal_actions(p)).size();
    if (depth == 1 || joints == 0) return joints;
    std::vector<std::size_t> index(players, 0);
    std::vector<Action> joint(players);
    std::uint64_t total = 0;
    for (std::uint64_t k = 0; k < joints; ++k) {
      for (Player p = 0; p < players; ++p) joint[p] = per_seat[p][index[p]];
      std::unique_ptr<State> child = state.clone();
      child->apply_joint(joint);
      total += perft(*child, depth - 1);
      for (Player p = 0; p < players && ++index[p] == per_seat[p].size(); ++p) index[p] = 0;
    }
    return total;
  }
  std::vector<Action> actions;
  state.legal_actions(actions);
  if (depth == 1) return actions.size();
  std::uint64_t total = 0;
  for (Action action : actions) {
    std::unique_ptr<State> child = state.clone();
    child->apply(action);
    total += perft(*child, depth - 1);
  }
  return total;
}

}  // namespace boardlab
