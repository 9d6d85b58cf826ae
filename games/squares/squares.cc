// Squares rules on cell bitmasks: legal sets per round, the collision of the two new squares, scores, notation.
#include "games/squares/squares.h"

#include <algorithm>
#include <bit>
#include <cctype>

#include "core/errors.h"
#include "core/text.h"
#include "games/squares/squares_heuristic.h"

namespace boardlab {
namespace {

constexpr std::string_view kFiles = "abcdefghiklmnopqrstuv";  // the 21 grid files, no j
constexpr const char* kPlayerName[2] = {"Red", "Blue"};

// First action of each side's placements.
constexpr std::array<int, kNumSizes + 1> kOffset = [] {
  std::array<int, kNumSizes + 1> out{};
  for (int k = 0; k < kNumSizes; ++k) out[k + 1] = out[k] + corners_per_side(k) * corners_per_side(k);
  return out;
}();
static_assert(kOffset[kNumSizes] == SquaresGame::kNumPlacements);

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Index of the n-th set bit of `word` (n < popcount(word)).
int select_bit(std::uint64_t word, int n) {
#if defined(__BMI2__)
  return std::countr_zero(__builtin_ia32_pdep_di(std::uint64_t{1} << n, word));
#else
  for (; n > 0; --n) word &= word - 1;
  return std::countr_zero(word);
#endif
}

// One symmetry of the square: transpose first, then mirror x, then mirror y.
struct Transform {
  bool transpose, mirror_x, mirror_y;
  // The lower-left corner of the image of the len×len block at lower-left (x, y): a cell is
  // the block of side 1, a square of side s the block of side s, so cells and actions map alike.
  std::pair<int, int> map(int x, int y, int len) const {
    if (transpose) std::swap(x, y);
    if (mirror_x) x = kFieldSide - x - len;
    if (mirror_y) y = kFieldSide - y - len;
    return {x, y};
  }
};

}  // namespace

Action placement_action(int size, int x0, int y0) {
  const int k = size / 2 - 1;
  return kOffset[k] + corners_per_side(k) * y0 + x0;
}

Placement placement_of(Action action) {
  int k = 0;
  while (action >= kOffset[k + 1]) ++k;
  const int n = corners_per_side(k), i = action - kOffset[k];
  return {size_of(k), i % n, i / n};
}

std::string point_name(int x, int y) { return std::string(1, kFiles[x]) + std::to_string(y + 1); }

// ---------------------------------------------------------------------------- game

SquaresGame::SquaresGame(const GameParameters& params) : Game("squares", params) {
  static constexpr struct {
    const char* name;
    Transform t;
  } kSymmetries[] = {
      {"mirror left-right", {false, true, false}},  {"mirror top-bottom", {false, false, true}},
      {"rotate 180", {false, true, true}},          {"transpose a1-v21", {true, false, false}},
      {"rotate 90 anticlockwise", {true, true, false}}, {"rotate 90 clockwise", {true, false, true}},
      {"transpose a21-v1", {true, true, true}},
  };
  for (const auto& [name, t] : kSymmetries) {
    Symmetry sym{name, std::vector<int>(kFieldCells), std::vector<Action>(kNumActions), {}, {}};
    for (int y = 0; y < kFieldSide; ++y)
      for (int x = 0; x < kFieldSide; ++x) {
        const auto [ix, iy] = t.map(x, y, 1);
        sym.cell[kFieldSide * y + x] = kFieldSide * iy + ix;
      }
    for (Action a = 0; a < kNumPlacements; ++a) {
      const Placement p = placement_of(a);
      const auto [ix, iy] = t.map(p.x0, p.y0, p.size);
      sym.action[a] = placement_action(p.size, ix, iy);
    }
    sym.action[kPass] = kPass;
    symmetries_.push_back(std::move(sym));
  }
  traits_.action_layout = placement_layout();
  traits_.pass_action = kPass;
  // None: a random round decides games rather than varies them; the seats' own mixed
  // strategies vary them.
  traits_.arena_opening_turns = 0;
  traits_.has_ownership = true;
  traits_.max_score_margin = kMaxScoreMargin;
}

GameType SquaresGame::type() const {
  GameType t;
  t.dynamics = Dynamics::kSimultaneous;
  return t;  // deterministic, perfect information, zero-sum ±1
}

// A placement at its lower-left cell, one plane per side; pass board-wide.
ActionLayout SquaresGame::placement_layout() {
  ActionLayout layout;
  layout.planes = kNumSizes;
  layout.slot.resize(kNumActions);
  for (Action a = 0; a < kNumPlacements; ++a) {
    const Placement p = placement_of(a);
    layout.slot[a] = (p.size / 2 - 1) * kFieldCells + p.y0 * kFieldSide + p.x0;
  }
  layout.slot[kPass] = -1;
  return layout;
}

std::unique_ptr<State> SquaresGame::new_initial_state() const { return std::make_unique<SquaresState>(*this); }

GameSpec squares_spec() {
  GameSpec spec{"squares",
                "Squares: two players place squares on 20x20 at the same time; overlapping new squares collide",
                {},
                [](const GameParameters& params) { return std::make_shared<SquaresGame>(params); },
                {}};
  spec.heuristic = make_squares_heuristic;
  return spec;
}

// ---------------------------------------------------------------------------- state

SquaresState::SquaresState(const SquaresGame& game) : State(game) { update_legal(); }

void SquaresState::legal_corners(Player p, Corners& out) const {
  if (over_) {
    out = {};
    return;
  }
  // Green cells are inside the player's own cells already; the union says the rule.
  placements(occupied(), dilate8(own_[p] | green_), own_[p].empty(), out);
}

void SquaresState::update_legal() {
  Corners corners;
  for (Player p : {0, 1}) {
    auto& bits = legal_[p];
    bits = {};
    if (over_) continue;
    legal_corners(p, corners);
    int pos = 0;
    for (int k = 0; k < kNumSizes; ++k) {
      const int n = corners_per_side(k);
      for (int y = 0; y < n; ++y, pos += n) {
        const std::uint64_t r = corners[k].row[y];
        const int word = pos >> 6, shift = pos & 63;
        bits[word] |= r << shift;
        if (shift + n > 64) bits[word + 1] |= r >> (64 - shift);
      }
    }
    bits[SquaresGame::kPass >> 6] |= std::uint64_t{1} << (SquaresGame::kPass & 63);
  }
}

bool SquaresState::is_legal(Player player, Action action) const {
  if (player < 0 || player > 1 || action < 0 || action >= SquaresGame::kNumActions) return false;
  return ((legal_[player][action >> 6] >> (action & 63)) & 1) != 0;
}

int SquaresState::num_legal(Player player) const {
  if (player < 0 || player > 1) return 0;
  int n = 0;
  for (std::uint64_t w : legal_[player]) n += std::popcount(w);
  return n;
}

void SquaresState::list_legal_actions(Player player, std::vector<Action>& out) const {
  out.clear();
  if (player < 0 || player > 1) return;
  const auto& bits = legal_[player];
  for (int word = 0; word < kLegalWords; ++word)
    for (std::uint64_t w = bits[word]; w; w &= w - 1) out.push_back(64 * word + std::countr_zero(w));
}

Action SquaresState::draw_random_action_of(Player player, Rng& rng) const {
  const int n = num_legal(player);
  if (n == 0)
    throw IllegalActionError("random_legal_action: " +
                             (player == 0 || player == 1 ? std::string(kPlayerName[player]) : std::string("nobody")) +
                             " has no legal action in this state");
  int k = static_cast<int>(rng.below(static_cast<std::uint32_t>(n)));
  for (int word = 0;; ++word) {
    const int here = std::popcount(legal_[player][word]);
    if (k < here) return 64 * word + select_bit(legal_[player][word], k);
    k -= here;
  }
}

std::string SquaresState::illegality(Player player, Action action) const {
  if (over_) return "the game is over";
  if (player < 0 || player > 1) return "player " + std::to_string(player) + " is not 0 (Red) or 1 (Blue)";
  if (action < 0 || action >= SquaresGame::kNumActions)
    return "action " + std::to_string(action) + " is outside 0..1165";
  if (is_legal(player, action)) return {};
  const Placement p = placement_of(action);
  const Field cells = p.cells();
  const Field mine = own_[player] | green_;
  if (cells.intersects(occupied())) {
    for (int y = p.y0; y < p.y0 + p.size; ++y)
      for (int x = p.x0; x < p.x0 + p.size; ++x)
        if (occupied().has(x, y))
          return "it overlaps a square on the field (the cell at " + point_name(x, y) + " is covered)";
  }
  if (!cells.intersects(dilate8(mine)))
    return "it touches no square of " + std::string(kPlayerName[player]) + " and no green zone";
  return "it is not a legal placement";  // unreachable: the two rules above are the only ones
}

void SquaresState::apply(Action action) {
  throw IllegalActionError("illegal action " + std::to_string(action) +
                           ": in Squares both players choose at once; play a round with apply_joint");
}

void SquaresState::apply_joint(std::span<const Action> actions) {
  if (over_) throw IllegalActionError("illegal round: the game is over");
  if (actions.size() != 2)
    throw IllegalActionError("illegal round: one action per player (2: Red, Blue), got " +
                             std::to_string(actions.size()));
  for (Player p : {0, 1})
    if (!is_legal(p, actions[p])) {
      const Action a = actions[p];
      const std::string name =
          a >= 0 && a < SquaresGame::kNumActions ? action_to_string(p, a) : std::to_string(a);
      throw IllegalActionError("illegal action " + name + " of " + kPlayerName[p] + ": " + illegality(p, a));
    }
  history_[2 * rounds_] = static_cast<std::uint16_t>(actions[0]);
  history_[2 * rounds_ + 1] = static_cast<std::uint16_t>(actions[1]);
  ++rounds_;
  const bool placed[2] = {actions[0] != SquaresGame::kPass, actions[1] != SquaresGame::kPass};
  if (!placed[0] && !placed[1]) {
    over_ = true;
    update_legal();
    return;
  }
  Field cells[2];
  int size[2] = {0, 0};
  for (Player p : {0, 1})
    if (placed[p]) {
      const Placement pl = placement_of(actions[p]);
      cells[p] = pl.cells();
      size[p] = pl.size;
    }
  bool keep[2] = {placed[0], placed[1]};
  if (placed[0] && placed[1] && cells[0].intersects(cells[1])) {
    if (size[0] != size[1]) {
      keep[size[0] < size[1] ? 1 : 0] = false;  // the larger is removed
    } else {
      green_ |= cells[0] & cells[1];
    }
  }
  for (Player p : {0, 1})
    if (keep[p]) add_square(p, actions[p], cells[p]);
  update_legal();
}

void SquaresState::add_square(Player p, Action action, const Field& cells) {
  own_[p] |= cells;
  const int s = placement_of(action).size;
  score_[p] = static_cast<std::int16_t>(score_[p] + s * s);
  squares_[num_squares_++] = {static_cast<std::uint16_t>(action), static_cast<std::uint8_t>(p)};
}

void SquaresState::write_returns(std::span<double> out) const {
  if (out.size() != 2) throw InputError("returns: Squares has 2 players, buffer has " + std::to_string(out.size()));
  out[0] = out[1] = 0;
  if (!over_ || score_[0] == score_[1]) return;
  const Player winner = score_[0] > score_[1] ? 0 : 1;
  out[winner] = 1;
  out[1 - winner] = -1;
}

void SquaresState::scores(std::span<double> out) const {
  if (out.size() != 2) throw InputError("scores: Squares has 2 players, buffer has " + std::to_string(out.size()));
  if (!over_) throw InputError("scores: the game is not over");
  out[0] = score_[0];
  out[1] = score_[1];
}

void SquaresState::observation(Player p, std::span<float> out) const {
  if (p != 0 && p != 1) throw InputError("observation: player " + std::to_string(p) + " is not 0 or 1");
  constexpr int kSize = SquaresGame::kNumPlanes * kFieldCells;
  if (out.size() != static_cast<std::size_t>(kSize))
    throw InputError("observation: buffer has " + std::to_string(out.size()) + " floats, " + std::to_string(kSize) +
                     " expected");
  std::fill(out.begin(), out.end(), 0.0f);
  const auto draw = [&](int plane, const Field& f) {
    float* base = out.data() + plane * kFieldCells;
    for (int y = 0; y < kFieldSide; ++y)
      for (std::uint32_t r = f.row[y]; r; r &= r - 1) base[kFieldSide * y + std::countr_zero(r)] = 1.0f;
  };
  const auto fill = [&](int plane, float value) {
    std::fill_n(out.begin() + plane * kFieldCells, kFieldCells, value);
  };
  const Player q = 1 - p;
  draw(0, own_[p]);
  draw(1, own_[q]);
  draw(2, green_);
  Corners corners;
  for (int side = 0; side < 2; ++side) {
    legal_corners(side == 0 ? p : q, corners);
    for (int k = 0; k < kNumSizes; ++k) draw(3 + 5 * side + k, covered(corners, k));
  }
  if (!own_[p].empty()) fill(13, 1.0f);
  if (!own_[q].empty()) fill(14, 1.0f);
  fill(15, 1.0f);
  fill(16, static_cast<float>(score_[p]) / static_cast<float>(kFieldCells));
  fill(17, static_cast<float>(score_[q]) / static_cast<float>(kFieldCells));
}

void SquaresState::ownership(Player viewer, std::span<float> out) const {
  if (viewer != 0 && viewer != 1) throw InputError("ownership: player " + std::to_string(viewer) + " is not 0 or 1");
  if (out.size() != static_cast<std::size_t>(kFieldCells))
    throw InputError("ownership: buffer has " + std::to_string(out.size()) + " floats, 400 expected");
  for (int y = 0; y < kFieldSide; ++y)
    for (int x = 0; x < kFieldSide; ++x) {
      const bool mine = own_[viewer].has(x, y), theirs = own_[1 - viewer].has(x, y);
      out[kFieldSide * y + x] = mine == theirs ? 0.0f : mine ? 1.0f : -1.0f;
    }
}

std::uint64_t SquaresState::hash() const {
  // The cells of each player decide the future (green = the cells both own); the hash
  // mixes their 40 rows and whether the game is over.
  std::uint64_t h = over_ ? 0x6f7665722d2d2d2dULL : 0x5371756172657321ULL;
  for (Player p : {0, 1})
    for (int y = 0; y < kFieldSide; ++y)
      h = mix(h + (static_cast<std::uint64_t>(own_[p].row[y]) | static_cast<std::uint64_t>(p * kFieldSide + y) << 32));
  return h;
}

std::string SquaresState::to_string() const {
  std::string out;
  for (int y = kFieldSide - 1; y >= 0; --y) {
    out += (y + 1 < 10 ? " " : "") + std::to_string(y + 1);
    for (int x = 0; x < kFieldSide; ++x) {
      out += ' ';
      out += green_.has(x, y) ? 'g' : own_[0].has(x, y) ? 'r' : own_[1].has(x, y) ? 'b' : '.';
    }
    out += '\n';
  }
  out += "  ";
  for (int x = 0; x < kFieldSide; ++x) (out += ' ') += kFiles[x];
  out += '\n';
  for (Player p : {0, 1}) {
    out += std::string(kPlayerName[p]) + " " + std::to_string(score_[p]) + ":";
    for (const Square& sq : squares())
      if (sq.owner == p) out += " " + action_to_string(p, sq.action);
    out += '\n';
  }
  return out + outcome_text();
}

std::string SquaresState::outcome_text() const {
  if (!over_) return "round " + std::to_string(rounds_ + 1) + ": Red and Blue choose";
  if (score_[0] == score_[1]) return "draw";
  return score_[0] > score_[1] ? "Red wins" : "Blue wins";
}

std::optional<Diagram> SquaresState::diagram(Player) const {
  Diagram out;
  out.width = out.height = kFieldSide;
  out.grid = true;
  // The notation names the grid's crossings (a square by its lower-left corner), not its cells.
  std::vector<std::string> files;
  for (char file : kFiles) files.emplace_back(1, file);
  label_grid(out, files, kFieldSide + 1, 0);
  name_grid(out, files, kFieldSide + 1, 0);
  for (int y = 0; y < kFieldSide; ++y)
    for (int x = 0; x < kFieldSide; ++x)
      if (green_.has(x, y)) out.areas.push_back({static_cast<double>(x), static_cast<double>(y), 1, 1, "green", kInvalidPlayer});
  for (const Square& sq : squares()) {
    const Placement p = placement_of(sq.action);
    const double half = p.size / 2.0;
    out.pieces.push_back({p.x0 + half, p.y0 + half, static_cast<double>(p.size), sq.owner, "square", "", {}});
  }
  out.status = std::string("Red ") + std::to_string(score_[0]) + ", Blue " + std::to_string(score_[1]) + "; " +
               outcome_text();
  return out;
}

std::string SquaresState::action_text(Player, Action action) const {
  if (action == SquaresGame::kPass) return "pass";
  if (action < 0 || action >= SquaresGame::kNumActions)
    throw InputError("action " + std::to_string(action) + " is outside 0..1165");
  const Placement p = placement_of(action);
  return std::to_string(p.size) + point_name(p.x0, p.y0);
}

Action SquaresState::read_action(Player, std::string_view text) const {
  if (text == "pass") return SquaresGame::kPass;
  const auto fail = [&](const std::string& why) -> Action {
    throw NotationError(quote_input(text) + " is not a Squares action: " + why);
  };
  std::size_t i = 0;
  int size = 0;
  while (i < text.size() && i < 3 && std::isdigit(static_cast<unsigned char>(text[i])))
    size = size * 10 + (text[i++] - '0');
  if (i == 0 || i == text.size())
    return fail("expected a side and a lower-left corner point like 4c5 or 10a1, or pass");
  if (size < 2 || size > 10 || size % 2 != 0 || text[0] == '0') return fail("the side must be 2, 4, 6, 8 or 10");
  const auto file = kFiles.find(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
  if (file == std::string_view::npos) return fail("files are a to v (there is no j)");
  const std::string_view rank_text = text.substr(i + 1);
  int rank = 0;
  for (char c : rank_text) {
    if (c < '0' || c > '9' || rank > 100) return fail("the rank must be a number 1..21");
    rank = rank * 10 + (c - '0');
  }
  if (rank_text.empty() || rank_text[0] == '0' || rank < 1 || rank > kPointSide)
    return fail("the rank must be a number 1..21");
  const int x0 = static_cast<int>(file), y0 = rank - 1, last = kPointSide - 1 - size;
  if (x0 > last || y0 > last)
    return fail("a square of side " + std::to_string(size) + " does not fit in the field there: its lower-left corner" +
                " must lie on files a.." + kFiles[last] + " and ranks 1.." + std::to_string(last + 1));
  return placement_action(size, x0, y0);
}

std::vector<Step> SquaresState::history() const {
  std::vector<Step> out(2 * static_cast<std::size_t>(rounds_));
  for (int i = 0; i < 2 * rounds_; ++i) out[i] = {i % 2, history_[i]};
  return out;
}

}  // namespace boardlab
