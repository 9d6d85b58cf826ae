// Klopodavka's game: parameters and the sheet preset, start slots, symmetries, Zobrist keys.
#include "games/klopodavka/klopodavka.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

#include "core/errors.h"
#include "core/rng.h"
#include "core/text.h"

namespace boardlab {
namespace {

using Slot = KlopodavkaGame::Slot;

// The occupied slots, in seat order (clockwise from the bottom left), for each player count.
std::vector<Slot> slots_for(int players) {
  switch (players) {
    case 2: return {Slot::kBottomLeft, Slot::kTopRight};
    case 3: return {Slot::kBottomLeft, Slot::kTopMiddle, Slot::kBottomRight};
    case 4: return {Slot::kBottomLeft, Slot::kTopLeft, Slot::kTopRight, Slot::kBottomRight};
    case 5: return {Slot::kBottomLeft, Slot::kTopLeft, Slot::kTopMiddle, Slot::kTopRight, Slot::kBottomRight};
    default:
      return {Slot::kBottomLeft, Slot::kTopLeft,     Slot::kTopMiddle,
              Slot::kTopRight,   Slot::kBottomRight, Slot::kBottomMiddle};
  }
}

constexpr const char* kSlotName[] = {"bottom-left", "top-left", "top-middle", "top-right", "bottom-right",
                                     "bottom-middle"};

struct Point {
  int file;
  int rank;  // both from 0
};

// The centre of a slot's 3×3 block, flush with its edges. On an even width the top middle
// is left of the centre and the bottom middle right of it: a 180° turn swaps them.
Point centre_of(Slot slot, int width, int height) {
  const int middle = (width - 1) / 2;
  switch (slot) {
    case Slot::kBottomLeft: return {1, 1};
    case Slot::kTopLeft: return {1, height - 2};
    case Slot::kTopMiddle: return {middle, height - 2};
    case Slot::kTopRight: return {width - 2, height - 2};
    case Slot::kBottomRight: return {width - 2, 1};
    default: return {width - 1 - middle, 1};
  }
}

// Why the start blocks of `players` do not fit a width×height board, or an empty string.
std::string misfit(int players, int width, int height) {
  const std::vector<Slot> slots = slots_for(players);
  for (std::size_t p = 0; p < slots.size(); ++p)
    for (std::size_t q = p + 1; q < slots.size(); ++q) {
      const Point a = centre_of(slots[p], width, height), b = centre_of(slots[q], width, height);
      // Blocks of 3 whose centres are 3 apart in both directions touch; 4 leave a cell between.
      if (std::abs(a.file - b.file) <= 3 && std::abs(a.rank - b.rank) <= 3)
        return std::string("the start blocks at the ") + kSlotName[slots[p]] + " and the " + kSlotName[slots[q]] +
               " touch";
    }
  return {};
}

// A board symmetry as a map of (file, rank) on a width×height board.
struct Transform {
  const char* name;
  bool square_only;
  Point (*map)(Point, int width, int height);
};

constexpr Transform kTransforms[] = {
    {"rotate 180", false, [](Point p, int w, int h) { return Point{w - 1 - p.file, h - 1 - p.rank}; }},
    {"mirror left-right", false, [](Point p, int w, int) { return Point{w - 1 - p.file, p.rank}; }},
    {"mirror top-bottom", false, [](Point p, int, int h) { return Point{p.file, h - 1 - p.rank}; }},
    {"transpose along a1 diagonal", true, [](Point p, int, int) { return Point{p.rank, p.file}; }},
    {"transpose along the other diagonal", true,
     [](Point p, int w, int h) { return Point{w - 1 - p.rank, h - 1 - p.file}; }},
    {"rotate 90 clockwise", true, [](Point p, int w, int) { return Point{p.rank, w - 1 - p.file}; }},
    {"rotate 90 anticlockwise", true, [](Point p, int, int h) { return Point{h - 1 - p.rank, p.file}; }},
};

using GridVariant = std::variant<Grid<SmallBits>, Grid<WideBits<4>>, Grid<WideBits<8>>, Grid<WideBits<20>>>;

GridVariant grid_for(int width, int height) {
  const int cells = width * height;
  if (cells <= 128) return Grid<SmallBits>(width, height);
  if (cells <= 256) return Grid<WideBits<4>>(width, height);
  if (cells <= 512) return Grid<WideBits<8>>(width, height);
  return Grid<WideBits<20>>(width, height);
}

int int_param(const GameParameters& params, const char* name) {
  return static_cast<int>(std::get<std::int64_t>(params.at(name)));
}

}  // namespace

KlopodavkaGame::KlopodavkaGame(const GameParameters& params)
    : Game("klopodavka", params),
      players_(int_param(params, "players")),
      width_(int_param(params, "width")),
      height_(int_param(params, "height")),
      submoves_(int_param(params, "submoves")),
      revolution_(std::get<bool>(params.at("revolution"))),
      max_turns_(int_param(params, "max_turns")),
      slots_(slots_for(players_)),
      notation_(width_, height_),
      grid_(grid_for(width_, height_)) {
  for (Slot slot : slots_) {
    const Point c = centre_of(slot, width_, height_);
    homes_.push_back(c.rank * width_ + c.file);
  }
  Rng rng(0x6b6c6f706f646176ULL);
  cell_keys_.resize(static_cast<std::size_t>(cells() * 3 * kMaxPlayers));
  for (auto& key : cell_keys_) key = rng();
  state_keys_.resize(kStateKeys);
  for (auto& key : state_keys_) key = rng();
  add_symmetries();
}

void KlopodavkaGame::add_symmetries() {
  const int n = players_;
  for (const Transform& t : kTransforms) {
    if (t.square_only && width_ != height_) continue;
    // Where each seat's slot goes: the transform must map occupied slots onto occupied ones.
    std::vector<Player> seat(static_cast<std::size_t>(n), -1);
    for (Player p = 0; p < n; ++p) {
      const Point image = t.map(centre_of(slots_[p], width_, height_), width_, height_);
      for (Player q = 0; q < n; ++q) {
        const Point c = centre_of(slots_[q], width_, height_);
        if (c.file == image.file && c.rank == image.rank) seat[p] = q;
      }
    }
    if (std::count(seat.begin(), seat.end(), -1) > 0) continue;
    // The turn order must survive: the seats are turned, p -> p + k (two players: any).
    const int shift = seat[0];
    bool rotation = true;
    for (Player p = 0; p < n; ++p) rotation = rotation && seat[p] == (p + shift) % n;
    if (!rotation && n > 2) continue;
    Symmetry sym{t.name, std::vector<int>(cells()), std::vector<Action>(num_distinct_actions()), {}, {}};
    for (int cell = 0; cell < cells(); ++cell) {
      const Point image = t.map({cell % width_, cell / width_}, width_, height_);
      sym.cell[cell] = image.rank * width_ + image.file;
      sym.action[cell] = sym.cell[cell];
      sym.action[crown_action(cell)] = crown_action(sym.cell[cell]);
    }
    sym.action[pass()] = pass();
    bool moves_a_seat = false;
    for (Player p = 0; p < n; ++p) moves_a_seat = moves_a_seat || seat[p] != p;
    if (moves_a_seat) sym.player = seat;
    // Seats keep their order relative to each viewer, so the planes stay where they are.
    symmetries_.push_back(std::move(sym));
  }
}

std::unique_ptr<State> KlopodavkaGame::apply_symmetry(const State& state, int index) const {
  if (index < 0 || index >= static_cast<int>(symmetries_.size()))
    throw InputError("apply_symmetry: " + to_string() + " has no symmetry " + std::to_string(index));
  const auto* s = dynamic_cast<const KlopodavkaState*>(&state);
  if (s == nullptr || &state.game() != this)
    throw InputError("apply_symmetry: the state is not one of " + to_string());
  const Symmetry& sym = symmetries_[index];
  std::vector<Player> seat(static_cast<std::size_t>(players_));
  for (Player p = 0; p < players_; ++p) seat[p] = sym.map_player(p);
  // The image's first mover is seat[0]: it replays from the start only when that is seat A.
  return s->mapped(sym.cell, seat, seat[0] == 0);
}

std::string KlopodavkaGame::player_name(Player p) const { return std::string(1, static_cast<char>('A' + p)); }

ActionLayout KlopodavkaGame::action_layout() const {
  ActionLayout layout;
  layout.planes = 2;
  layout.slot.resize(static_cast<std::size_t>(num_distinct_actions()));
  for (int a = 0; a < 2 * cells(); ++a) layout.slot[static_cast<std::size_t>(a)] = a;
  layout.slot[static_cast<std::size_t>(pass())] = -1;
  return layout;
}

ObservationShape KlopodavkaGame::observation_shape() const {
  return {5 * players_ + submoves_ + 4, height_, width_};
}

int KlopodavkaGame::max_game_length() const {
  // A turn is at most `submoves` steps; every sub-move moves a cell along empty -> live ->
  // killed, and a pass is a turn of one step.
  return std::min(max_turns_ * submoves_, 2 * cells() + max_turns_);
}

std::unique_ptr<State> KlopodavkaGame::new_initial_state() const { return KlopodavkaState::initial(*this); }

std::vector<std::string> KlopodavkaGame::split_turn(std::string_view turn, bool simultaneous) const {
  return split_sub_move_turn(*this, turn, simultaneous);
}

std::uint64_t KlopodavkaGame::turn_key(int number) {
  return Rng(0x7475726e73ULL ^ static_cast<std::uint64_t>(number))();
}

GameSpec klopodavka_spec() {
  return {"klopodavka",
          "Klopodavka: Virus War for 2 to 6 players, each defending its main bug; the last one left wins",
          {{"players", std::int64_t{4}, "2..6: the corners, then the middles of the top and bottom edges"},
           {"width", std::int64_t{20}, "files, with board=custom"},
           {"height", std::int64_t{20}, "ranks, with board=custom"},
           {"board", std::string("custom"), "custom (width x height) or sheet (39x32, a school notebook sheet)"},
           {"submoves", std::int64_t{5}, "sub-moves per turn, 1..20"},
           {"revolution", true, "a ring of 8 own bugs around an empty cell may crown a new main bug there"},
           {"max_turns", std::int64_t{1000},
            "turns (all players together) after which the survivors draw; a cap, not a rule"}},
          [](const GameParameters& given) -> std::shared_ptr<const Game> {
            GameParameters params = given;
            const auto fail = [](const std::string& why) { throw GameParameterError("klopodavka: " + why); };
            const auto number = [&](const char* name) { return std::get<std::int64_t>(params.at(name)); };
            const std::string board = std::get<std::string>(params.at("board"));
            if (board == "sheet") {
              const bool defaults = number("width") == 20 && number("height") == 20;
              const bool sheet = number("width") == KlopodavkaGame::kSheetWidth &&
                                 number("height") == KlopodavkaGame::kSheetHeight;
              if (!defaults && !sheet)
                fail("board=sheet is 39x32: leave width and height out (got " + std::to_string(number("width")) +
                     "x" + std::to_string(number("height")) + ")");
              params["width"] = std::int64_t{KlopodavkaGame::kSheetWidth};
              params["height"] = std::int64_t{KlopodavkaGame::kSheetHeight};
            } else if (board != "custom") {
              fail("board must be custom or sheet, got " + quote_input(board));
            }
            const auto players = number("players"), width = number("width"), height = number("height");
            if (players < 2 || players > KlopodavkaGame::kMaxPlayers)
              fail("players must be 2..6, got " + std::to_string(players));
            if (width < 3 || height < 3 || width > KlopodavkaGame::kMaxCells || height > KlopodavkaGame::kMaxCells)
              fail("width and height must be at least 3, got " + std::to_string(width) + "x" + std::to_string(height));
            if (width * height > KlopodavkaGame::kMaxCells)
              fail("a board holds at most " + std::to_string(KlopodavkaGame::kMaxCells) + " cells, got " +
                   std::to_string(width) + "x" + std::to_string(height));
            const std::string why = misfit(static_cast<int>(players), static_cast<int>(width), static_cast<int>(height));
            if (!why.empty())
              fail("on a " + std::to_string(width) + "x" + std::to_string(height) + " board " + why + " (" +
                   std::to_string(players) + " players need a larger board)");
            if (number("submoves") < 1 || number("submoves") > KlopodavkaGame::kMaxSubMoves)
              fail("submoves must be 1..20, got " + std::to_string(number("submoves")));
            if (number("max_turns") < 1 || number("max_turns") > KlopodavkaGame::kMaxTurns)
              fail("max_turns must be 1.." + std::to_string(KlopodavkaGame::kMaxTurns) + ", got " +
                   std::to_string(number("max_turns")));
            return std::make_shared<KlopodavkaGame>(params);
          },
          {"players=2,width=10,height=10", "players=3,width=11,height=11", "players=4,width=10,height=10",
           "players=5,width=13,height=9,revolution=false,submoves=3", "players=6,width=11,height=9"},
          // 4 players on 20×20 make the conformance suite's thousand random games take minutes:
          // the presets cover every player count on small boards, klopodavka_test the defaults.
          false};
}

}  // namespace boardlab
