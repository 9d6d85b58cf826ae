// The one test helper for expected errors: the message of the exception a call throws.
#pragma once

#include <exception>
#include <string>

#include "core/errors.h"

namespace boardlab {

// The message of the E that `f` throws; "no error" when it throws nothing, and "not the
// expected error type: ..." for another exception, so that a test comparing messages
// fails with a readable line.
template <typename E = InputError, typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not the expected error type: ") + e.what();
  }
  return "no error";
}

}  // namespace boardlab
