// boardlab's input errors as Python exceptions: all are ValueError, so `except ValueError` catches them.
#include "bindings.h"

#include "core/errors.h"

namespace py = pybind11;

namespace boardlab::python {

void bind_errors(py::module_& m) {
  // The base first: pybind11 tries translators newest first, so the subclasses registered
  // after it are matched before it.
  auto& input = py::register_local_exception<InputError>(m, "InputError", PyExc_ValueError);
  py::register_local_exception<IllegalActionError>(m, "IllegalActionError", input);
  py::register_local_exception<GameParameterError>(m, "GameParameterError", input);
  py::register_local_exception<NotationError>(m, "NotationError", input);
}

}  // namespace boardlab::python
