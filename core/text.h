// Small text helpers shared by the parsers of game strings and configs.
#pragma once

#include <optional>
#include <string_view>

namespace boardlab {

// `s` without leading and trailing spaces and tabs.
constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The one spelling of booleans in configs, search options and game parameters: true, True,
// TRUE or 1; false, False, FALSE or 0. yes/no/on/off are refused: "no" is too easily a typo
// or a string, and YAML 1.2 reads them as strings too.
constexpr std::optional<bool> parse_bool(std::string_view s) {
  if (s == "true" || s == "True" || s == "TRUE" || s == "1") return true;
  if (s == "false" || s == "False" || s == "FALSE" || s == "0") return false;
  return std::nullopt;
}

}  // namespace boardlab
