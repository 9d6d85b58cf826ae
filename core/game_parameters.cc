// Parsing, type checking and printing of game parameters.
#include "core/game_parameters.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {
namespace {

bool valid_identifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string param_type_name(const ParamValue& value) {
  switch (value.index()) {
    case 0: return "bool";
    case 1: return "int";
    case 2: return "float";
    default: return "string";
  }
}

std::string param_to_string(const ParamValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<std::int64_t>(&value)) return std::to_string(*i);
  if (const double* d = std::get_if<double>(&value)) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, *d);
    return std::string(buf, end);
  }
  return std::get<std::string>(value);
}

ParamValue parse_param(std::string_view text, const ParamValue& like, std::string_view what) {
  text = trim(text);
  auto fail = [&]() -> ParamValue {
    throw GameParameterError(std::string(what) + " expects " + param_type_name(like) + ", got " +
                             quote_input(text));
  };
  switch (like.index()) {
    case 0:
      if (const auto b = parse_bool(text)) return *b;
      return fail();
    case 1: {
      std::int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return fail();
      return v;
    }
    case 2: {
      const std::string copy(text);
      char* end = nullptr;
      errno = 0;
      const double v = std::strtod(copy.c_str(), &end);
      if (copy.empty() || errno != 0 || end != copy.c_str() + copy.size()) return fail();
      return v;
    }
    default: return std::string(text);
  }
}

GameString parse_game_string(std::string_view text) {
  text = trim(text);
  GameString out;
  const auto open = text.find('(');
  if (open == std::string_view::npos) {
    out.name = std::string(text);
  } else {
    if (text.back() != ')')
      throw GameParameterError("game string " + quote_input(text) + " has '(' without a closing ')'");
    out.name = std::string(trim(text.substr(0, open)));
    std::string_view body = text.substr(open + 1, text.size() - open - 2);
    while (!trim(body).empty()) {
      const auto comma = body.find(',');
      const std::string_view item = trim(body.substr(0, comma));
      const auto eq = item.find('=');
      if (eq == std::string_view::npos)
        throw GameParameterError("game string " + quote_input(text) + ": parameter " + quote_input(item) +
                                 " is not of the form key=value");
      const std::string key(trim(item.substr(0, eq)));
      if (!valid_identifier(key))
        throw GameParameterError("game string " + quote_input(text) + ": " + quote_input(key) + " is not a parameter name");
      if (!out.params.emplace(key, std::string(trim(item.substr(eq + 1)))).second)
        throw GameParameterError("game string " + quote_input(text) + ": parameter '" + key + "' given twice");
      if (comma == std::string_view::npos) break;
      body.remove_prefix(comma + 1);
    }
  }
  if (!valid_identifier(out.name))
    throw GameParameterError(quote_input(text) + " is not a game name");
  return out;
}

GameParameters resolve_parameters(std::string_view game, const std::vector<ParamSpec>& specs,
                                  const GameParameters& given) {
  GameParameters out;
  for (const auto& spec : specs) out[spec.name] = spec.default_value;
  for (const auto& [key, value] : given) {
    auto it = out.find(key);
    if (it == out.end()) {
      std::string known;
      for (const auto& spec : specs) known += (known.empty() ? "" : ", ") + spec.name;
      throw GameParameterError("game '" + std::string(game) + "' has no parameter " + quote_input(key) + " (it has: " +
                               (known.empty() ? "none" : known) + ")");
    }
    const std::string what = "parameter " + quote_input(key) + " of game '" + std::string(game) + "'";
    if (value.index() == it->second.index()) {
      it->second = value;
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      it->second = parse_param(*s, it->second, what);  // text from a command line or a game string
    } else if (std::holds_alternative<double>(it->second) && std::holds_alternative<std::int64_t>(value)) {
      it->second = static_cast<double>(std::get<std::int64_t>(value));
    } else {
      throw GameParameterError(what + " expects " + param_type_name(it->second) + ", got " +
                               param_type_name(value) + " " + param_to_string(value));
    }
  }
  return out;
}

std::string game_string(std::string_view name, const GameParameters& params) {
  std::string out(name);
  if (params.empty()) return out;
  out += '(';
  bool first = true;
  for (const auto& [key, value] : params) {
    if (!first) out += ',';
    first = false;
    out += key + "=" + param_to_string(value);
  }
  return out + ')';
}

}  // namespace boardlab
