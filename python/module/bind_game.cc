// boardlab.Game: a game's constants and the states it makes.
#include <pybind11/stl.h>

#include <string>

#include "bindings.h"
#include "core/errors.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {

void bind_game(py::module_& m) {
  py::class_<GameHandle>(m, "Game", "A game with its parameters fixed; immutable, shared by its states.")
      .def("name", [](const GameHandle& g) { return g.game->name(); }, "The registry name, e.g. 'virus_war'.")
      .def("parameters", [](const GameHandle& g) { return g.game->parameters(); },
           "Every parameter as a dict, defaults filled in.")
      .def("num_players", [](const GameHandle& g) { return g.game->num_players(); })
      .def("player_name",
           [](const GameHandle& g, Player p) {
             if (p < 0 || p >= g.game->num_players())
               throw InputError("player_name: player " + std::to_string(p) + " is not a seat 0.." +
                                std::to_string(g.game->num_players() - 1));
             return g.game->player_name(p);
           },
           py::arg("player"), "How people call the seat: 'X', 'White'...")
      .def("num_distinct_actions", [](const GameHandle& g) { return g.game->num_distinct_actions(); },
           "Size of the action space: actions are 0 .. num_distinct_actions() - 1.")
      .def("observation_shape",
           [](const GameHandle& g) {
             const ObservationShape shape = g.game->observation_shape();
             return py::make_tuple(shape.channels, shape.height, shape.width);
           },
           "(channels, height, width) of State.observation_tensor().")
      .def("max_game_length", [](const GameHandle& g) { return g.game->max_game_length(); },
           "An upper bound on the number of actions in one game, sub-moves and passes included.")
      .def("is_simultaneous", [](const GameHandle& g) { return g.game->type().simultaneous(); })
      .def("has_hidden_information", [](const GameHandle& g) { return !g.game->type().perfect_information(); })
      .def("new_initial_state", [](const GameHandle& g) { return StateHandle(g.game, g.game->new_initial_state()); })
      .def("load_record",
           [](const GameHandle& g, std::string_view record) { return StateHandle(g.game, g.game->load_record(record)); },
           py::arg("record"),
           "The final state of a game given in the game's notation (State.record()); "
           "raises NotationError (a ValueError) naming the bad turn.")
      .def("__str__", [](const GameHandle& g) { return g.game->to_string(); })
      .def("__repr__", [](const GameHandle& g) { return "<boardlab.Game " + g.game->to_string() + ">"; })
      .def("__eq__", [](const GameHandle& a, const GameHandle& b) { return a.game->to_string() == b.game->to_string(); })
      .def("__hash__", [](const GameHandle& g) { return std::hash<std::string>{}(g.game->to_string()); });
}

}  // namespace boardlab::python
