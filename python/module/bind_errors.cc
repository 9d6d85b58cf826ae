// boardlab's errors as Python exceptions: input errors are ValueError, so `except ValueError` catches them; FileError is OSError.
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
  // A file the system would not write (a full disk): OSError, reported in one line.
  py::register_local_exception<FileError>(m, "FileError", PyExc_OSError);
}

}  // namespace boardlab::python
