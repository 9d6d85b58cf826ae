// Configs: each struct lists its keys once in visit(); Config binds them for YAML files, --set, player-spec options, checks and the commented dump.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "config/config_schema.h"
#include "core/errors.h"

namespace boardlab {

// A config is a page of keys: a file larger than this is not one (and reading on would
// grow without bound on /dev/zero).
inline constexpr std::size_t kMaxConfigFileBytes = std::size_t{1} << 20;

// A config file, override or option that does not fit the keys. Messages name where the
// value was written ("FILE:LINE: key: ", "--set key=value: ", "search option 'key': ") and
// what was expected there.
struct ConfigError : InputError {
  using InputError::InputError;
};

enum class ConfigType { kBool, kInt, kFloat, kString, kStringList };

// A key's value on its way between text and its field.
using ConfigValue = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

// One key bound to one field of a config struct: what visit() said about it and how to
// read and write the field.
struct ConfigKey {
  std::string path;  // dotted: "training.batch_size"; each part but the last is a section
  ConfigType type = ConfigType::kString;
  std::string doc;  // one line: the key's comment in the YAML dump
  Range range;      // numbers: the values accepted, as visit() declared them
  Range limits;     // numbers: what the field's C++ type holds ("beyond the range of ...")
  std::string_view storage;  // numbers: that type, for the message ("32-bit integer")
  std::vector<std::string> choices;  // strings and string lists: the values accepted (empty: any)
  std::size_t min_items = 0;         // string lists: the fewest items accepted
  const void* field = nullptr;  // the bound field, for Config::origin_of
  std::function<ConfigValue()> get;
  std::function<void(const ConfigValue&)> set;
};

// The visitor a struct's `template <class V> void visit(V& v)` is called with to bind its
// keys. A visit() line is `v("name", field, "description"[, range or choices])`:
//   bool; integers and floating point with an optional Range; std::string and
//   std::vector<std::string> with optional Choices or MinItems; an enum with its EnumName table.
// `v.section("name", member)` visits a member struct as a section, and
// `v.section("name", [&] { ... })` puts the lines of the lambda in one.
class ConfigBinder {
 public:
  explicit ConfigBinder(std::vector<ConfigKey>& keys) : keys_(keys) {}

  template <class T, class... Constraint>
  void operator()(std::string_view name, T& field, std::string_view doc, const Constraint&... constraint) {
    static_assert(sizeof...(Constraint) <= 1, "a key has at most one range or set of choices");
    ConfigKey key;
    key.path = prefix_ + std::string(name);
    key.doc = std::string(doc);
    bind(key, field, constraint...);
    key.field = &field;
    keys_.push_back(std::move(key));
  }

  template <class Body>
  void section(std::string_view name, Body&& body) {
    const std::size_t outer = prefix_.size();
    prefix_ += std::string(name) + ".";
    if constexpr (std::is_invocable_v<Body&>) {
      body();
    } else {
      body.visit(*this);
    }
    prefix_.resize(outer);
  }

 private:
  static void bind(ConfigKey& key, bool& field) {
    key.type = ConfigType::kBool;
    key.get = [&field] { return ConfigValue(field); };
    key.set = [&field](const ConfigValue& v) { field = std::get<bool>(v); };
  }

  template <std::integral T>
    requires(!std::same_as<T, bool>)
  static void bind(ConfigKey& key, T& field, const Range& range = {}) {
    using Limits = std::numeric_limits<T>;
    static_assert(sizeof(T) <= sizeof(std::int64_t));
    key.type = ConfigType::kInt;
    key.range = range;
    key.limits = Range::between(static_cast<double>(Limits::min()),
                                static_cast<double>(std::min<std::uint64_t>(
                                    static_cast<std::uint64_t>(Limits::max()),
                                    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))));
    key.storage = sizeof(T) == 8 ? "64-bit integer" : sizeof(T) == 4 ? "32-bit integer" : "small integer";
    key.get = [&field] { return ConfigValue(static_cast<std::int64_t>(field)); };
    key.set = [&field](const ConfigValue& v) { field = static_cast<T>(std::get<std::int64_t>(v)); };
  }

  template <std::floating_point T>
  static void bind(ConfigKey& key, T& field, const Range& range = {}) {
    key.type = ConfigType::kFloat;
    key.range = range;
    key.limits = Range::between(-static_cast<double>(std::numeric_limits<T>::max()),
                                static_cast<double>(std::numeric_limits<T>::max()));
    key.storage = std::same_as<T, float> ? "float" : "double";
    key.get = [&field] { return ConfigValue(decimal_double(field)); };
    key.set = [&field](const ConfigValue& v) { field = static_cast<T>(std::get<double>(v)); };
  }

  static void bind(ConfigKey& key, std::string& field, const Choices& choices = {}) {
    key.type = ConfigType::kString;
    key.choices = choices.names;
    key.get = [&field] { return ConfigValue(field); };
    key.set = [&field](const ConfigValue& v) { field = std::get<std::string>(v); };
  }

  static void bind(ConfigKey& key, std::vector<std::string>& field, const Choices& choices = {}) {
    key.type = ConfigType::kStringList;
    key.choices = choices.names;
    key.get = [&field] { return ConfigValue(field); };
    key.set = [&field](const ConfigValue& v) { field = std::get<std::vector<std::string>>(v); };
  }

  static void bind(ConfigKey& key, std::vector<std::string>& field, const MinItems& items) {
    bind(key, field);
    key.min_items = items.min;
  }

  template <class E, std::size_t N>
    requires std::is_enum_v<E>
  static void bind(ConfigKey& key, E& field, const EnumName<E> (&names)[N]) {
    key.type = ConfigType::kString;
    for (const auto& entry : names) key.choices.emplace_back(entry.name);
    key.get = [&field, &names] { return ConfigValue(std::string(enum_name(names, field))); };
    // The value was checked against the choices before it gets here.
    key.set = [&field, &names](const ConfigValue& v) { field = *enum_value(names, std::get<std::string>(v)); };
  }

  // A float as the double of its shortest decimal (0.3f as 0.3, not 0.30000001192...), so
  // that the dump shows what was written and reads back to the same float.
  static double decimal_double(float v);
  static double decimal_double(double v) { return v; }

  std::vector<ConfigKey>& keys_;
  std::string prefix_;
};

// The keys of one config struct bound to its fields: it must not outlive the struct. Reads
// change the fields; the struct's member initializers are the defaults.
class Config {
 public:
  template <class S>
    requires(!std::same_as<S, Config>)
  explicit Config(S& config) {
    ConfigBinder binder(keys_);
    config.visit(binder);
    index_keys();
  }

  // Reads YAML text (`source` names it in messages): every key it gives, nothing else
  // changes. Empty text, or text with only comments, changes nothing.
  void read_yaml(std::string_view text, std::string_view source);
  // As read_yaml, with the contents of the file at `path`, read by files/read_file.h's reader
  // (a regular file of at most kMaxConfigFileBytes: /dev/zero or a FIFO is refused, not read
  // without end); a file that cannot be read is a ConfigError naming the path and the reason.
  void read_file(const std::string& path);
  // Applies "dotted.path=value", the value being YAML text ("64", "[random, uct:100]").
  void set(std::string_view override_text);
  // Applies "key=value,key=value" (a player spec's options); values are plain text, not
  // YAML. `what` names the keys in messages: "search option".
  void set_options(std::string_view options, std::string_view what);
  // Applies one such option, `value` as plain text (a player spec's parsed options).
  void set_option(std::string_view key, std::string_view value, std::string_view what);
  // Checks every value against its range and choices, for structs filled in code; throws a
  // ConfigError "WHAT 'key': expected ..., got ...".
  void validate(std::string_view what) const;

  // Every key with its value and its description as a comment, nested in YAML sections in
  // visit() order: the "config as used" saved in a run folder. read_yaml reads it back to
  // equal values.
  std::string to_yaml() const;

  // True when a file, override or option gave the key.
  bool was_set(std::string_view path) const;
  // The same, for the key bound to `field`.
  template <class T>
  bool was_set_field(const T& field) const {
    return was_set(path_of(&field));
  }
  // Where the key's value was written, as the messages about it start: "FILE:LINE: key: ",
  // "--set key=value: ", or "defaults: key: ". For checks the keys cannot express (a game
  // name, a player spec) to report the same way.
  std::string origin(std::string_view path) const;
  // The same, for the key bound to `field`: checks after reading name no key twice.
  template <class T>
  std::string origin_of(const T& field) const {
    return origin(path_of(&field));
  }
  const std::vector<ConfigKey>& keys() const { return keys_; }

 private:
  std::size_t index_of(std::string_view path) const;
  const std::string& path_of(const void* field) const;
  bool is_section(std::string_view path) const;
  std::vector<std::string> names() const;  // every key, then every section: what a typo may have meant
  void index_keys();

  std::vector<ConfigKey> keys_;
  std::vector<std::string> origins_;  // empty: not set
  std::map<std::string, std::size_t, std::less<>> index_;
  std::vector<std::string> sections_;  // in order of first appearance
};

}  // namespace boardlab
