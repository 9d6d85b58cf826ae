// Player specs, kind[:argument][(key=value,...)]: one scanner for single specs and lists, with errors that name the spec and, for the old comma spelling, the new one.
#include "arena/player_spec.h"

#include <algorithm>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {
namespace {

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_quote(char c) { return c == '\'' || c == '"'; }
// Characters that end or structure a bare argument or value.
constexpr std::string_view kSpecial = ",()'\"";

// "key=..." with key a name: what an option looks like.
bool looks_like_option(std::string_view s) {
  s = trim(s);
  const auto eq = s.find('=');
  return eq != std::string_view::npos && eq > 0 &&
         std::all_of(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(eq), is_name_char);
}

// Where a list item ends: the next top-level comma, or the end. Throws for a quote or a
// parenthesis left open, or a ')' never opened.
std::size_t item_end(std::string_view text, std::size_t i, std::string_view whole) {
  int depth = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (is_quote(c)) {
      const std::size_t open = i;
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
      if (i >= text.size())
        throw InputError("player " + quote_input(whole) + ": the quote " + std::string(1, c) + " at byte " +
                         std::to_string(open + 1) + " is never closed");
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth < 0)
        throw InputError("player " + quote_input(whole) + ": ')' at byte " + std::to_string(i + 1) +
                         " closes nothing");
    } else if (c == ',' && depth == 0) {
      return i;
    }
  }
  if (depth > 0) throw InputError("player " + quote_input(whole) + ": '(' without a closing ')'");
  return i;
}

std::vector<std::string> top_level_items(std::string_view text) {
  std::vector<std::string> items;
  std::size_t i = 0;
  while (true) {
    const std::size_t end = item_end(text, i, text);
    items.emplace_back(trim(text.substr(i, end - i)));
    if (end >= text.size()) break;
    i = end + 1;
  }
  return items;
}

// The new spelling of specs written the old way, options after commas: "mcts:a=1,b=2" is
// mcts(a=1,b=2), "agent:ck.pt,simulations=8" agent:ck.pt(simulations=8); a spec that is
// already new stays. Empty when nothing in `items` is old.
std::string new_spelling(const std::vector<std::string>& items) {
  std::string out;
  bool changed = false;
  for (std::size_t i = 0; i < items.size();) {
    std::string item = items[i++];
    std::vector<std::string> options;
    const auto colon = item.find(':');
    const bool has_parens = item.find('(') != std::string::npos;
    std::string head = item;
    if (!has_parens && colon != std::string::npos && looks_like_option(item.substr(colon + 1))) {
      head = item.substr(0, colon);  // mcts:algorithm=puct: the argument was the first option
      options.push_back(item.substr(colon + 1));
    }
    while (!has_parens && i < items.size() && looks_like_option(items[i]) &&
           items[i].find(':') == std::string::npos)
      options.push_back(items[i++]);
    if (!options.empty()) changed = true;
    out += (out.empty() ? "" : ",") + head;
    if (!options.empty()) {
      out += '(';
      for (std::size_t k = 0; k < options.size(); ++k) out += (k ? "," : "") + options[k];
      out += ')';
    }
  }
  return changed ? out : std::string();
}

[[noreturn]] void old_spelling(std::string_view text, const std::string& suggestion) {
  // The new spelling is shown whole up to a generous cap: it is there to be copied.
  throw InputError("player " + quote_input(text) + ": options go in parentheses, as in game strings: write '" +
                   escape_input(suggestion, 12 * kInputEchoChars) +
                   "' (the comma form 'kind:key=value,...' is no longer read)");
}

class SpecParser {
 public:
  explicit SpecParser(std::string_view text) : whole_(text), text_(trim(text)) {}

  PlayerSpec parse() {
    PlayerSpec spec;
    while (i_ < text_.size() && is_name_char(text_[i_])) spec.kind += text_[i_++];
    if (spec.kind.empty())
      fail(text_.empty() ? "it is empty; a spec is kind[:argument][(key=value,...)], e.g. uct:200"
                         : "expected a player kind (random, uct, mcts, agent...) at byte " + std::to_string(i_ + 1));
    if (peek() == ':') {
      ++i_;
      spec.argument = value("the argument after ':'", /*argument=*/true);
      if (spec.argument->empty()) fail("nothing after ':'");
      if (!quoted_ && looks_like_option(*spec.argument)) old_form();
    }
    skip_spaces();
    if (peek() == '(') {
      ++i_;
      skip_spaces();
      if (peek() == ')') {
        ++i_;
      } else {
        while (true) {
          skip_spaces();
          const std::size_t start = i_;
          std::string key;
          while (i_ < text_.size() && is_name_char(text_[i_])) key += text_[i_++];
          skip_spaces();
          if (key.empty() || peek() != '=') {
            const std::size_t end = std::min(text_.find_first_of(",)", start), text_.size());
            fail("option " + quote_input(trim(text_.substr(start, end - start))) + " is not of the form key=value");
          }
          ++i_;
          if (spec.option(key)) fail("option '" + key + "' given twice");
          spec.options.emplace_back(key, value("the value of '" + key + "'", /*argument=*/false));
          skip_spaces();
          if (peek() == ',') {
            ++i_;
            continue;
          }
          if (peek() == ')') {
            ++i_;
            break;
          }
          fail(i_ < text_.size() ? "unexpected " + quote_input(text_.substr(i_, 1)) + " at byte " +
                                       std::to_string(i_ + 1) + " in the options"
                                 : "'(' without a closing ')'");
        }
      }
    }
    skip_spaces();
    if (i_ < text_.size()) {
      if (text_[i_] == ',') old_form();
      fail("unexpected " + quote_input(text_.substr(i_)) + " after the spec" +
           (text_[i_] == '(' ? " (one set of options per spec)" : ""));
    }
    return spec;
  }

 private:
  char peek() const { return i_ < text_.size() ? text_[i_] : '\0'; }
  void skip_spaces() {
    while (i_ < text_.size() && is_space(text_[i_])) ++i_;
  }

  [[noreturn]] void fail(const std::string& why) const {
    throw InputError("player " + quote_input(whole_) + ": " + why);
  }

  [[noreturn]] void old_form() const {
    const std::string suggestion = new_spelling(top_level_items(text_));
    if (suggestion.empty()) fail("one spec holds one player; separate players in a list, not in a spec");
    old_spelling(whole_, suggestion);
  }

  // A quoted or bare argument or value; a bare one ends at a structural character and is
  // trimmed, and an argument also ends before '('.
  std::string value(const std::string& what, bool argument) {
    skip_spaces();
    quoted_ = false;
    std::string out;
    if (is_quote(peek())) {
      quoted_ = true;
      const char quote = text_[i_++];
      while (true) {
        if (i_ >= text_.size()) fail("the quote " + std::string(1, quote) + " of " + what + " is never closed");
        const char c = text_[i_++];
        if (c == quote) break;
        if (c == '\\' && i_ < text_.size() && (text_[i_] == quote || text_[i_] == '\\' || is_quote(text_[i_]))) {
          out += text_[i_++];
          continue;
        }
        out += c;
      }
      return out;
    }
    const std::size_t start = i_;
    while (i_ < text_.size() && kSpecial.find(text_[i_]) == std::string_view::npos) ++i_;
    if (i_ < text_.size() && is_quote(text_[i_]))
      fail(what + " has a quote inside; quote the whole of it: 'like this'");
    if (!argument && i_ < text_.size() && text_[i_] == '(')
      fail(what + " has a '(' inside; quote it: 'like (this)'");
    return std::string(trim(text_.substr(start, i_ - start)));
  }

  std::string_view whole_;
  std::string_view text_;
  std::size_t i_ = 0;
  bool quoted_ = false;
};

}  // namespace

std::optional<std::string> PlayerSpec::option(std::string_view key) const {
  for (const auto& [k, v] : options)
    if (k == key) return v;
  return std::nullopt;
}

PlayerSpec parse_player_spec(std::string_view text) { return SpecParser(text).parse(); }

std::vector<std::string> split_player_specs(std::string_view text) {
  const std::vector<std::string> items = top_level_items(text);
  if (const std::string suggestion = new_spelling(items); !suggestion.empty()) old_spelling(text, suggestion);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (items[i].empty())
      throw InputError("players " + quote_input(text) + ": player " + std::to_string(i + 1) + " of " +
                       std::to_string(items.size()) + " is empty");
    parse_player_spec(items[i]);
  }
  return items;
}

std::string spec_value(std::string_view text) {
  const bool bare = !text.empty() && text.find_first_of(kSpecial) == std::string_view::npos &&
                    !is_space(text.front()) && !is_space(text.back()) && !looks_like_option(text);
  if (bare) return std::string(text);
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

std::string player_spec_string(const PlayerSpec& spec) {
  std::string out = spec.kind;
  if (spec.argument) out += ":" + spec_value(*spec.argument);
  if (!spec.options.empty()) {
    out += '(';
    for (std::size_t i = 0; i < spec.options.size(); ++i)
      out += (i ? "," : "") + spec.options[i].first + "=" + spec_value(spec.options[i].second);
    out += ')';
  }
  return out;
}

}  // namespace boardlab
