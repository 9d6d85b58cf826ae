// Helpers shared by the core tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/errors.h"

namespace boardlab {

// Runs `f`, expects a GameParameterError, and returns its message for content checks.
template <class F>
std::string parameter_error(F&& f) {
  try {
    f();
  } catch (const GameParameterError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected GameParameterError";
  return {};
}

}  // namespace boardlab
