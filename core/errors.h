// Error types: bad input (each names what was wrong and why; Python's ValueError), and files the system would not write.
#pragma once

#include <stdexcept>
#include <string>

namespace boardlab {

// Derived from std::invalid_argument so that pybind11 raises ValueError for all of them.
struct InputError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// An action that is not legal in the state it was applied to; the state is left unchanged.
struct IllegalActionError : InputError {
  using InputError::InputError;
};

// Unknown game, unknown parameter, or a parameter value of the wrong type or range.
struct GameParameterError : InputError {
  using InputError::InputError;
};

// A record or a piece of notation that cannot be read, or that describes an illegal game.
struct NotationError : InputError {
  using InputError::InputError;
};

// A file that could not be written or read for a reason outside the input (a full disk, a
// missing permission): names the file and the system's reason; Python's OSError, so that
// the command line reports it in one line.
struct FileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace boardlab
