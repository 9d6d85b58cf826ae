// Long C++ calls from Python: the GIL released, SIGINT and SIGTERM turned into the one stop request (core/stop.h).
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <type_traits>
#include <utility>

#include "core/stop.h"

namespace boardlab::python {

template <class T>
struct Stoppable {
  T value;
  int signal = 0;  // the signal that stopped the work early, 0 when none did
};

// Runs `work` (which touches no Python object) with the GIL released, under a StopOnSignals
// guard: Ctrl-C or SIGTERM ends it at its next check, where Python alone could not see the
// signal until the work was over.
template <class Work>
auto run_stoppable(Work&& work) -> Stoppable<std::invoke_result_t<Work&>> {
  std::optional<std::invoke_result_t<Work&>> value;
  int signal = 0;
  {
    StopOnSignals guard;
    {
      pybind11::gil_scoped_release release;
      value.emplace(work());
    }
    signal = guard.signal();
  }
  return {std::move(*value), signal};
}

// Hands the signal that stopped some work to the handler Python had for it, so that Ctrl-C
// raises KeyboardInterrupt (and an unhandled SIGTERM ends the process) as if C++ had not
// been running. The stopped work is unfinished, so its caller gets an exception either way.
inline void raise_in_python(int signal) {
  if (signal == 0) return;
  StopOnSignals::forward(signal);
  if (PyErr_CheckSignals() == 0) PyErr_SetNone(PyExc_KeyboardInterrupt);
  throw pybind11::error_already_set();
}

// run_stoppable for work whose partial result means nothing: a stop raises in Python.
template <class Work>
auto run_interruptible(Work&& work) {
  auto result = run_stoppable(std::forward<Work>(work));
  raise_in_python(result.signal);
  return std::move(result.value);
}

}  // namespace boardlab::python
