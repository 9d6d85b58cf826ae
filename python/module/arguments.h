// Integer arguments from Python (players, actions, seeds) and their checks: a value out of range is a ValueError naming it, never a pybind11 signature dump.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/errors.h"
#include "core/game.h"

namespace boardlab::python {

// Any Python int or numpy integer (not bool, not float). `exact` is false when the value
// does not fit in 64 bits: `value` then holds the nearest end and `digits` the number.
struct IntArg {
  std::int64_t value = 0;
  bool exact = true;
  std::string digits;
  std::string text() const { return exact ? std::to_string(value) : digits; }
  bool in(std::int64_t low, std::int64_t high) const { return exact && value >= low && value <= high; }
};

// A seed: any integer 0 .. 2**64 - 1.
struct SeedArg {
  std::uint64_t value = 0;
};

// Checks that name the function (`what`) and the rule broken; each returns the checked value.
// A seat 0 .. num_players - 1.
Player seat_arg(const Game& game, const IntArg& p, const char* what);
// A seat, or CHANCE_PLAYER: whoever may act at some node.
Player actor_arg(const Game& game, const IntArg& p, const char* what);
// A seat, or PUBLIC_VIEWER.
Player viewer_arg(const Game& game, const IntArg& p, const char* what);
// An action 0 .. num_distinct_actions - 1; out of range throws IllegalActionError when
// `illegal` (it was to be played), else InputError.
Action action_arg(const Game& game, const IntArg& a, const char* what, bool illegal = false);
// A seed for a new random generator: the given one, or fresh entropy.
std::uint64_t seed_or_entropy(const std::optional<SeedArg>& seed);

}  // namespace boardlab::python

namespace pybind11::detail {

// `src` as a Python int when it is an integer (int, numpy integers: anything with
// __index__, but not bool or float); empty otherwise.
inline object python_integer(handle src) {
  if (!src || PyBool_Check(src.ptr()) || PyFloat_Check(src.ptr()) || !PyIndex_Check(src.ptr())) return {};
  object number = reinterpret_steal<object>(PyNumber_Index(src.ptr()));
  if (!number) PyErr_Clear();
  return number;
}

template <>
struct type_caster<boardlab::python::IntArg> {
  PYBIND11_TYPE_CASTER(boardlab::python::IntArg, const_name("int"));

  bool load(handle src, bool /*convert*/) {
    const object number = python_integer(src);
    if (!number) return false;
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    value.exact = overflow == 0;
    value.digits = value.exact ? std::string() : str(number).cast<std::string>();
    value.value = overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : static_cast<std::int64_t>(v);
    return true;
  }

  static handle cast(const boardlab::python::IntArg& src, return_value_policy, handle) {
    return PyLong_FromLongLong(src.value);
  }
};

template <>
struct type_caster<boardlab::python::SeedArg> {
  PYBIND11_TYPE_CASTER(boardlab::python::SeedArg, const_name("int"));

  bool load(handle src, bool /*convert*/) {
    const object number = python_integer(src);
    if (!number) return false;
    const unsigned long long v = PyLong_AsUnsignedLongLong(number.ptr());
    if (PyErr_Occurred()) {
      PyErr_Clear();
      // Thrown, not a failed match: the type is right, the value is not.
      throw boardlab::InputError("seed " + str(number).cast<std::string>() + " is outside 0 .. 2**64 - 1");
    }
    value.value = v;
    return true;
  }

  static handle cast(const boardlab::python::SeedArg& src, return_value_policy, handle) {
    return PyLong_FromUnsignedLongLong(src.value);
  }
};

}  // namespace pybind11::detail
