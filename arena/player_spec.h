// The one syntax of player specs, kind[:argument][(key=value,...)], and of lists of them: parsed here for C++, Python, the command line and configs alike.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace boardlab {

// A player spec, e.g. "random", "uct:200", "uct(simulations=200,rollouts=2)",
// "mcts(algorithm=puct,simulations=8)", "agent:runs/x/latest.pt(simulations=8)".
//
// Options go in parentheses, as game strings do ("virus_war(strict=true)"), so that a list
// of players can be split at its commas: "agent:ck.pt(simulations=8),random" is two players.
// The argument after ':' is the kind's main value (uct's simulations, agent's checkpoint),
// kept as the short form every spec without options already had. An argument or a value
// that holds , ( ) ' " or surrounding spaces is quoted, 'like this' or "like this", with a
// backslash before a quote or a backslash inside: agent:'my,run/latest.pt'(simulations=8).
struct PlayerSpec {
  std::string kind;
  std::optional<std::string> argument;
  std::vector<std::pair<std::string, std::string>> options;  // in the order given, keys unique

  // The value of option `key`, if given.
  std::optional<std::string> option(std::string_view key) const;
};

// Parses one spec. Throws InputError naming the spec (quoted by quote_input) and what is
// wrong, e.g. an unclosed parenthesis or quote, an option without '=', a key given twice,
// or the old comma spelling "mcts:algorithm=puct,simulations=8", with the new one.
PlayerSpec parse_player_spec(std::string_view text);

// Splits a list of specs at its top-level commas (not those inside parentheses or quotes)
// and checks each; items are trimmed. Throws InputError for an empty item, an unbalanced
// list, or the old comma spelling of options ("agent:ck.pt,simulations=8"), naming the new.
std::vector<std::string> split_player_specs(std::string_view text);

// The canonical text of a spec, quoting the argument and values that need it: parse_player_spec
// reads it back to the same spec.
std::string player_spec_string(const PlayerSpec& spec);

// `text` as an argument or value of a spec: as it is when it can be written bare, else quoted.
std::string spec_value(std::string_view text);

}  // namespace boardlab
