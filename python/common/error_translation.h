// C++ errors as Python exceptions for both modules: boardlab's errors as the classes _boardlab defines, every message valid UTF-8 on its way.
#pragma once

#include <pybind11/pybind11.h>

#include <exception>
#include <new>
#include <stdexcept>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab::python {

// The Python classes of boardlab's errors, defined by _boardlab (bind_errors.cc) and shared by
// _boardlab_nn: an error is the same class whichever module raised it. Kept for the process.
struct ErrorClasses {
  PyObject* input = nullptr;
  PyObject* illegal_action = nullptr;
  PyObject* game_parameter = nullptr;
  PyObject* notation = nullptr;
  PyObject* file = nullptr;
};

// This module's classes (each module is its own shared library, with its own copy).
inline ErrorClasses& error_classes() {
  static ErrorClasses classes;
  return classes;
}

// PyErr_SetString decodes the message as UTF-8 and, when it cannot (a YAML error quoting a
// stray byte), raises with an empty message: the one place messages are made valid.
inline void set_python_error(PyObject* type, const char* message) {
  PyErr_SetString(type, valid_utf8(message).c_str());
}

// The Python class pybind11 gives a standard exception, for those translated here.
inline PyObject* standard_class(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return PyExc_MemoryError;
  if (dynamic_cast<const std::out_of_range*>(&e)) return PyExc_IndexError;
  if (dynamic_cast<const std::overflow_error*>(&e)) return PyExc_OverflowError;
  if (dynamic_cast<const std::domain_error*>(&e) || dynamic_cast<const std::invalid_argument*>(&e) ||
      dynamic_cast<const std::length_error*>(&e) || dynamic_cast<const std::range_error*>(&e))
    return PyExc_ValueError;
  return PyExc_RuntimeError;
}

inline void translate_error(std::exception_ptr error) {
  const ErrorClasses& c = error_classes();
  try {
    if (error) std::rethrow_exception(error);
  } catch (const IllegalActionError& e) {
    set_python_error(c.illegal_action, e.what());
  } catch (const GameParameterError& e) {
    set_python_error(c.game_parameter, e.what());
  } catch (const NotationError& e) {
    set_python_error(c.notation, e.what());
  } catch (const InputError& e) {
    set_python_error(c.input, e.what());
  } catch (const FileError& e) {
    set_python_error(c.file, e.what());
  } catch (const pybind11::builtin_exception&) {
    throw;  // pybind11's own (cast errors, stop_iteration...): its translator sets them
  } catch (const std::exception& e) {
    // Others keep pybind11's translation unless their message would be lost on the way.
    if (!invalid_utf8_at(e.what())) throw;
    set_python_error(standard_class(e), e.what());
  }
}

// Translates boardlab's errors into `classes` for the functions of the module being defined.
inline void translate_errors(const ErrorClasses& classes) {
  error_classes() = classes;
  pybind11::register_local_exception_translator(&translate_error);
}

}  // namespace boardlab::python
