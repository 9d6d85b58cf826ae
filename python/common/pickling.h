// Pickling and copying of bound classes: value classes through a checked tuple of plain values at every protocol, live handles refused with a TypeError.
#pragma once

#include <pybind11/pybind11.h>

#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../module/arguments.h"
#include "core/errors.h"
#include "core/text.h"

namespace boardlab::python {

// The layout of every payload below: (kPickleVersion, fields...). A payload of another
// version, or of another shape, is refused by name rather than half read.
inline constexpr int kPickleVersion = 1;

// Reads a pickle payload for `cls` (the class's name, for messages): checks that it is a
// tuple of `fields` + 1 items beginning with kPickleVersion, and hands out the fields with
// their types checked. Every failure is an InputError (a ValueError) naming the class and
// the field.
class PickleReader {
 public:
  PickleReader(const char* cls, pybind11::handle payload, std::size_t fields) : cls_(cls) {
    if (!pybind11::isinstance<pybind11::tuple>(payload))
      fail("the payload is of type " + type_name(payload) + ", not a tuple");
    items_ = pybind11::reinterpret_borrow<pybind11::tuple>(payload);
    if (items_.size() != fields + 1)
      fail("the payload has " + std::to_string(items_.size()) + " items, not " + std::to_string(fields + 1));
    const pybind11::handle version = items_[0];
    if (!PyLong_CheckExact(version.ptr()) || version.cast<long long>() != kPickleVersion)
      fail("the payload's version is " + escape_input(pybind11::repr(version).cast<std::string>()) + ", not " +
           std::to_string(kPickleVersion) + " (pickled by another boardlab?)");
  }

  // Field `i` (0-based, after the version) as a T, or an error naming `what` it should be.
  template <class T>
  T get(std::size_t i, const char* name, const char* expected) const {
    const pybind11::handle item = items_[i + 1];
    if (!holds<T>(item)) fail(std::string(name) + " is of type " + type_name(item) + ", not " + expected);
    if constexpr (std::is_same_v<T, std::string>)
      return text_arg(text_of(item), (std::string("cannot unpickle ") + cls_ + ": " + name).c_str());
    else
      return item.cast<T>();
  }
  pybind11::handle item(std::size_t i) const { return items_[i + 1]; }
  // Field `i` as a list of integers of type T (a tuple or list in the payload).
  template <class T>
  std::vector<T> get_list(std::size_t i, const char* name) const {
    const pybind11::handle list = items_[i + 1];
    if (!pybind11::isinstance<pybind11::tuple>(list) && !pybind11::isinstance<pybind11::list>(list))
      fail(std::string(name) + " is of type " + type_name(list) + ", not a tuple of ints");
    std::vector<T> out;
    std::size_t k = 0;
    for (const pybind11::handle item : pybind11::reinterpret_borrow<pybind11::sequence>(list)) {
      if (!holds<T>(item))
        fail(std::string(name) + "[" + std::to_string(k) + "] is " + escape_input(pybind11::repr(item).cast<std::string>()) +
             ", not an int of " + std::to_string(std::numeric_limits<T>::min()) + ".." +
             std::to_string(std::numeric_limits<T>::max()));
      out.push_back(item.cast<T>());
      ++k;
    }
    return out;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(std::string("cannot unpickle ") + cls_ + ": " + why);
  }

  static std::string type_name(pybind11::handle h) {
    return pybind11::str(pybind11::type::of(h).attr("__name__")).cast<std::string>();
  }

 private:
  template <class T>
  static bool holds(pybind11::handle h) {
    if constexpr (std::is_same_v<T, std::string>) return PyUnicode_Check(h.ptr());
    else if constexpr (std::is_same_v<T, bool>) return PyBool_Check(h.ptr());
    else if constexpr (std::is_integral_v<T>) {
      if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) return false;
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
      return overflow == 0 && v >= static_cast<long long>(std::numeric_limits<T>::min()) &&
             static_cast<unsigned long long>(v) <= static_cast<unsigned long long>(std::numeric_limits<T>::max());
    } else if constexpr (std::is_floating_point_v<T>) return PyFloat_Check(h.ptr()) || PyLong_Check(h.ptr());
    else return pybind11::isinstance<T>(h);
  }

  const char* cls_;
  pybind11::tuple items_;
};

namespace detail {

// (copyreg.__newobj__, (type(self),), state): what protocol 2 and later make of a class with
// __getstate__, given at every protocol. Protocols 0 and 1 would otherwise go through
// copyreg._reduce_ex, which cannot make a pybind11 instance.
inline pybind11::tuple reduce_through_state(pybind11::handle self) {
  static const pybind11::handle newobj =
      pybind11::object(pybind11::module_::import("copyreg").attr("__newobj__")).release();  // kept for the process
  return pybind11::make_tuple(newobj, pybind11::make_tuple(pybind11::type::of(self)), self.attr("__getstate__")());
}

}  // namespace detail

// Makes `cls` pickle at every protocol and copy (copy.copy, copy.deepcopy) through `get`,
// which returns the payload (kPickleVersion, fields...) as a pybind11::tuple, and `set`, which
// reads any Python object with a PickleReader and returns the restored T (or throws
// InputError naming what is wrong: a tampered payload is a ValueError, never a crash).
template <class T, class... Options, class Get, class Set>
void make_picklable(pybind11::class_<T, Options...>& cls, Get get, Set set) {
  namespace py = pybind11;
  cls.def(py::pickle([get](const T& value) -> py::object { return get(value); },
                     [set](const py::object& payload) { return set(payload); }));
  cls.def("__reduce_ex__", [](py::handle self, const py::object& /*protocol*/) {
    return detail::reduce_through_state(self);
  });
  cls.def("__reduce__", [](py::handle self) { return detail::reduce_through_state(self); });
}

// Makes the enum `cls` pickle at every protocol by its member's name: Enum("NAME") reads it
// back, and a name that is no member is a ValueError naming the members.
template <class E>
void make_enum_picklable(pybind11::enum_<E>& cls) {
  namespace py = pybind11;
  const py::handle type = cls;  // the class outlives its instances and the module
  cls.def(py::init([type](const TextArg& name_arg) {
            const std::string what = py::str(type.attr("__qualname__")).cast<std::string>() + ": name";
            const std::string& name = text_arg(name_arg, what.c_str());
            const py::dict members = type.attr("__members__");
            if (!members.contains(name)) {
              std::string known;
              for (const auto& [key, value] : members) known += (known.empty() ? "" : ", ") + py::str(key).cast<std::string>();
              throw InputError("cannot unpickle " + py::str(type.attr("__qualname__")).cast<std::string>() + ": " +
                               quote_input(name) + " is none of " + known);
            }
            return members[py::str(name)].cast<E>();
          }),
          py::arg("name"));
  const auto reduce = [](py::handle self) {
    return py::make_tuple(py::type::of(self), py::make_tuple(self.attr("name")));
  };
  cls.def("__reduce_ex__", [reduce](py::handle self, const py::object&) { return reduce(self); });
  cls.def("__reduce__", reduce);
}

// Refuses pickling and copying of `cls` (a live handle: a running search, a network): a
// TypeError naming the class and `why` at every protocol and from copy.copy/deepcopy.
template <class T, class... Options>
void refuse_pickling(pybind11::class_<T, Options...>& cls, const std::string& why) {
  namespace py = pybind11;
  const std::string message =
      "cannot pickle or copy boardlab." + py::str(cls.attr("__name__")).template cast<std::string>() + ": " + why;
  const auto refuse = [message](py::handle) -> py::object { throw py::type_error(message); };
  cls.def("__reduce_ex__", [refuse](py::handle self, const py::object&) { return refuse(self); });
  cls.def("__reduce__", refuse);
  cls.def("__getstate__", refuse);
  cls.def("__copy__", refuse);
  cls.def("__deepcopy__", [refuse](py::handle self, const py::object&) { return refuse(self); });
}

}  // namespace boardlab::python
