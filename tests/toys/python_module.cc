// _boardlab_toys: the toy games for the Python tests, as boardlab.Game objects; built with the tests, never shipped.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/errors.h"
#include "python/module/handles.h"
#include "tests/toys/toys.h"

namespace py = pybind11;

PYBIND11_MODULE(_boardlab_toys, m) {
  using namespace boardlab;
  m.doc() = "Toy games registered for tests only: toy_race";
  // The Game type and the error classes are _boardlab's: pybind11 shares registered types
  // between modules once the one that registers them is loaded.
  const py::module_ core = py::module_::import("boardlab._boardlab");
  static const py::handle input = py::object(core.attr("InputError")).release();  // kept for the process
  static const py::handle parameter = py::object(core.attr("GameParameterError")).release();
  // load_toy's errors are raised here, where _boardlab's translators (local to it) do not
  // apply: map them to the same classes.
  py::register_local_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const GameParameterError& e) {
      PyErr_SetString(parameter.ptr(), e.what());
    } catch (const InputError& e) {
      PyErr_SetString(input.ptr(), e.what());
    }
  });
  m.def(
      "load_toy", [](std::string_view game) { return python::GameHandle{load_toy(game)}; }, py::arg("game"),
      "A toy game as a boardlab.Game: load_toy('toy_race(players=4,tokens=9)').");
  m.def(
      "toy_names",
      []() {
        std::vector<std::string> names;
        for (const GameSpec& spec : toy_games()) names.push_back(spec.name);
        return names;
      },
      "The toy games' names.");
  m.def(
      "toy_presets",
      [](std::string_view name) {
        for (const GameSpec& spec : toy_games())
          if (spec.name == name) return spec.presets;
        throw GameParameterError("unknown toy game '" + std::string(name) + "'");
      },
      py::arg("name"), "The parameter settings worth testing besides the defaults, e.g. ['rounds=3'].");
}
