// The parts of the _boardlab module, one function per concern, called in order by module.cc.
#pragma once

#include <pybind11/pybind11.h>

namespace boardlab::python {

struct StateHandle;

void bind_errors(pybind11::module_& m);
void bind_game(pybind11::module_& m);
void bind_state(pybind11::module_& m);
// State.diagram(), called by bind_state.
void bind_state_diagram(pybind11::class_<StateHandle>& state);
void bind_registry(pybind11::module_& m);
void bind_tools(pybind11::module_& m);
void bind_search(pybind11::module_& m);
void bind_ladder(pybind11::module_& m);

}  // namespace boardlab::python
