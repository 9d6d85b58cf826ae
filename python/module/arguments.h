// Integer and text arguments from Python (players, actions, seeds; names, records, specs, paths) and their checks: a bad value is a ValueError naming it, never a pybind11 signature dump.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

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

// An integer argument within low..high (the range the function accepts, at most the range of
// the C++ type it becomes); `what` names the function and the argument, "run_arena: games".
// Out of range (2**31, 10**30, -1 for a count) is an InputError, a ValueError, naming both
// and the range: never pybind11's TypeError with a signature dump. Every bound function that
// takes an integer takes it as an IntArg and reads it through this.
std::int64_t int_arg(const IntArg& v, const char* what, std::int64_t low, std::int64_t high);
template <class T>
T int_arg(const IntArg& v, const char* what, std::int64_t low = 0,
          std::int64_t high = static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
  return static_cast<T>(int_arg(v, what, low, high));
}
// The same for an optional argument (None stays none).
template <class T>
std::optional<T> int_arg(const std::optional<IntArg>& v, const char* what, std::int64_t low = 0,
                         std::int64_t high = static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
  if (!v) return std::nullopt;
  return int_arg<T>(*v, what, low, high);
}

// A seed: any integer; seed_arg() checks it is 0 .. 2**64 - 1.
struct SeedArg {
  std::uint64_t value = 0;
  bool exact = true;   // false when the integer is outside 0 .. 2**64 - 1
  std::string digits;  // the integer, for the message, when it is not exact
};

// Any Python str (or bytes, taken as they are). A str that is not UTF-8 text holds a lone
// surrogate: what Python makes of an undecodable byte in a file name or a command-line
// argument ('\udcff' for the byte \xff). pybind11 cannot turn one into a std::string and
// answers with a signature dump, so every bound function takes user text (game names,
// records, notation, specs, options, config text, paths) as a TextArg and reads it through
// text_arg(), which names the argument instead.
struct TextArg {
  std::string text;     // the UTF-8 bytes; empty when `problem` is set
  std::string problem;  // what is wrong: "the undecodable byte \xff", "the lone surrogate \ud800"
};

// The text, or an InputError (a ValueError) "WHAT: not UTF-8 text (it holds the undecodable
// byte \xff)"; `what` names the function and the argument, "string_to_action: text".
const std::string& text_arg(const TextArg& v, const char* what);
std::optional<std::string> text_arg(const std::optional<TextArg>& v, const char* what);
// A list's items, each named "WHAT[i]" when it is not text.
std::vector<std::string> text_args(const std::vector<TextArg>& v, const char* what);
// The same check for a str held in a Python object (a dict key, a pickled field).
TextArg text_of(pybind11::handle str);

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
// The seed 0 .. 2**64 - 1, or an InputError naming `what` ("run_arena: seed").
std::uint64_t seed_arg(const SeedArg& seed, const char* what);
// A seed for a new random generator: the given one (checked as seed_arg), or fresh entropy.
std::uint64_t seed_or_entropy(const std::optional<SeedArg>& seed, const char* what);

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

// The decimal digits of a Python int for a message, or its size when the digits would be
// too many to show (or for Python to print: it refuses ints past 4300 digits).
inline std::string digits_of(const object& number) {
  const auto bits = number.attr("bit_length")().cast<std::size_t>();
  if (bits <= 256) return str(number).cast<std::string>();
  return std::string(PyObject_RichCompareBool(number.ptr(), int_(0).ptr(), Py_LT) == 1 ? "a negative" : "an") +
         " integer of " + std::to_string(bits) + " bits";
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
    value.digits = value.exact ? std::string() : digits_of(number);
    value.value = overflow > 0 ? INT64_MAX : overflow < 0 ? INT64_MIN : static_cast<std::int64_t>(v);
    return true;
  }

  static handle cast(const boardlab::python::IntArg& src, return_value_policy, handle) {
    return PyLong_FromLongLong(src.value);
  }
};

template <>
struct type_caster<boardlab::python::TextArg> {
  PYBIND11_TYPE_CASTER(boardlab::python::TextArg, const_name("str"));

  // A str always loads (text_arg() judges it); bytes load as they are, as for std::string.
  bool load(handle src, bool /*convert*/) {
    if (!src) return false;
    if (PyBytes_Check(src.ptr())) {
      value = {std::string(PyBytes_AS_STRING(src.ptr()), static_cast<std::size_t>(PyBytes_GET_SIZE(src.ptr()))), {}};
      return true;
    }
    if (!PyUnicode_Check(src.ptr())) return false;
    value = boardlab::python::text_of(src);
    return true;
  }

  static handle cast(const boardlab::python::TextArg& src, return_value_policy, handle) {
    return PyUnicode_DecodeUTF8(src.text.data(), static_cast<Py_ssize_t>(src.text.size()), "surrogateescape");
  }
};

template <>
struct type_caster<boardlab::python::SeedArg> {
  PYBIND11_TYPE_CASTER(boardlab::python::SeedArg, const_name("int"));

  bool load(handle src, bool /*convert*/) {
    const object number = python_integer(src);
    if (!number) return false;
    const unsigned long long v = PyLong_AsUnsignedLongLong(number.ptr());
    // Not a failed match: the type is right, the value is not, and the function names it.
    value.exact = !PyErr_Occurred();
    PyErr_Clear();
    value.value = value.exact ? v : 0;
    value.digits = value.exact ? std::string() : digits_of(number);
    return true;
  }

  static handle cast(const boardlab::python::SeedArg& src, return_value_policy, handle) {
    return PyLong_FromUnsignedLongLong(src.value);
  }
};

}  // namespace pybind11::detail
