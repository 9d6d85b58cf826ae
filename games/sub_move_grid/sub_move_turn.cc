// The refusal texts Virus War and Klopodavka share.
#include "games/sub_move_grid/sub_move_turn.h"

namespace boardlab {

std::string action_outside_refusal(Action action, int num_actions) {
  return "action " + std::to_string(action) + " is outside 0.." + std::to_string(num_actions - 1);
}

std::string mid_turn_pass_refusal(std::string_view who, int sub_move, int per_turn) {
  return "a pass is only allowed instead of the first sub-move, and " + std::string(who) + " is on sub-move " +
         std::to_string(sub_move + 1) + " of " + std::to_string(per_turn);
}

}  // namespace boardlab
