// Run configuration: a schema of typed keys, YAML config files checked against it, and --set overrides.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/errors.h"

namespace boardlab {

enum class ConfigType { kBool, kInt, kFloat, kString, kStringList };

// One key a program reads. The default is YAML text, as a user would write it in the file,
// so that a schema reads like the config it describes: "128", "adam", "[random, uct:200]".
// An empty value reads as the empty string or the empty list.
struct ConfigKey {
  // Every member has a default so that designated initializers may leave any out under
  // -Wmissing-field-initializers: {.path = "mcts.simulations", .type = ConfigType::kInt, ...}.
  std::string path{};           // dotted: "training.batch_size"; each part is a section of the file
  ConfigType type = ConfigType::kString;
  std::string default_value{};  // YAML text of the default
  std::string doc{};            // one line: written as the key's comment by Config::to_yaml
  double min = -std::numeric_limits<double>::infinity();  // numbers only, inclusive
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices{};  // strings and string lists: the allowed values (empty: any)
};

using ConfigValue = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

// A config file or override that does not fit the schema. Messages name where the value was
// written ("FILE:LINE: " or "--set key=value: ") and what was expected there.
struct ConfigError : InputError {
  using InputError::InputError;
};

// Every key of a schema with its value. A bad schema (a default of the wrong type, a path
// given twice, ...) is a programming error and throws std::logic_error, as does asking for a
// key the schema lacks or as the wrong type.
class Config {
 public:
  // Reads YAML text (`source` names it in messages) against the schema, then applies each
  // override "dotted.path=value", the value being YAML text ("64", "[random, uct:100]");
  // later overrides win. Empty text, or text with only comments, means all defaults.
  static Config parse(std::string_view text, std::string_view source, const std::vector<ConfigKey>& schema,
                      const std::vector<std::string>& overrides = {});
  // As parse, with the contents of the file at `path`; a file that cannot be read is a
  // ConfigError naming the path and the system's reason.
  static Config load(const std::string& path, const std::vector<ConfigKey>& schema,
                     const std::vector<std::string>& overrides = {});

  bool get_bool(std::string_view path) const;
  std::int64_t get_int(std::string_view path) const;
  double get_float(std::string_view path) const;
  std::string get_string(std::string_view path) const;
  std::vector<std::string> get_strings(std::string_view path) const;
  const ConfigValue& value(std::string_view path) const;

  // True when the file or an override gave the key, false when it holds its default.
  bool was_set(std::string_view path) const;
  // Where the key's value was written, as the parser's own messages about it start:
  // "FILE:LINE: key: ", "--set key=value: ", or "SOURCE: key: " for a default. For checks
  // the schema cannot express (a game name, a player spec) to report the same way.
  std::string origin(std::string_view path) const;
  const std::vector<ConfigKey>& schema() const { return keys_; }

  // Every key with its value and its doc as a comment, nested in YAML sections in schema
  // order: the "config as used" saved in a run folder. parse reads it back to equal values.
  std::string to_yaml() const;

 private:
  Config() = default;
  std::size_t index_of(std::string_view path, ConfigType type) const;

  std::vector<ConfigKey> keys_;
  std::vector<ConfigValue> values_;
  std::vector<bool> was_set_;
  std::vector<std::string> origins_;
  std::map<std::string, std::size_t, std::less<>> index_;
};

}  // namespace boardlab
