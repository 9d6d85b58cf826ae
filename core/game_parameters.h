// Game parameters: typed values, their declared specs, and the "name(key=value,...)" text form.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace boardlab {

using ParamValue = std::variant<bool, std::int64_t, double, std::string>;
// Ordered so that a game's canonical text is the same whatever order the user wrote.
using GameParameters = std::map<std::string, ParamValue>;

// One parameter a game accepts: its default fixes its type.
struct ParamSpec {
  std::string name;
  ParamValue default_value;
  std::string doc;
};

std::string param_type_name(const ParamValue& value);
std::string param_to_string(const ParamValue& value);

// Reads text as a value of the same type as `like`; throws GameParameterError naming `what`.
ParamValue parse_param(std::string_view text, const ParamValue& like, std::string_view what);

// A game named with its parameters, e.g. "virus_war(strict=true)". Values stay text
// until the game's specs give them a type.
struct GameString {
  std::string name;
  std::map<std::string, std::string> params;
};
GameString parse_game_string(std::string_view text);

// Checks `given` against `specs`: an unknown name or a value of the wrong type is an
// error naming the game, the parameter and the expectation. Returns every parameter,
// defaults filled in.
GameParameters resolve_parameters(std::string_view game, const std::vector<ParamSpec>& specs,
                                  const GameParameters& given);

// "name(k1=v1,k2=v2)", or "name" when there are no parameters.
std::string game_string(std::string_view name, const GameParameters& params);

}  // namespace boardlab
