// boardlab.State: one position of a game, with its moves, observations, notation and record.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "bindings.h"
#include "core/errors.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

// Core games may assume a valid seat index; Python callers get a ValueError instead.
void check_player(const StateHandle& s, Player p, const char* what) {
  const int n = s.game->num_players();
  if (p < 0 || p >= n)
    throw InputError(std::string(what) + ": player " + std::to_string(p) + " is not a seat 0.." + std::to_string(n - 1));
}

void check_action(const StateHandle& s, Action a, const char* what) {
  const int n = s.game->num_distinct_actions();
  if (a < 0 || a >= n)
    throw InputError(std::string(what) + ": action " + std::to_string(a) + " is outside 0.." + std::to_string(n - 1));
}

std::vector<Action> legal_actions(const StateHandle& s, std::optional<Player> player) {
  std::vector<Action> out;
  if (!player) {
    s.state->legal_actions(out);
  } else {
    check_player(s, *player, "legal_actions");
    s.state->legal_actions(*player, out);
  }
  return out;
}

py::array_t<std::int8_t> legal_actions_mask(const StateHandle& s) {
  std::vector<std::uint8_t> mask(s.game->num_distinct_actions());
  s.state->legal_mask(s.state->current_player(), mask);
  py::array_t<std::int8_t> out(static_cast<py::ssize_t>(mask.size()));
  std::int8_t* data = out.mutable_data();
  for (std::size_t i = 0; i < mask.size(); ++i) data[i] = static_cast<std::int8_t>(mask[i]);
  return out;
}

py::array_t<float> observation_tensor(const StateHandle& s, std::optional<Player> player) {
  const Player p = player.value_or(s.state->current_player());
  if (!player && p < 0)
    throw InputError("observation_tensor: no player to move here (terminal or simultaneous); name the viewer");
  check_player(s, p, "observation_tensor");
  const ObservationShape shape = s.game->observation_shape();
  py::array_t<float> out({shape.channels, shape.height, shape.width});
  s.state->observation(p, std::span<float>(out.mutable_data(), static_cast<std::size_t>(shape.size())));
  return out;
}

}  // namespace

void bind_state(py::module_& m) {
  py::class_<StateHandle>(m, "State", "A position; apply_action() changes it in place, clone() copies it.")
      .def("game", [](const StateHandle& s) { return GameHandle{s.game}; })
      .def("current_player", [](const StateHandle& s) { return s.state->current_player(); },
           "The seat to act (it repeats for sub-moves), TERMINAL_PLAYER or SIMULTANEOUS_PLAYER.")
      .def("is_terminal", [](const StateHandle& s) { return s.state->is_terminal(); })
      .def("legal_actions", &legal_actions, py::arg("player") = py::none(),
           "Legal actions, ascending: of the player to move, or of `player` (at simultaneous nodes).")
      .def("legal_actions_mask", &legal_actions_mask,
           "int8 array of num_distinct_actions() entries, 1 where the action is legal.")
      .def("apply_action", [](StateHandle& s, Action a) { s.state->apply(a); }, py::arg("action"),
           "Plays one action; an illegal one raises IllegalActionError (a ValueError) with the reason "
           "and leaves the state unchanged.")
      .def("apply_actions",
           [](StateHandle& s, const std::vector<Action>& actions) { s.state->apply_joint(actions); },
           py::arg("actions"), "Plays one action per player at a simultaneous node.")
      .def("returns", [](const StateHandle& s) { return s.state->returns(); },
           "One value per player; zeros until the game is over.")
      .def("observation_tensor", &observation_tensor, py::arg("player") = py::none(),
           "float32 array of Game.observation_shape(): what `player` (default: the mover) may know, "
           "from its point of view.")
      .def("clone", &StateHandle::clone)
      .def("__copy__", &StateHandle::clone)
      .def("__deepcopy__", [](const StateHandle& s, const py::object&) { return s.clone(); }, py::arg("memo"))
      .def("hash", [](const StateHandle& s) { return s.state->hash(); },
           "64-bit hash of everything that decides the rest of the game.")
      .def("action_to_string",
           [](const StateHandle& s, Action a) {
             check_action(s, a, "action_to_string");
             return s.state->action_to_string(a);
           },
           py::arg("action"), "The game's notation for `action` in this state.")
      .def("string_to_action", [](const StateHandle& s, std::string_view text) { return s.state->string_to_action(text); },
           py::arg("text"),
           "The action named by `text`; raises NotationError (a ValueError) for text naming none. "
           "Does not check legality.")
      .def("history",
           [](const StateHandle& s) {
             std::vector<Action> actions;
             for (const Step& step : s.state->history()) actions.push_back(step.action);
             return actions;
           },
           "Every action played so far (chance outcomes and every seat's action of a simultaneous round included).")
      .def("full_history",
           [](const StateHandle& s) {
             std::vector<std::pair<Player, Action>> steps;
             for (const Step& step : s.state->history()) steps.emplace_back(step.player, step.action);
             return steps;
           },
           "Every step so far as (player, action): the player is a seat or CHANCE_PLAYER.")
      .def("record", [](const StateHandle& s) { return s.state->record(); },
           "The game so far in the game's notation; Game.load_record() reads it back.")
      .def("__str__", [](const StateHandle& s) { return s.state->to_string(); })
      // One line, unlike str(): it appears inside error messages and containers.
      .def("__repr__", [](const StateHandle& s) {
        const Player p = s.state->current_player();
        const std::string mover = p >= 0                     ? "player " + std::to_string(p) + " to move"
                                  : p == kSimultaneousPlayer ? "simultaneous move"
                                                             : "terminal";
        return "<boardlab.State " + s.game->to_string() + " after " + std::to_string(s.state->history().size()) +
               " steps, " + mover + ">";
      });
}

}  // namespace boardlab::python
