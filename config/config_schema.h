// What a config struct's visit() says about a key besides its name, field and description: a range, the choices or a least length.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace boardlab {

// The values a number key accepts, bounds inclusive unless `min_excluded` ("> 0"). Written
// in a visit() line as Range::between(1, 512), Range::at_least(0) or Range::above(0, 1).
struct Range {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_excluded = false;

  static constexpr Range between(double lo, double hi) { return {lo, hi, false}; }
  static constexpr Range at_least(double lo) { return {lo, std::numeric_limits<double>::infinity(), false}; }
  // (lo, hi]: for a value that must stay positive, such as a divisor.
  static constexpr Range above(double lo, double hi = std::numeric_limits<double>::infinity()) {
    return {lo, hi, true};
  }
  constexpr bool contains(double v) const { return (min_excluded ? v > min : v >= min) && v <= max; }
};

// The values a string key (or each item of a string-list key) accepts.
struct Choices {
  std::vector<std::string> names;
  Choices(std::initializer_list<std::string_view> list) : names(list.begin(), list.end()) {}
};

// A list key that needs items to work (evaluation opponents): at least `min` of them.
// Written in a visit() line as MinItems{1}; an empty list is refused where it was written.
struct MinItems {
  std::size_t min = 1;
};

// One name of an enum as configs spell it; a key of enum type lists all of them, in a
// table kept next to the enum: {{SearchAlgorithm::kPuct, "puct"}, ...}.
template <class E>
struct EnumName {
  E value;
  std::string_view name;
};

template <class E, std::size_t N>
constexpr std::string_view enum_name(const EnumName<E> (&names)[N], E value) {
  for (const auto& entry : names)
    if (entry.value == value) return entry.name;
  return "?";
}

template <class E, std::size_t N>
constexpr std::optional<E> enum_value(const EnumName<E> (&names)[N], std::string_view name) {
  for (const auto& entry : names)
    if (entry.name == name) return entry.value;
  return std::nullopt;
}

}  // namespace boardlab
