// Perft by depth-first enumeration over clones.
#include "core/perft.h"

#include <vector>

#include "core/errors.h"

namespace boardlab {

std::uint64_t perft(const State& state, int depth) {
  if (depth < 0) throw InputError("perft: depth must be 0 or more, got " + std::to_string(depth));
  if (depth == 0) return 1;
  if (state.is_terminal()) return 0;
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
