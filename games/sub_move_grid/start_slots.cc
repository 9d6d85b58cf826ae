// Start slots, board parameters and slot-keeping symmetries of Klopodavka and War.
#include "games/sub_move_grid/start_slots.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "core/errors.h"
#include "core/text.h"

namespace boardlab {
namespace {

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
        return std::string("the start blocks at the ") + kSlotName[static_cast<int>(slots[p])] + " and the " +
               kSlotName[static_cast<int>(slots[q])] + " touch";
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

}  // namespace

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

int slot_centre(Slot slot, int width, int height) {
  const Point c = centre_of(slot, width, height);
  return c.rank * width + c.file;
}

std::vector<ParamSpec> slot_board_params(std::int64_t max_turns) {
  return {{"players", std::int64_t{4}, "2..6: the corners, then the middles of the top and bottom edges"},
          {"width", std::int64_t{20}, "files, with board=custom"},
          {"height", std::int64_t{20}, "ranks, with board=custom"},
          {"board", std::string("custom"), "custom (width x height) or sheet (39x32, a school notebook sheet)"},
          {"max_turns", max_turns, "turns (all players together) after which the survivors draw; a cap, not a rule"}};
}

void resolve_slot_board(const std::string& game, GameParameters& params) {
  const auto fail = [&](const std::string& why) { throw GameParameterError(game + ": " + why); };
  const auto number = [&](const char* name) { return std::get<std::int64_t>(params.at(name)); };
  const std::string board = std::get<std::string>(params.at("board"));
  if (board == "sheet") {
    const bool defaults = number("width") == 20 && number("height") == 20;
    const bool sheet = number("width") == SlotBoard::kSheetWidth && number("height") == SlotBoard::kSheetHeight;
    if (!defaults && !sheet)
      fail("board=sheet is 39x32: leave width and height out (got " + std::to_string(number("width")) + "x" +
           std::to_string(number("height")) + ")");
    params["width"] = std::int64_t{SlotBoard::kSheetWidth};
    params["height"] = std::int64_t{SlotBoard::kSheetHeight};
  } else if (board != "custom") {
    fail("board must be custom or sheet, got " + quote_input(board));
  }
  const auto players = number("players"), width = number("width"), height = number("height");
  if (players < 2 || players > SlotBoard::kMaxPlayers) fail("players must be 2..6, got " + std::to_string(players));
  if (width < 3 || height < 3 || width > SlotBoard::kMaxCells || height > SlotBoard::kMaxCells)
    fail("width and height must be at least 3, got " + std::to_string(width) + "x" + std::to_string(height));
  if (width * height > SlotBoard::kMaxCells)
    fail("a board holds at most " + std::to_string(SlotBoard::kMaxCells) + " cells, got " + std::to_string(width) + "x" +
         std::to_string(height));
  const std::string why = misfit(static_cast<int>(players), static_cast<int>(width), static_cast<int>(height));
  if (!why.empty())
    fail("on a " + std::to_string(width) + "x" + std::to_string(height) + " board " + why + " (" +
         std::to_string(players) + " players need a larger board)");
  if (number("max_turns") < 1 || number("max_turns") > SlotBoard::kMaxTurns)
    fail("max_turns must be 1.." + std::to_string(SlotBoard::kMaxTurns) + ", got " + std::to_string(number("max_turns")));
}

SlotGrid slot_grid(int width, int height) {
  const int cells = width * height;
  if (cells <= 128) return Grid<SmallBits>(width, height);
  if (cells <= 256) return Grid<WideBits<4>>(width, height);
  if (cells <= 512) return Grid<WideBits<8>>(width, height);
  return Grid<WideBits<20>>(width, height);
}

std::vector<Symmetry> slot_symmetries(int players, int width, int height, int planes) {
  const int n = players, cells = width * height;
  const std::vector<Slot> slots = slots_for(players);
  std::vector<Symmetry> out;
  for (const Transform& t : kTransforms) {
    if (t.square_only && width != height) continue;
    // Where each seat's slot goes: the transform must map occupied slots onto occupied ones.
    std::vector<Player> seat(static_cast<std::size_t>(n), -1);
    for (Player p = 0; p < n; ++p) {
      const Point image = t.map(centre_of(slots[p], width, height), width, height);
      for (Player q = 0; q < n; ++q) {
        const Point c = centre_of(slots[q], width, height);
        if (c.file == image.file && c.rank == image.rank) seat[p] = q;
      }
    }
    if (std::count(seat.begin(), seat.end(), -1) > 0) continue;
    // The turn order must survive: the seats are turned, p -> p + k (two players: any).
    const int shift = seat[0];
    bool rotation = true;
    for (Player p = 0; p < n; ++p) rotation = rotation && seat[p] == (p + shift) % n;
    if (!rotation && n > 2) continue;
    Symmetry sym{t.name, std::vector<int>(cells), std::vector<Action>(planes * cells + 1), {}, {}};
    for (int cell = 0; cell < cells; ++cell) {
      const Point image = t.map({cell % width, cell / width}, width, height);
      sym.cell[cell] = image.rank * width + image.file;
      for (int plane = 0; plane < planes; ++plane) sym.action[plane * cells + cell] = plane * cells + sym.cell[cell];
    }
    sym.action[planes * cells] = planes * cells;
    bool moves_a_seat = false;
    for (Player p = 0; p < n; ++p) moves_a_seat = moves_a_seat || seat[p] != p;
    if (moves_a_seat) sym.player = seat;
    // Seats keep their order relative to each viewer, so the planes stay where they are.
    out.push_back(std::move(sym));
  }
  return out;
}

std::unique_ptr<State> apply_slot_symmetry(const Game& game, const State& state, int index) {
  const std::vector<Symmetry>& symmetries = game.symmetries();
  if (index < 0 || index >= static_cast<int>(symmetries.size()))
    throw InputError("apply_symmetry: " + game.to_string() + " has no symmetry " + std::to_string(index));
  const auto* s = dynamic_cast<const SlotState*>(&state);
  if (s == nullptr || &state.game() != &game) throw InputError("apply_symmetry: the state is not one of " + game.to_string());
  const Symmetry& sym = symmetries[index];
  std::vector<Player> seat(static_cast<std::size_t>(game.num_players()));
  for (Player p = 0; p < game.num_players(); ++p) seat[p] = sym.map_player(p);
  // The image's first mover is seat[0]: it replays from the start only when that is seat A.
  return s->mapped(sym.cell, seat, seat[0] == 0);
}

ActionLayout plane_action_layout(int planes, int cells) {
  ActionLayout layout;
  layout.planes = planes;
  layout.slot.resize(static_cast<std::size_t>(planes * cells + 1));
  for (int a = 0; a < planes * cells; ++a) layout.slot[static_cast<std::size_t>(a)] = a;
  layout.slot.back() = -1;
  return layout;
}

}  // namespace boardlab
