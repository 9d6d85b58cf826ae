// Small text helpers shared by the parsers of game strings and configs.
#pragma once

#include <string_view>

namespace boardlab {

// `s` without leading and trailing spaces and tabs.
constexpr std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace boardlab
