// Reading and writing Gravon XML: a small XML reader (elements, attributes, text, entities) and the format on top.
#include "games/stratego/gravon.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/errors.h"
#include "core/game_parameters.h"
#include "core/text.h"
#include "games/stratego/stratego.h"

namespace boardlab::stratego {

namespace {

constexpr int kSquares = StrategoGame::kSetupSquares;

[[noreturn]] void fail(const std::string& why) { throw NotationError("gravon: " + why); }

// ----------------------------------------------------------------------------------- XML

struct Element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;  // character data directly inside, entities decoded
  int parent = -1;
  int line = 1;
  const std::string* attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
  std::string where() const { return "<" + name + "> on line " + std::to_string(line); }
};

// Enough XML for the archive's files: a declaration, comments, a doctype without an internal
// subset, CDATA, elements with quoted attributes, text, the five named entities and numeric
// references. No recursion, so deep nesting in a hostile file costs memory, not the stack.
class XmlReader {
 public:
  explicit XmlReader(std::string_view text) : text_(text) {}

  std::vector<Element> read() {
    std::vector<int> open;
    bool had_root = false;
    while (pos_ < text_.size()) {
      if (text_[pos_] != '<') {
        const std::size_t end = std::min(text_.find('<', pos_), text_.size());
        const std::string chars = decode(text_.substr(pos_, end - pos_));
        if (open.empty()) {
          if (chars.find_first_not_of(" \t\r\n") != std::string::npos)
            error("text " + quote_input(trim(chars)) + " outside the root element");
        } else {
          elements_[static_cast<std::size_t>(open.back())].text += chars;
        }
        advance(end);
        continue;
      }
      const std::string_view rest = text_.substr(pos_);
      if (rest.starts_with("<?")) {
        skip_past("?>", "a declaration <? is never closed with ?>");
      } else if (rest.starts_with("<!--")) {
        skip_past("-->", "a comment <!-- is never closed with -->");
      } else if (rest.starts_with("<![CDATA[")) {
        const std::size_t end = text_.find("]]>", pos_);
        if (end == std::string_view::npos) error("a CDATA section is never closed with ]]>");
        if (open.empty()) error("a CDATA section outside the root element");
        elements_[static_cast<std::size_t>(open.back())].text += std::string(text_.substr(pos_ + 9, end - pos_ - 9));
        advance(end + 3);
      } else if (rest.starts_with("<!")) {
        const std::size_t end = text_.find('>', pos_);
        if (end == std::string_view::npos) error("a <! declaration is never closed with >");
        if (text_.substr(pos_, end - pos_).find('[') != std::string_view::npos)
          error("a DOCTYPE with an internal subset ([...]) is not read");
        advance(end + 1);
      } else if (rest.starts_with("</")) {
        advance(pos_ + 2);
        const std::string name = read_name("a closing tag");
        skip_space();
        expect('>', "the closing tag </" + name);
        if (open.empty()) error("</" + name + "> closes nothing");
        const Element& top = elements_[static_cast<std::size_t>(open.back())];
        if (top.name != name) error("</" + name + "> closes " + top.where());
        open.pop_back();
      } else {
        if (open.empty() && had_root) error("a second root element after the first one closed");
        had_root = true;
        bool closed = false;
        elements_.push_back(read_tag(open.empty() ? -1 : open.back(), closed));
        if (!closed) open.push_back(static_cast<int>(elements_.size()) - 1);
      }
    }
    if (!open.empty()) error(elements_[static_cast<std::size_t>(open.back())].where() + " is never closed");
    if (elements_.empty()) error("no XML element (a Gravon game is <stratego><game ...>...</game></stratego>)");
    return std::move(elements_);
  }

 private:
  [[noreturn]] void error(const std::string& why) const { fail("line " + std::to_string(line_) + ": " + why); }
  // An opening tag from its '<', with its attributes; `closed` says it closed itself (/>).
  Element read_tag(int parent, bool& closed) {
    advance(pos_ + 1);
    Element e;
    e.line = line_;
    e.name = read_name("a tag");
    e.parent = parent;
    while (true) {
      const bool spaced = skip_space();
      if (at_end()) error("the tag <" + e.name + "> is never closed with >");
      if (text_[pos_] == '>') {
        advance(pos_ + 1);
        return e;
      }
      if (text_.substr(pos_).starts_with("/>")) {
        advance(pos_ + 2);
        closed = true;
        return e;
      }
      if (!spaced) error("the tag <" + e.name + "> needs a space before its next attribute");
      std::string key = read_name("an attribute of <" + e.name + ">");
      skip_space();
      expect('=', "the attribute " + key + " of <" + e.name + ">");
      skip_space();
      if (at_end() || (text_[pos_] != '"' && text_[pos_] != '\''))
        error("the value of " + key + " in <" + e.name + "> must be quoted");
      const char quote = text_[pos_];
      const std::size_t end = text_.find(quote, pos_ + 1);
      if (end == std::string_view::npos) error("the value of " + key + " in <" + e.name + "> is never closed");
      std::string value = decode(text_.substr(pos_ + 1, end - pos_ - 1));
      if (e.attribute(key)) error("<" + e.name + "> has the attribute " + key + " twice");
      e.attributes.emplace_back(std::move(key), std::move(value));
      advance(end + 1);
    }
  }
  bool at_end() const { return pos_ >= text_.size(); }
  void advance(std::size_t to) {
    to = std::min(to, text_.size());
    line_ += static_cast<int>(std::count(text_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                         text_.begin() + static_cast<std::ptrdiff_t>(to), '\n'));
    pos_ = to;
  }
  bool skip_space() {
    const std::size_t start = pos_;
    std::size_t p = pos_;
    while (p < text_.size() && (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\r' || text_[p] == '\n')) ++p;
    advance(p);
    return pos_ > start;
  }
  void skip_past(std::string_view end, const std::string& missing) {
    const std::size_t at = text_.find(end, pos_);
    if (at == std::string_view::npos) error(missing);
    advance(at + end.size());
  }
  void expect(char c, const std::string& what) {
    if (at_end() || text_[pos_] != c) error(what + " needs '" + std::string(1, c) + "' here");
    advance(pos_ + 1);
  }
  std::string read_name(const std::string& what) {
    std::size_t p = pos_;
    const auto name_char = [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
             c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
    };
    while (p < text_.size() && name_char(text_[p])) ++p;
    if (p == pos_) error(what + " has no name" + (at_end() ? " (the text ends)" : " at " + quote_input(text_.substr(pos_, 10))));
    std::string name(text_.substr(pos_, p - pos_));
    advance(p);
    return name;
  }
  std::string decode(std::string_view raw) const {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      const std::size_t semi = raw.find(';', i);
      if (semi == std::string_view::npos || semi - i > 10) error("a bare '&' (write &amp;)");
      const std::string_view entity = raw.substr(i + 1, semi - i - 1);
      if (entity == "lt") out += '<';
      else if (entity == "gt") out += '>';
      else if (entity == "amp") out += '&';
      else if (entity == "quot") out += '"';
      else if (entity == "apos") out += '\'';
      else if (entity.starts_with("#")) append_utf8(out, code_point(entity));
      else error("the entity &" + std::string(entity) + "; is not one of &lt; &gt; &amp; &quot; &apos; &#N;");
      i = semi;
    }
    return out;
  }
  std::uint32_t code_point(std::string_view entity) const {
    const bool hex = entity.size() > 1 && (entity[1] == 'x' || entity[1] == 'X');
    const std::string_view digits = entity.substr(hex ? 2 : 1);
    std::uint32_t value = 0;
    for (char c : digits) {
      int d = c >= '0' && c <= '9' ? c - '0' : -1;
      if (hex && d < 0) d = c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0) error("the character reference &" + std::string(entity) + "; is not a number");
      value = value * (hex ? 16 : 10) + static_cast<std::uint32_t>(d);
    }
    if (digits.empty() || value == 0 || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
      error("the character reference &" + std::string(entity) + "; is not a character");
    return value;
  }
  static void append_utf8(std::string& out, std::uint32_t c) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  static std::string trim(const std::string& s) {
    const std::size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::vector<Element> elements_;
};

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string trimmed(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string_view::npos ? "" : std::string(s.substr(a, b - a + 1));
}

// ------------------------------------------------------------------------------- Gravon

// Gravon's letters by kind (board.h's order: Spy .. Marshal, Bomb, Flag), Red's; Blue's are 12 on.
constexpr char kRedLetters[kKinds] = {'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'B', 'M'};
constexpr char kLakeLetter = '_', kEmptyLetter = 'A';

char letter_of(Player p, int kind) { return static_cast<char>(kRedLetters[kind] + 12 * p); }

// A square like "A4" or "k10" (J read as K), or -1.
int gravon_cell(std::string_view text) {
  if (text.empty()) return -1;
  std::string ours(text);
  ours[0] = static_cast<char>(ours[0] | 0x20);
  if (ours[0] == 'j') ours[0] = 'k';
  return StrategoGame::parse_cell(ours);
}

std::string gravon_square(int cell) {
  std::string name = StrategoGame::cell_name(cell);
  name[0] = static_cast<char>(name[0] - 'a' + 'A');
  return name;
}

int parse_int(const std::string& text, const std::string& what) {
  const std::string t = trimmed(text);
  if (t.empty() || t.size() > 6 || t.find_first_not_of("0123456789") != std::string::npos)
    fail(what + " must be a number, got " + quote_input(text));
  return std::stoi(t);
}

GameParameters game_parameters(const std::string& variant, std::string_view parameters, int moves) {
  const GameSpec spec = stratego_spec();
  GameParameters given{{"variant", variant}, {"two_square_limit", std::int64_t{5}}, {"chasing_rule", false}};
  const GameString extra = parse_game_string("stratego(" + std::string(parameters) + ")");
  for (const auto& param : extra.params) {
    const std::string& key = param.first;  // a name, not a structured binding: clang 14's lambdas cannot capture those
    const auto& value = param.second;
    if (key == "variant" || key == "setup" || key == "red_setup" || key == "blue_setup")
      throw GameParameterError("gravon: the file gives " + key + "; it cannot be set here");
    const auto at = std::find_if(spec.params.begin(), spec.params.end(), [&](const ParamSpec& p) { return p.name == key; });
    if (at == spec.params.end()) throw GameParameterError("gravon: stratego has no parameter " + quote_input(key));
    given[key] = parse_param(value, at->default_value, "stratego parameter " + key);
  }
  if (!extra.params.contains("move_cap")) {
    const int cap = variant == "barrage" ? 1000 : 2000;
    if (moves >= cap) {
      if (moves >= StrategoGame::kMaxMoveCap) fail(std::to_string(moves) + " moves are more than this engine plays");
      given["move_cap"] = std::int64_t{moves + 1};
    }
  }
  return resolve_parameters("stratego", spec.params, given);
}

// The parts of a Gravon file: its <game>, and the field, moves, players and result the
// archive puts inside it (players and result are also read directly inside <stratego>).
struct GravonParts {
  const Element* game = nullptr;
  const Element* field = nullptr;
  const Element* result = nullptr;
  std::vector<const Element*> moves, players;
};

GravonParts find_parts(const std::vector<Element>& elements) {
  if (elements[0].name != "stratego")
    fail("the root element is <" + elements[0].name + ">; a Gravon game is <stratego><game ...>...</game></stratego>");
  int game_at = -1;
  for (std::size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].name != "game") continue;
    if (elements[i].parent != 0) fail(elements[i].where() + " is not directly inside <stratego>");
    if (game_at >= 0) fail("a second <game> on line " + std::to_string(elements[i].line) + ": one game a file");
    game_at = static_cast<int>(i);
  }
  if (game_at < 0) fail("<stratego> holds no <game>");
  GravonParts parts;
  parts.game = &elements[static_cast<std::size_t>(game_at)];
  for (const Element& e : elements) {
    if (e.parent != game_at && e.parent != 0) continue;
    if (e.name == "field") {
      if (parts.field) fail("a second <field> on line " + std::to_string(e.line));
      parts.field = &e;
    } else if (e.name == "move") {
      parts.moves.push_back(&e);
    } else if (e.name == "player") {
      parts.players.push_back(&e);
    } else if (e.name == "result") {
      if (parts.result) fail("a second <result> on line " + std::to_string(e.line));
      parts.result = &e;
    }
  }
  return parts;
}

// The game's type, classic or barrage, in lower case.
std::string game_type(const Element& game) {
  const std::string* type_attr = game.attribute("type");
  if (!type_attr) fail(game.where() + " has no type (classic or barrage)");
  std::string type = trimmed(*type_attr);
  std::transform(type.begin(), type.end(), type.begin(), [](char c) { return static_cast<char>(c | 0x20); });
  if (type != "classic" && type != "barrage")
    fail("the game type " + quote_input(*type_attr) + " is not one this engine plays (classic, barrage)");
  return type;
}

// The setups the field shows, played into `state`: each piece on its side's rows, as many
// of each kind as `type` has.
void play_field(const Element& field, const StrategoGame& game, const std::string& type, State& state) {
  const std::string* content = field.attribute("content");
  if (!content) fail(field.where() + " has no content");
  if (content->size() != kCells)
    fail("the field content has " + std::to_string(content->size()) + " characters; it has one per square, 100");
  std::array<int, kKinds> seen[2] = {};
  std::string setup[2] = {std::string(kSquares, '.'), std::string(kSquares, '.')};
  for (int cell = 0; cell < kCells; ++cell) {
    const char c = (*content)[static_cast<std::size_t>(cell)];
    const std::string at = " at index " + std::to_string(cell) + " (square " + gravon_square(cell) + ")";
    if (kLakes & bit(cell)) {
      if (c != kLakeLetter) fail("the field content has " + quote_input(std::string(1, c)) + at + ", a lake: '_'");
      continue;
    }
    if (c == kEmptyLetter) continue;
    if (c == kLakeLetter) fail("the field content has a lake '_'" + at + ", which is no lake");
    if (c < 'B' || c > 'Y')
      fail("the field content has " + quote_input(std::string(1, c)) + at +
           "; it is written with A (empty), B-M (Red), N-Y (Blue) and _ (lakes)");
    const Player p = c <= 'M' ? 0 : 1;
    const int kind = static_cast<int>(std::find(kRedLetters, kRedLetters + kKinds, c - 12 * p) - kRedLetters);
    const bool own_rows = p == 0 ? cell < kSquares : cell >= kCells - kSquares;
    if (!own_rows)
      fail("the field content has " + game.player_name(p) + "'s " + std::string(kKindNames[kind]) + at + "; " +
           game.player_name(p) + " sets up on ranks " + (p == 0 ? "1-4" : "7-10"));
    ++seen[p][static_cast<std::size_t>(kind)];
    const int slot = p == 0 ? cell : kCells - 1 - cell;  // setup_cell's inverse
    setup[p][static_cast<std::size_t>(slot)] = kKindChars[kind];
  }
  for (Player p : {0, 1})
    for (int k = 0; k < kKinds; ++k)
      if (seen[p][static_cast<std::size_t>(k)] != game.counts()[k])
        fail("the field content gives " + game.player_name(p) + " " + std::to_string(seen[p][static_cast<std::size_t>(k)]) +
             " " + std::string(kKindNames[k]) + "(s); " + type + " has " + std::to_string(game.counts()[k]));
  for (Player p : {0, 1})
    for (char c : setup[p]) state.apply(state.string_to_action(std::string(1, c)));
}

void play_moves(const std::vector<const Element*>& moves, State& state) {
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const Element& m = *moves[i];
    const std::string label = "move " + std::to_string(i + 1) + " (line " + std::to_string(m.line) + ")";
    if (const std::string* id = m.attribute("id"); id && parse_int(*id, label + " id") != static_cast<int>(i + 1))
      fail(label + " has id " + quote_input(*id) + "; the moves are numbered 1, 2, ... in order");
    const std::string* source = m.attribute("source");
    const std::string* target = m.attribute("target");
    if (!source || !target) fail(label + " needs a source and a target square");
    const int from = gravon_cell(trimmed(*source)), to = gravon_cell(trimmed(*target));
    if (from < 0 || to < 0)
      fail(label + ": " + quote_input(*source) + "-" + quote_input(*target) + ": squares are A1..K10 (files A-K without J)");
    const std::string move = gravon_square(from) + "-" + gravon_square(to);
    if (state.is_terminal()) fail(label + " " + move + " comes after the end of the game:\n" + state.to_string());
    try {
      state.apply(state.string_to_action(StrategoGame::cell_name(from) + "-" + StrategoGame::cell_name(to)));
    } catch (const InputError& e) {
      fail(label + " " + move + " is refused: " + e.what());
    }
  }
}

// The result's winner and ending code into `out`, which must agree with how the moves end.
void read_result(const Element& result, const StrategoGame& game, GravonGame& out) {
  const std::string* winner = result.attribute("winner");
  if (!winner) fail(result.where() + " has no winner (1 Red, 2 Blue, 3 a draw)");
  const int w = parse_int(*winner, result.where() + " winner");
  if (w < 1 || w > 3) fail(result.where() + " has winner " + quote_input(*winner) + "; it is 1 Red, 2 Blue or 3 a draw");
  out.winner = w - 1;
  if (const std::string* type_code = result.attribute("type")) out.result_type = parse_int(*type_code, result.where() + " type");
  const State& state = *out.state;
  const auto& st = static_cast<const StrategoState&>(state);
  if (state.is_terminal() && !state.is_truncated() && st.winner() != out.winner) {
    const auto name = [&](int who) { return who == 2 ? std::string("a draw") : game.player_name(who) + " winning"; };
    fail(result.where() + " says " + name(out.winner) + "; the moves end with " + name(st.winner()));
  }
}

}  // namespace

GravonGame read_gravon(std::string_view xml, std::string_view parameters) {
  const std::vector<Element> elements = XmlReader(xml).read();
  const GravonParts parts = find_parts(elements);
  const std::string type = game_type(*parts.game);
  GravonGame out;
  out.game = std::make_shared<StrategoGame>(game_parameters(type, parameters, static_cast<int>(parts.moves.size())));
  const auto& stratego_game = static_cast<const StrategoGame&>(*out.game);
  out.state = out.game->new_initial_state();
  if (!parts.field && !parts.moves.empty()) fail("moves without a <field>: the setups are missing");
  if (parts.field) play_field(*parts.field, stratego_game, type, *out.state);
  play_moves(parts.moves, *out.state);
  for (const Element* p : parts.players) {
    const std::string* id = p->attribute("id");
    const int seat = id ? parse_int(*id, p->where() + " id") - 1 : -1;
    if (seat != 0 && seat != 1) fail(p->where() + " needs id 1 (Red) or 2 (Blue)");
    out.players[static_cast<std::size_t>(seat)] = trimmed(p->text);
  }
  if (parts.result) read_result(*parts.result, stratego_game, out);
  return out;
}

std::string write_gravon(const State& state, const std::array<std::string, 2>& players, int winner, int result_type) {
  const auto* st = dynamic_cast<const StrategoState*>(&state);
  if (!st) throw InputError("to_gravon: the state is of " + state.game().name() + "; Gravon XML holds Stratego games");
  if (winner < -1 || winner > 2) throw InputError("to_gravon: winner is 0 (Red), 1 (Blue) or 2 (a draw), got " + std::to_string(winner));
  if (result_type < -1) throw InputError("to_gravon: a result type is a Gravon ending code (0 or more)");
  const StrategoGame& game = st->stratego();
  std::string field(kCells, kEmptyLetter);
  for (int c = 0; c < kCells; ++c)
    if (kLakes & bit(c)) field[static_cast<std::size_t>(c)] = kLakeLetter;
  int fill = 0;
  const auto put = [&](int kind) {
    const Player p = fill < kSquares ? 0 : 1;
    if (kind != kNoPiece) field[static_cast<std::size_t>(StrategoGame::setup_cell(p, fill % kSquares))] = letter_of(p, kind);
    ++fill;
  };
  const auto fixed = [&](Player p) {
    if (fill == p * kSquares && !game.fixed_setup(p).empty())
      for (int kind : game.fixed_setup(p)) put(kind);
  };
  std::string moves;
  int move_id = 0;
  fixed(0);
  for (const Step& step : state.history()) {
    if (step.action < StrategoGame::kMoveBase) {
      put(step.action);
      fixed(1);
      continue;
    }
    const std::string text = state.action_to_string(step.player, step.action);
    const std::size_t dash = text.find('-');
    moves += "  <move id=\"" + std::to_string(++move_id) + "\" source=\"" +
             gravon_square(StrategoGame::parse_cell(text.substr(0, dash))) + "\" target=\"" +
             gravon_square(StrategoGame::parse_cell(text.substr(dash + 1))) + "\"/>\n";
  }
  fixed(1);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<stratego>\n <game type=\"";
  out += game.barrage() ? "barrage" : "classic";
  out += "\">\n";
  if (!st->setting_up()) out += "  <field content=\"" + field + "\"/>\n";
  out += moves;
  for (int p : {0, 1})
    out += "  <player id=\"" + std::to_string(p + 1) + "\">" + escape(players[static_cast<std::size_t>(p)]) + "</player>\n";
  if (state.is_terminal()) {
    if (winner < 0) winner = st->winner();
    if (result_type < 0) {
      using Reason = StrategoState::EndReason;
      const Reason why = st->end_reason();
      result_type = why == Reason::kFlagCaptured ? 1 : why == Reason::kNoMoves ? 0 : why == Reason::kNeitherCanMove ? 2 : 4;
    }
  }
  if (winner >= 0) {
    if (result_type < 0) throw InputError("to_gravon: a result given for the game needs its result type (Gravon's ending code)");
    out += "  <result type=\"" + std::to_string(result_type) + "\" winner=\"" + std::to_string(winner + 1) + "\"/>\n";
  }
  out += " </game>\n</stratego>\n";
  return out;
}

}  // namespace boardlab::stratego
