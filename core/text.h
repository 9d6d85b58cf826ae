// Small text helpers shared by the parsers of game strings, player specs and configs, and the quoting of user input in their errors.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
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

// `s` as one CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, as
// player specs such as "mcts(simulations=64,c_puct=2)" do, which name arena rows and metrics columns.
std::string csv_field(std::string_view s);

// How much of a piece of input an error message echoes, in characters: enough to recognise
// it, not a 5 MB token echoed back three times.
inline constexpr std::size_t kInputEchoChars = 80;

// `s` as an error message may echo it: in quotes, control characters (NUL included) and
// bytes that are not UTF-8 written as \xNN, and at most kInputEchoChars characters followed
// by "… (N bytes)". The result is valid UTF-8 without NUL, so that a message is never cut
// short or dropped on its way to Python or a terminal. Every parser error that shows user
// input goes through it.
std::string quote_input(std::string_view s);
// The same without the quotes, at most `max_chars` characters.
std::string escape_input(std::string_view s, std::size_t max_chars = kInputEchoChars);
// The offset of the first byte of `s` that is not part of valid UTF-8, if any.
std::optional<std::size_t> invalid_utf8_at(std::string_view s);
// `s` with each byte that is not part of valid UTF-8 written as \xNN and all else as it is,
// newlines and length included: a message that can always reach Python, which would drop
// one it cannot decode (an empty error) where the message quotes a stray byte.
std::string valid_utf8(std::string_view s);

}  // namespace boardlab
