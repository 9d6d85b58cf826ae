// Error types for bad input: each names what was wrong and why, and maps to Python's ValueError.
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

}  // namespace boardlab
