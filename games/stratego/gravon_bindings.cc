// Stratego's Gravon XML for Python: reading an archive game into a state, writing a state out.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "core/errors.h"
#include "games/stratego/gravon.h"
#include "python/module/arguments.h"
#include "python/module/game_bindings.h"
#include "python/module/handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

py::dict py_load_gravon(const TextArg& xml, const TextArg& parameters) {
  stratego::GravonGame g =
      stratego::read_gravon(text_arg(xml, "load_gravon: xml"), text_arg(parameters, "load_gravon: parameters"));
  const auto optional = [](int v) { return v < 0 ? py::object(py::none()) : py::object(py::int_(v)); };
  py::dict out;
  out["game"] = GameHandle{g.game};
  out["state"] = StateHandle(g.game, std::move(g.state));
  out["players"] = py::make_tuple(g.players[0], g.players[1]);
  out["winner"] = optional(g.winner);
  out["result_type"] = optional(g.result_type);
  return out;
}

std::string py_to_gravon(const StateHandle& s, const std::array<TextArg, 2>& player_args,
                         const std::optional<IntArg>& winner_arg, const std::optional<IntArg>& result_type_arg) {
  const std::array<std::string, 2> players = {text_arg(player_args[0], "to_gravon: players[0]"),
                                              text_arg(player_args[1], "to_gravon: players[1]")};
  const std::optional<int> winner = int_arg<int>(winner_arg, "to_gravon: winner", 0, 2);
  const std::optional<int> result_type = int_arg<int>(result_type_arg, "to_gravon: result_type");
  return stratego::write_gravon(*s.state, players, winner.value_or(-1), result_type.value_or(-1));
}

void bind_gravon(py::module_& m) {
  m.def("load_gravon", &py_load_gravon, py::arg("xml"), py::arg("parameters") = "",
        "Reads a Stratego game in Gravon XML (the archive of human games): a dict with game, state (the game "
        "replayed), players (Red's and Blue's names), winner (0 Red, 1 Blue, 2 a draw; None without a result) "
        "and result_type (Gravon's ending code, or None). `parameters` ('key=value,...') adds stratego "
        "parameters; the file fixes the variant, and two_square_limit is Gravon's 5 unless given. "
        "NotationError names what is wrong in a malformed file.");
  m.def("to_gravon", &py_to_gravon, py::arg("state"), py::arg("players") = std::array<std::string, 2>{},
        py::arg("winner") = py::none(), py::arg("result_type") = py::none(),
        "A Stratego state (finished or not) as Gravon XML; `winner` (0 Red, 1 Blue, 2 a draw) and `result_type` "
        "(Gravon's ending code) give the result of a game that ended off the board, e.g. a resignation (3).");
}

const GameBindings kStrategoGravon("stratego", &bind_gravon);

}  // namespace

}  // namespace boardlab::python
