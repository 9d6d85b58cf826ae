// boardlab's errors as Python exceptions: input errors are ValueError, so `except ValueError` catches them; FileError is OSError.
#include "bindings.h"

#include "../common/error_translation.h"
#include "core/errors.h"

namespace py = pybind11;

namespace boardlab::python {

void bind_errors(py::module_& m) {
  // The classes only (py::exception's type argument serves pybind11's translator, not used
  // here): one translator, common/error_translation.h, raises them, every message made valid
  // UTF-8. The module holds each class for the process.
  const auto define = [&](const char* name, py::handle base) {
    return py::exception<InputError>(m, name, base).release().ptr();
  };
  ErrorClasses classes;
  classes.input = define("InputError", PyExc_ValueError);
  classes.illegal_action = define("IllegalActionError", classes.input);
  classes.game_parameter = define("GameParameterError", classes.input);
  classes.notation = define("NotationError", classes.input);
  // A file the system would not write (a full disk): OSError, reported in one line.
  classes.file = define("FileError", PyExc_OSError);
  translate_errors(classes);
}

}  // namespace boardlab::python
