// The registry of games' own Python bindings, filled at static initialisation and read once by the module.
#include "game_bindings.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace boardlab::python {

namespace py = pybind11;

namespace {

std::vector<std::pair<std::string, BindGameFunctions>>& registered() {
  static std::vector<std::pair<std::string, BindGameFunctions>> bindings;  // built before any registration uses it
  return bindings;
}

}  // namespace

GameBindings::GameBindings(const char* game, BindGameFunctions bind) { registered().emplace_back(game, bind); }

void bind_games_own(py::module_& m) {
  // In the games' order, so the module is the same whatever order the linker ran their initialisers in.
  auto bindings = registered();
  std::sort(bindings.begin(), bindings.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  py::list added;
  for (const auto& [game, bind] : bindings) {
    const py::dict before = m.attr("__dict__").attr("copy")();
    bind(m);
    for (const auto& [name, value] : py::dict(m.attr("__dict__"))) {
      if (!before.contains(name)) added.append(name);
    }
  }
  m.attr("GAME_FUNCTIONS") = added;
}

}  // namespace boardlab::python
