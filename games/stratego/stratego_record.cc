// Drawing a full Stratego game that fits a player's (or the public) record: hidden setups dealt from the record's constraints.
#include <algorithm>

#include "core/errors.h"
#include "core/text.h"
#include "games/stratego/stratego.h"

namespace boardlab {

using namespace stratego;

namespace {

constexpr int kSquares = StrategoGame::kSetupSquares;

[[noreturn]] void fail_turn(std::size_t t, const std::string& word, const std::string& why) {
  throw NotationError("sample_record: record turn " + std::to_string(t + 1) + " " + quote_input(word) + ": " + why);
}

// What a record says of the pieces, by setup slot (side × 40 + square).
struct RecordedPieces {
  std::string setup[2];         // per side: a kind, '.' or '?' (hidden) per square; fixed setups are public
  std::size_t setup_turns = 0;  // the record's turns that are setups: its moves follow them
  std::vector<int> known = std::vector<int>(2 * kSquares, -1);  // the kind a piece showed, or -1
  std::vector<bool> moved = std::vector<bool>(2 * kSquares, false);
};

// The setups, fixed or as the record gives them. The record may stop in the middle of a
// setup: its last word is then the squares filled so far.
void read_setups(const StrategoGame& game, const RecordTurns& read, const std::vector<Player>& setup_sides,
                 RecordedPieces& out) {
  const std::vector<std::string>& words = read.turns;
  const auto partial = [&](std::size_t t) { return read.goes_on && t + 1 == words.size(); };
  for (Player p : {0, 1})
    for (int k : game.fixed_setup(p)) out.setup[p] += k == kNoPiece ? '.' : kKindChars[k];
  std::size_t& t = out.setup_turns;
  for (Player p : setup_sides) {
    if (t >= words.size()) break;
    const std::string& w = words[t];
    if (w.size() != kSquares && !(partial(t) && w.size() < kSquares))
      fail_turn(t, w, partial(t) ? "a setup has at most 40 characters" : "a setup turn has 40 characters");
    for (char c : w)
      if (c != '?' && c != '.' && kind_of_char(c) < 0) fail_turn(t, w, "a setup character is 1-9, X, B, F, '.' or '?'");
    out.setup[p] = w;
    ++t;
  }
}

// Follows the pieces (by setup slot) through the moves: strikes show both kinds, so every
// outcome is known; a piece that moved is mobile, one that moved far is a Scout.
void follow_moves(const std::vector<std::string>& words, RecordedPieces& out) {
  int board[kCells];
  std::fill(board, board + kCells, -1);
  for (Player p : {0, 1})
    for (int i = 0; i < static_cast<int>(out.setup[p].size()); ++i) {
      const char c = out.setup[p][static_cast<std::size_t>(i)];
      if (c == '.') continue;
      board[StrategoGame::setup_cell(p, i)] = p * kSquares + i;
      if (c != '?') out.known[p * kSquares + i] = kind_of_char(c);
    }
  const auto learn = [&](std::size_t at, int id, int kind) {
    if (out.known[id] >= 0 && out.known[id] != kind)
      fail_turn(at, words[at],
                "the piece shows " + std::string(kKindNames[kind]) + " but was " + std::string(kKindNames[out.known[id]]));
    out.known[id] = kind;
  };
  for (std::size_t m = out.setup_turns; m < words.size(); ++m) {
    const std::string& w = words[m];
    const auto dash = w.find('-'), eq = w.find('=');
    if (dash == std::string::npos) fail_turn(m, w, "a move reads like a4-a5 (or a4-a5=32 for a strike)");
    const int from = StrategoGame::parse_cell(std::string_view(w).substr(0, dash));
    const int to = StrategoGame::parse_cell(std::string_view(w).substr(dash + 1, eq == std::string::npos ? std::string::npos : eq - dash - 1));
    if (from < 0 || to < 0) fail_turn(m, w, "squares are a1..k10");
    if (board[from] < 0) fail_turn(m, w, "no piece stands on " + StrategoGame::cell_name(from));
    const int id = board[from];
    out.moved[id] = true;
    if (std::abs(to - from) != 1 && std::abs(to - from) != kSide) learn(m, id, kScout);
    if (eq == std::string::npos) {
      if (board[to] >= 0) fail_turn(m, w, "a strike must show both kinds (=AD)");
      board[to] = id;
      board[from] = -1;
      continue;
    }
    if (w.size() != eq + 3 || board[to] < 0) fail_turn(m, w, "a strike is written a4-a5=AD with the two kinds");
    const int a = kind_of_char(w[eq + 1]), d = kind_of_char(w[eq + 2]);
    if (a < 0 || d < 0) fail_turn(m, w, "the kinds of a strike are 1-9, X, B or F");
    learn(m, id, a);
    learn(m, board[to], d);
    const int result = strike(a, d);
    board[from] = -1;
    if (result > 0) board[to] = id;
    if (result == 0) board[to] = -1;
  }
}

// Deals side p's hidden pieces into `full` (its setup characters): the kinds its pieces
// showed, immobile kinds among the pieces that never moved, the rest anywhere. Returns why
// no deal fits, or an empty string.
std::string deal_side(const StrategoGame& game, Player p, const RecordedPieces& pieces, std::string& full, Rng& rng) {
  if (full.find('?') == std::string::npos) return "";
  std::array<int, kKinds> left{};
  for (int k = 0; k < kKinds; ++k) left[k] = game.counts()[k];
  std::vector<int> still, free;
  for (int i = 0; i < static_cast<int>(full.size()); ++i) {
    const int id = p * kSquares + i;
    char& c = full[static_cast<std::size_t>(i)];
    if (c != '?') {
      if (c != '.') --left[kind_of_char(c)];
    } else if (pieces.known[id] >= 0) {
      --left[pieces.known[id]];
      c = kKindChars[pieces.known[id]];
    } else {
      (pieces.moved[id] ? free : still).push_back(i);
    }
  }
  std::vector<int> immobile, mobile;
  std::string why;
  for (int k = 0; k < kKinds; ++k) {
    if (left[k] < 0) why = "more " + std::string(kKindNames[k]) + "s show than " + game.player_name(p) + " has";
    for (int n = 0; n < left[k]; ++n) (is_mobile(k) ? mobile : immobile).push_back(k);
  }
  if (!why.empty()) return why;
  // A setup still in progress has pieces in hand: they are the ones dealt to no square.
  const std::size_t squares = still.size() + free.size(), in_hand = mobile.size() + immobile.size();
  if (in_hand < squares || immobile.size() > still.size() + (in_hand - squares)) return "the hidden pieces cannot all be dealt";
  std::vector<int> slots = still;
  for (std::size_t h = 0; h < in_hand - squares; ++h) slots.push_back(-1);
  std::shuffle(slots.begin(), slots.end(), rng);
  std::shuffle(immobile.begin(), immobile.end(), rng);
  std::shuffle(mobile.begin(), mobile.end(), rng);
  std::vector<int> rest(slots.begin() + static_cast<std::ptrdiff_t>(immobile.size()), slots.end());
  rest.insert(rest.end(), free.begin(), free.end());
  for (std::size_t i = 0; i < immobile.size(); ++i)
    if (slots[i] >= 0) full[static_cast<std::size_t>(slots[i])] = kKindChars[immobile[i]];
  for (std::size_t i = 0; i < rest.size(); ++i)
    if (rest[i] >= 0) full[static_cast<std::size_t>(rest[i])] = kKindChars[mobile[i]];
  return "";
}

}  // namespace

// The generic step-by-step search would have to guess 40 hidden setup steps that only strikes
// many moves later constrain. Instead: follow the pieces through the record's moves, collect
// what each hidden piece must be (a known kind, or movable for a piece that moved), deal the
// rest uniformly, and replay.
std::unique_ptr<State> StrategoGame::sample_record(std::string_view record, Player viewer, Rng& rng, int max_nodes) const {
  if (viewer != kPublicViewer && (viewer < 0 || viewer > 1))
    throw InputError("sample_record: the viewer must be a seat or kPublicViewer, got " + std::to_string(viewer));
  const RecordTurns read = record_turns(record);
  const std::vector<std::string>& words = read.turns;
  std::vector<Player> setup_sides;
  for (Player p : {0, 1})
    if (fixed_setup(p).empty()) setup_sides.push_back(p);
  RecordedPieces pieces;
  read_setups(*this, read, setup_sides, pieces);
  follow_moves(words, pieces);
  const std::string mark = read.goes_on ? std::string(kTurnGoesOn) : "";
  std::string wanted;
  for (const std::string& w : words) wanted += (wanted.empty() ? "" : " ") + w;
  if (!mark.empty()) wanted += " " + mark;
  std::string last_error = "no deal fits";
  const int attempts = std::max(1, std::min(max_nodes, 2000));
  for (int attempt = 0; attempt < attempts; ++attempt) {
    std::string full[2] = {pieces.setup[0], pieces.setup[1]};
    std::string why;
    for (Player p : {0, 1})
      if (why.empty()) why = deal_side(*this, p, pieces, full[p], rng);
    if (!why.empty()) {
      last_error = why;
      break;
    }
    std::string text;
    std::size_t s = 0;
    for (Player p : setup_sides)
      if (s++ < pieces.setup_turns) text += full[p] + " ";
    for (std::size_t m = pieces.setup_turns; m < words.size(); ++m) text += words[m].substr(0, words[m].find('=')) + " ";
    try {
      std::unique_ptr<State> state = load_record(text + mark);
      const std::string seen = state->record_for(viewer);
      if (seen == wanted) return state;
      last_error = "the replayed game reads " + quote_input(seen.substr(0, 200)) + " to the viewer";
    } catch (const InputError& e) {
      last_error = e.what();
    }
  }
  throw NotationError("sample_record: no game fits the record: " + last_error);
}

}  // namespace boardlab
