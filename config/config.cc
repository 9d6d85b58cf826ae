// Config keys bound to struct fields: YAML files, --set overrides and player-spec options read key by key, checked, and written back as YAML.
#include "config/config.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "core/text.h"
#include "files/read_file.h"

namespace boardlab {
namespace {

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Spellings YAML reads as null rather than as a string.
bool is_null_word(std::string_view s) { return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL"; }

std::vector<std::string> split_path(std::string_view path) {
  std::vector<std::string> parts;
  while (true) {
    const auto dot = path.find('.');
    parts.emplace_back(path.substr(0, dot));
    if (dot == std::string_view::npos) return parts;
    path.remove_prefix(dot + 1);
  }
}

std::string last_part(std::string_view path) {
  const auto dot = path.rfind('.');
  return std::string(dot == std::string_view::npos ? path : path.substr(dot + 1));
}

// Optimal string alignment distance: a swapped pair of letters is one typo, not two.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// The shortest text that reads back as `v`, in fixed notation ("0.0003", not "3e-04") unless
// that is much longer ("1e-09", "1e+20"): it is read by people before it is read back.
std::string format_double(double v) {
  char buf[400];  // fixed notation of the largest double has 309 digits
  const auto [general_end, general_ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string general(buf, general_end);
  const auto [fixed_end, fixed_ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  if (fixed_ec == std::errc() && static_cast<std::size_t>(fixed_end - buf) <= general.size() + 2)
    return std::string(buf, fixed_end);
  return general;
}

// Bounds of integer keys read best as integers ("4096", not "4.096e+03").
std::string format_bound(double v) {
  if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
  return format_double(v);
}

std::string type_expectation(ConfigType type) {
  switch (type) {
    case ConfigType::kBool: return "true or false";
    case ConfigType::kInt: return "an integer";
    case ConfigType::kFloat: return "a number";
    case ConfigType::kString: return "a string";
    case ConfigType::kStringList: return "a list of strings";
  }
  return "a value";
}

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return quote_input(node.Scalar());
    default: return "no value";
  }
}

// 1-based line of a node, or `fallback` where yaml-cpp has none: an empty value is marked at
// the token after it, often on a later line, so it takes its key's line instead.
int line_of(const YAML::Node& node, int fallback) {
  const YAML::Mark mark = node.Mark();
  if (node.IsNull() || mark.line < 0) return fallback;
  return mark.line + 1;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : std::string(separator)) + item;
  return out;
}

// "in [1, 512]", ">= 0", "in (0, 1]", "> 0", "<= 10".
std::string describe_range(const Range& range) {
  const bool low = !std::isinf(range.min), high = !std::isinf(range.max);
  if (low && high)
    return std::string("in ") + (range.min_excluded ? "(" : "[") + format_bound(range.min) + ", " +
           format_bound(range.max) + "]";
  if (low) return std::string(range.min_excluded ? "> " : ">= ") + format_bound(range.min);
  if (high) return "<= " + format_bound(range.max);
  return "";
}

// Where a value was written, so that every message about it starts the same way.
struct Origin {
  // kFile: "FILE:LINE: key: message". kNamed: the name already says which key
  // ("--set k=v", "search option 'k'"): "NAME: message".
  enum class Kind { kFile, kNamed } kind;
  std::string name;

  std::string prefix(int line) const {
    if (kind == Kind::kFile) return name + (line > 0 ? ":" + std::to_string(line) : "") + ": ";
    return name + ": ";
  }

  [[noreturn]] void fail(int line, const std::string& message) const { throw ConfigError(prefix(line) + message); }

  // A problem with the value of `subject` (a key, or "key[i]" for an item of a list). A
  // named origin already names its key, so it only names list items.
  [[noreturn]] void fail_value(int line, const std::string& subject, bool is_item, const std::string& message) const {
    if (kind == Kind::kFile || is_item) fail(line, subject + ": " + message);
    fail(line, message);
  }
};

// Decimal digits with an optional sign only: "1.5", "1e3" and "0x10" are not integers.
enum class NumberRead { kOk, kNotANumber, kOutOfRange };

// from_chars takes a '-' but not a '+', so the '+' goes once the text is known good.
std::string_view without_plus(std::string_view s) { return !s.empty() && s.front() == '+' ? s.substr(1) : s; }

NumberRead read_int(std::string_view s, std::int64_t& out) {
  const std::string_view digits = !s.empty() && (s.front() == '+' || s.front() == '-') ? s.substr(1) : s;
  if (digits.empty() || !std::all_of(digits.begin(), digits.end(), is_digit)) return NumberRead::kNotANumber;
  s = without_plus(s);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec == std::errc::result_out_of_range) return NumberRead::kOutOfRange;
  return ec == std::errc() && end == s.data() + s.size() ? NumberRead::kOk : NumberRead::kNotANumber;
}

// YAML's decimal float forms: [+-] (digits [. digits] | . digits) [e [+-] digits]. No inf or
// nan: no training setting wants them, and nan would pass every range check.
NumberRead read_float(std::string_view s, double& out) {
  std::size_t i = !s.empty() && (s.front() == '+' || s.front() == '-') ? 1 : 0;
  std::size_t mantissa_digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++mantissa_digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++mantissa_digits;
  }
  if (mantissa_digits == 0) return NumberRead::kNotANumber;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t exponent_start = i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == exponent_start) return NumberRead::kNotANumber;
  }
  if (i != s.size()) return NumberRead::kNotANumber;
  s = without_plus(s);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec == std::errc::result_out_of_range) return NumberRead::kOutOfRange;
  return ec == std::errc() && end == s.data() + s.size() ? NumberRead::kOk : NumberRead::kNotANumber;
}

// A number's range, then what its field's type can hold. `text` is the value as written.
void check_number(const ConfigKey& key, double v, const std::string& text, const Origin& origin, int line) {
  const std::string expectation = key.type == ConfigType::kInt ? "an integer" : "a number";
  if (!key.range.contains(v))
    origin.fail_value(line, key.path, false,
                      "expected " + expectation + " " + describe_range(key.range) + ", got " + escape_input(text));
  if (!key.limits.contains(v))
    origin.fail_value(line, key.path, false,
                      "expected " + expectation + ", got " + quote_input(text) + ", beyond the range of a " +
                          std::string(key.storage));
}

void check_items(const ConfigKey& key, std::size_t items, const Origin& origin, int line) {
  if (items >= key.min_items) return;
  origin.fail_value(line, key.path, false,
                    "expected a list of at least " + std::to_string(key.min_items) + " item" +
                        (key.min_items == 1 ? "" : "s") + ", got " +
                        (items == 0 ? std::string("an empty list") : std::to_string(items)));
}

void check_choice(const ConfigKey& key, const std::string& value, const Origin& origin, int line,
                  const std::string& subject, bool is_item) {
  if (key.choices.empty() || std::find(key.choices.begin(), key.choices.end(), value) != key.choices.end()) return;
  origin.fail_value(line, subject, is_item, "expected one of " + join(key.choices, ", ") + ", got " + quote_input(value));
}

// Reads `node` as a value of `key`, or fails with where it was written. `line` is the key's
// line; list items report their own.
ConfigValue read_value(const ConfigKey& key, const YAML::Node& node, const Origin& origin, int line) {
  auto wrong_type = [&]() -> ConfigValue {
    origin.fail_value(line, key.path, false, "expected " + type_expectation(key.type) + ", got " + describe(node));
  };
  switch (key.type) {
    case ConfigType::kBool: {
      if (!node.IsScalar()) return wrong_type();
      const std::optional<bool> v = parse_bool(node.Scalar());
      if (!v) return wrong_type();
      return *v;
    }
    case ConfigType::kInt: {
      std::int64_t v = 0;
      if (!node.IsScalar()) return wrong_type();
      const NumberRead read = read_int(node.Scalar(), v);
      if (read == NumberRead::kNotANumber) return wrong_type();
      if (read == NumberRead::kOutOfRange)
        origin.fail_value(line, key.path, false,
                          "expected an integer, got " + quote_input(node.Scalar()) + ", beyond the range of a 64-bit integer");
      check_number(key, static_cast<double>(v), node.Scalar(), origin, line);
      return v;
    }
    case ConfigType::kFloat: {
      double v = 0;
      if (!node.IsScalar()) return wrong_type();
      const NumberRead read = read_float(node.Scalar(), v);
      if (read == NumberRead::kNotANumber) return wrong_type();
      if (read == NumberRead::kOutOfRange)
        origin.fail_value(line, key.path, false,
                          "expected a number, got " + quote_input(node.Scalar()) + ", beyond the range of a double");
      check_number(key, v, node.Scalar(), origin, line);
      return v;
    }
    case ConfigType::kString: {
      if (!node.IsNull() && !node.IsScalar()) return wrong_type();
      std::string v = node.IsNull() ? std::string() : node.Scalar();
      check_choice(key, v, origin, line, key.path, false);
      return v;
    }
    case ConfigType::kStringList: {
      std::vector<std::string> v;
      if (node.IsNull()) {
        check_items(key, 0, origin, line);
        return v;
      }
      if (!node.IsSequence()) return wrong_type();
      std::size_t i = 0;
      for (auto it = node.begin(); it != node.end(); ++it, ++i) {
        const YAML::Node item = *it;
        const int item_line = line_of(item, line);
        const std::string subject = key.path + "[" + std::to_string(i) + "]";
        if (!item.IsScalar()) origin.fail_value(item_line, subject, true, "expected a string, got " + describe(item));
        check_choice(key, item.Scalar(), origin, item_line, subject, true);
        v.push_back(item.Scalar());
      }
      check_items(key, v.size(), origin, line);
      return v;
    }
  }
  return wrong_type();
}

bool valid_part(std::string_view part) {
  if (part.empty() || is_null_word(part) || !(is_alnum(part.front()) || part.front() == '_')) return false;
  return std::all_of(part.begin(), part.end(), [](char c) { return is_alnum(c) || c == '_' || c == '-'; });
}

// "; did you mean 'x'?" for the key or section closest to a mistyped `path`: within two
// typos, or else the same last part in another section; empty when nothing is close.
std::string suggestion(std::string_view path, const std::vector<std::string>& candidates) {
  // Nothing is within two typos of a long token, and the edit distance costs its length
  // times each key's: a hostile 5 MB key would take seconds.
  if (path.size() > 2 * kInputEchoChars) return "";
  const std::string last = last_part(path);
  std::optional<std::string> best;
  std::size_t best_score = 0;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(path, candidate);
    std::size_t score = 0;
    if (distance <= 2) {
      score = distance;
    } else if (last_part(candidate) == last) {
      score = 3 + distance;
    } else {
      continue;
    }
    if (!best || score < best_score) {
      best = candidate;
      best_score = score;
    }
  }
  return best ? "; did you mean '" + *best + "'?" : "";
}

// Where each document starts, and its first value (a null one has no place of its own);
// the rest of the events are not needed.
class DocumentStarts final : public YAML::EventHandler {
 public:
  YAML::Mark start;
  std::optional<YAML::Mark> value;
  void OnDocumentStart(const YAML::Mark& mark) override {
    start = mark;
    value.reset();
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { first(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override { first(mark); }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    first(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    first(mark);
  }
  void OnMapEnd() override {}

 private:
  void first(const YAML::Mark& mark) {
    if (!value) value = mark;
  }
};

// The one document of `text` (null when there is none). yaml-cpp's LoadAll never returns
// on a token that starts no node, such as a ',' alone or after a flow collection ("[a], b"):
// it reads an empty document at that token without moving past it, again and again, until
// memory runs out (yaml-cpp issue 1040); Load silently stops before it. So the documents are
// walked here first, three at most: one that starts where the previous one did is that
// stray token, a syntax error; `another` is set to where a second document is written.
YAML::Node load_document(const std::string& text, std::optional<YAML::Mark>& another) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts handler;
  std::vector<YAML::Mark> starts;
  std::optional<YAML::Mark> second;
  while (starts.size() < 3 && parser.HandleNextDocument(handler)) {
    if (!starts.empty() && handler.start.pos == starts.back().pos) {
      const auto pos = static_cast<std::size_t>(handler.start.pos);
      throw YAML::ParserException(handler.start, pos < text.size() ? "unexpected '" + std::string(1, text[pos]) + "'"
                                                                   : std::string("unexpected end"));
    }
    starts.push_back(handler.start);
    if (starts.size() == 2) second = handler.value.value_or(handler.start);
  }
  another = second;
  return YAML::Load(text);
}

// A node of the nested sections to_yaml writes: a key (index set) or a section (children).
struct YamlTree {
  std::string name;
  std::optional<std::size_t> key;
  std::vector<YamlTree> children;

  void add(const std::vector<std::string>& parts, std::size_t depth, std::size_t index) {
    auto it = std::find_if(children.begin(), children.end(), [&](const YamlTree& c) { return c.name == parts[depth]; });
    if (it == children.end()) {
      children.push_back({parts[depth], std::nullopt, {}});
      it = children.end() - 1;
    }
    if (depth + 1 == parts.size()) {
      it->key = index;
    } else {
      it->add(parts, depth + 1, index);
    }
  }
};

// A value as YAML: strings quoted by yaml-cpp where plain text would read otherwise, numbers
// as the shortest decimal that reads back to the same value, lists in flow style.
void emit_value(YAML::Emitter& out, const ConfigValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) {
    out << *b;
  } else if (const auto* i = std::get_if<std::int64_t>(&value)) {
    out << *i;
  } else if (const double* d = std::get_if<double>(&value)) {
    out << format_double(*d);
  } else if (const auto* s = std::get_if<std::string>(&value)) {
    out << *s;
  } else {
    out << YAML::Flow << YAML::BeginSeq;
    for (const auto& item : std::get<std::vector<std::string>>(value)) out << item;
    out << YAML::EndSeq;
  }
}

void emit_entry(YAML::Emitter& out, const YamlTree& entry, const std::vector<ConfigKey>& keys) {
  out << YAML::Key << entry.name << YAML::Value;
  if (entry.key) {
    const ConfigKey& key = keys[*entry.key];
    emit_value(out, key.get());
    if (!key.doc.empty()) out << YAML::Comment(key.doc);
    return;
  }
  out << YAML::BeginMap;
  for (const auto& child : entry.children) emit_entry(out, child, keys);
  out << YAML::EndMap;
}

}  // namespace

double ConfigBinder::decimal_double(float v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  double out = 0;
  std::from_chars(buf, end, out);
  return out;
}

void Config::index_keys() {
  // The keys are the program's own: check all of them before trusting any.
  std::set<std::string, std::less<>> sections;
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    const ConfigKey& key = keys_[i];
    const std::string where = "config keys: '" + key.path + "': ";
    const std::vector<std::string> parts = split_path(key.path);
    if (!std::all_of(parts.begin(), parts.end(), valid_part))
      throw std::logic_error(where + "each dotted part must be letters, digits, '_' or '-'");
    if (!index_.emplace(key.path, i).second) throw std::logic_error(where + "given twice");
    if (key.doc.find_first_of("\r\n") != std::string::npos) throw std::logic_error(where + "doc must be one line");
    if (std::isnan(key.range.min) || std::isnan(key.range.max) || key.range.min > key.range.max)
      throw std::logic_error(where + "min must not exceed max");
    std::string section;
    for (std::size_t p = 0; p + 1 < parts.size(); ++p) {
      section += (p == 0 ? "" : ".") + parts[p];
      if (sections.insert(section).second) sections_.push_back(section);
    }
  }
  for (const auto& section : sections_) {
    if (index_.count(section) != 0)
      throw std::logic_error("config keys: '" + section + "' is both a key and a section");
  }
  origins_.assign(keys_.size(), std::string());
}

std::size_t Config::index_of(std::string_view path) const {
  const auto it = index_.find(path);
  if (it == index_.end()) throw std::logic_error("config has no key '" + std::string(path) + "'");
  return it->second;
}

bool Config::is_section(std::string_view path) const {
  return std::find(sections_.begin(), sections_.end(), path) != sections_.end();
}

std::vector<std::string> Config::names() const {
  std::vector<std::string> out;
  for (const auto& key : keys_) out.push_back(key.path);
  out.insert(out.end(), sections_.begin(), sections_.end());
  return out;
}

const std::string& Config::path_of(const void* field) const {
  for (const ConfigKey& key : keys_)
    if (key.field == field) return key.path;
  throw std::logic_error("config has no key bound to that field");
}

void Config::read_yaml(std::string_view text, std::string_view source) {
  const Origin file{Origin::Kind::kFile, std::string(source)};
  YAML::Node top;
  std::optional<YAML::Mark> another;
  try {
    top = load_document(std::string(text), another);
  } catch (const YAML::Exception& e) {
    file.fail(e.mark.line >= 0 ? e.mark.line + 1 : 0, "YAML syntax error: " + e.msg);
  }
  if (another) file.fail(another->line + 1, "expected one YAML document, found another after a '---' line");
  if (top.IsNull()) return;
  if (!top.IsMap()) file.fail(line_of(top, 0), "expected a mapping of keys at the top level, got " + describe(top));

  // Each key's line, to catch one given twice.
  std::vector<int> key_line(keys_.size(), 0);
  const std::function<void(const YAML::Node&, const std::string&)> read_mapping = [&](const YAML::Node& mapping,
                                                                                         const std::string& prefix) {
    std::map<std::string, int> seen;
    for (const auto& entry : mapping) {
      const YAML::Node& name_node = entry.first;
      const YAML::Node& value = entry.second;
      const int line = line_of(name_node, line_of(value, 0));
      if (!name_node.IsScalar()) file.fail(line, "expected a key name, got " + describe(name_node));
      const std::string& name = name_node.Scalar();
      const std::string path = prefix.empty() ? name : prefix + "." + name;
      // yaml-cpp keeps both entries of a repeated key; the second would silently win.
      if (const auto [it, fresh] = seen.emplace(name, line); !fresh)
        file.fail(line, "duplicate key " + quote_input(path) + " (first given on line " + std::to_string(it->second) + ")");
      if (const auto it = index_.find(path); it != index_.end()) {
        const std::size_t index = it->second;
        // The same key again under another spelling ("training: {x: 1}" and "training.x: 2").
        if (key_line[index] != 0)
          file.fail(line, "duplicate key '" + path + "' (first given on line " + std::to_string(key_line[index]) + ")");
        keys_[index].set(read_value(keys_[index], value, file, line));
        key_line[index] = line;
        origins_[index] = file.prefix(line) + path + ": ";
      } else if (is_section(path)) {
        if (value.IsNull()) continue;  // a section whose keys are all commented out
        if (!value.IsMap()) file.fail(line, path + ": expected a section of keys, got " + describe(value));
        read_mapping(value, path);
      } else {
        file.fail(line, std::string(value.IsMap() ? "unknown section " : "unknown key ") + quote_input(path) +
                            suggestion(path, names()));
      }
    }
  };
  read_mapping(top, "");
}

void Config::read_file(const std::string& path) {
  std::string text;
  try {
    text = boardlab::read_file(path, kMaxConfigFileBytes, "config file");
  } catch (const InputError& e) {
    throw ConfigError(e.what());  // the reader's message, as the error every config problem is
  }
  read_yaml(text, path);
}

void Config::set(std::string_view item) {
  const Origin origin{Origin::Kind::kNamed, "--set " + escape_input(item)};
  const auto eq = item.find('=');
  const std::string path(trim(item.substr(0, eq)));
  if (eq == std::string_view::npos || path.empty()) origin.fail(0, "expected key.path=value");
  const auto it = index_.find(path);
  if (it == index_.end()) {
    if (is_section(path)) origin.fail(0, quote_input(path) + " is a section, not a key");
    origin.fail(0, "unknown key " + quote_input(path) + suggestion(path, names()));
  }
  YAML::Node node;
  std::optional<YAML::Mark> another;
  try {
    node = load_document(std::string(item.substr(eq + 1)), another);
  } catch (const YAML::Exception& e) {
    origin.fail(0, "YAML syntax error: " + e.msg);
  }
  if (another) origin.fail(0, "expected one YAML value, found a second document after a '---' line");
  keys_[it->second].set(read_value(keys_[it->second], node, origin, 0));
  origins_[it->second] = origin.prefix(0);
}

void Config::set_options(std::string_view options, std::string_view what) {
  while (!options.empty()) {
    const auto comma = options.find(',');
    const std::string_view item = options.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos)
      throw ConfigError(std::string(what) + " " + quote_input(item) + " is not of the form key=value");
    set_option(item.substr(0, eq), item.substr(eq + 1), what);
    if (comma == std::string_view::npos) break;
    options.remove_prefix(comma + 1);
  }
}

void Config::set_option(std::string_view key_text, std::string_view value, std::string_view what) {
  const std::string key(key_text);
  const auto it = index_.find(key);
  if (it == index_.end()) {
    std::string close = suggestion(key, names());
    // Options are typed on a command line, far from any list of them: name them all.
    if (close.empty()) close = " (known: " + join(names(), ", ") + ")";
    throw ConfigError("unknown " + std::string(what) + " " + quote_input(key) + close);
  }
  const Origin origin{Origin::Kind::kNamed, std::string(what) + " '" + key + "'"};
  // Plain text, not YAML: "name=a b" is the string "a b", "x=" the empty string.
  const YAML::Node node{std::string(value)};
  keys_[it->second].set(read_value(keys_[it->second], node, origin, 0));
  origins_[it->second] = origin.prefix(0);
}

void Config::validate(std::string_view what) const {
  for (const ConfigKey& key : keys_) {
    const Origin origin{Origin::Kind::kNamed, std::string(what) + " '" + key.path + "'"};
    const ConfigValue value = key.get();
    if (const auto* n = std::get_if<std::int64_t>(&value)) {
      check_number(key, static_cast<double>(*n), std::to_string(*n), origin, 0);
    } else if (const double* d = std::get_if<double>(&value)) {
      // nan compares false with every bound: name it rather than a range it seems to miss.
      if (std::isnan(*d)) origin.fail(0, "expected a number, got nan");
      check_number(key, *d, format_double(*d), origin, 0);
    } else if (const auto* s = std::get_if<std::string>(&value)) {
      check_choice(key, *s, origin, 0, key.path, false);
    } else if (const auto* list = std::get_if<std::vector<std::string>>(&value)) {
      check_items(key, list->size(), origin, 0);
      for (std::size_t i = 0; i < list->size(); ++i)
        check_choice(key, (*list)[i], origin, 0, key.path + "[" + std::to_string(i) + "]", true);
    }
  }
}

std::string Config::to_yaml() const {
  YamlTree root;
  for (std::size_t i = 0; i < keys_.size(); ++i) root.add(split_path(keys_[i].path), 0, i);
  std::string out;
  for (const auto& entry : root.children) {
    // Each top-level entry on its own, for a blank line between sections.
    YAML::Emitter emitter;
    emitter << YAML::BeginMap;
    emit_entry(emitter, entry, keys_);
    emitter << YAML::EndMap;
    if (!emitter.good()) throw std::logic_error("config: cannot write '" + entry.name + "': " + emitter.GetLastError());
    if (!entry.key && !out.empty()) out += "\n";
    out += emitter.c_str() + std::string("\n");
  }
  return out;
}

bool Config::was_set(std::string_view path) const { return !origins_[index_of(path)].empty(); }

std::string Config::origin(std::string_view path) const {
  const std::size_t index = index_of(path);
  return origins_[index].empty() ? "defaults: " + std::string(path) + ": " : origins_[index];
}

}  // namespace boardlab
