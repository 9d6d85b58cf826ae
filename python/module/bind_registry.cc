// The game registry for Python: load_game(), registered_games() and game_specs().
#include <pybind11/stl.h>

#include <string>

#include "arguments.h"
#include "bindings.h"
#include "core/errors.h"
#include "core/game_parameters.h"
#include "core/source_tree.h"
#include "games/registry.h"
#include "handles.h"

namespace py = pybind11;

namespace boardlab::python {
namespace {

// Python values keep their type (resolve_parameters checks it against the game's spec);
// strings are parsed by that spec, as on the command line.
ParamValue to_param_value(const std::string& key, py::handle value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (PyFloat_Check(value.ptr())) return value.cast<double>();
  if (py::isinstance<py::str>(value)) return text_arg(text_of(value), ("load_game: parameter '" + key + "'").c_str());
  if (PyIndex_Check(value.ptr())) {
    try {
      return py::cast<std::int64_t>(value);
    } catch (const py::cast_error&) {
      throw GameParameterError("parameter '" + key + "': " + py::str(value).cast<std::string>() +
                               " does not fit in 64 bits");
    }
  }
  throw GameParameterError("parameter '" + key + "': values are bool, int, float or str, not " +
                           py::str(py::type::of(value).attr("__name__")).cast<std::string>());
}

void add_params(GameParameters& params, const py::dict& values, const std::string& game) {
  for (const auto& [key, value] : values) {
    if (!py::isinstance<py::str>(key)) throw GameParameterError("parameter names are strings");
    const std::string name = text_arg(text_of(key), "load_game: a parameter name");
    if (!params.emplace(name, to_param_value(name, value)).second)
      throw GameParameterError("game '" + game + "': parameter '" + name + "' given twice");
  }
}

GameHandle load(const TextArg& text, const std::optional<py::dict>& params, const py::kwargs& kwargs) {
  const GameString parsed = parse_game_string(text_arg(text, "load_game: game"));
  GameParameters given;
  for (const auto& [key, value] : parsed.params) given[key] = value;
  if (params) add_params(given, *params, parsed.name);
  add_params(given, kwargs, parsed.name);
  return GameHandle{load_game(parsed.name, given)};
}

py::list specs() {
  py::list out;
  for (const GameSpec& spec : registered_games()) {
    py::list params;
    for (const ParamSpec& p : spec.params)
      params.append(py::dict(py::arg("name") = p.name, py::arg("default") = p.default_value,
                             py::arg("type") = param_type_name(p.default_value), py::arg("doc") = p.doc));
    out.append(py::dict(py::arg("name") = spec.name, py::arg("description") = spec.description,
                        py::arg("parameters") = params, py::arg("presets") = spec.presets,
                        py::arg("suites_play_defaults") = spec.suites_play_defaults));
  }
  return out;
}

}  // namespace

void bind_registry(py::module_& m) {
  m.def("load_game", &load, py::arg("game"), py::arg("params") = py::none(),
        "A game by name, e.g. load_game('virus_war'), load_game('virus_war(strict=true)'), "
        "load_game('virus_war', strict=True) or load_game('virus_war', {'strict': True}). "
        "Unknown games and parameters raise GameParameterError (a ValueError).");
  m.def("games_source_dir", &games_source_dir,
        "The source tree's games/ folder: a game's folder there (games/NAME/) holds its drawing, render.py, "
        "and its ladders.");
  m.def("registered_games",
        []() {
          std::vector<std::string> names;
          for (const GameSpec& spec : registered_games()) names.push_back(spec.name);
          return names;
        },
        "The names of every game, in listing order.");
  m.def("game_specs", &specs,
        "Every game as a dict: name, description, parameters (name, default, type, doc), presets "
        "(parameter settings worth checking besides the defaults, e.g. 'strict=true') and "
        "suites_play_defaults (false where the shared test suites play only the presets).");
}

}  // namespace boardlab::python
