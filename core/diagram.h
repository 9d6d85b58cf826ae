// A state as a diagram for pictures: the board's named points, terrain, lines and pieces, as one viewer may see them.
#pragma once

#include <string>
#include <vector>

#include "core/types.h"

namespace boardlab {

// Coordinates are in board units: x rightwards from the board's left edge, y upwards from its
// bottom edge, so that a grid game's cell (file f, rank r) spans [f, f+1] x [r, r+1]. A drawing
// scales them; nothing here is in pixels or depends on the network's observation planes.

// A named place of the board: a click there names it in the game's notation ("e5", "ab12").
struct DiagramPoint {
  std::string name;
  double x = 0, y = 0;
};

// A rectangle of terrain: a lake, a cell killed or dead, a green cell. `kind` is the game's
// word for it; `owner` the seat it belongs to (a kill's killer), or kInvalidPlayer.
struct DiagramArea {
  double x = 0, y = 0, width = 1, height = 1;
  std::string kind;
  Player owner = kInvalidPlayer;
};

// A line of the board itself (Morabaraba's squares and spokes), not of a grid.
struct DiagramLine {
  double x1 = 0, y1 = 0, x2 = 0, y2 = 0;
};

// A text beside the board: a file or rank label.
struct DiagramLabel {
  double x = 0, y = 0;
  std::string text;
};

// A piece, centred at (x, y) and `size` units across. `kind` is the game's word for it (a
// unit, a bug, a square); `label` the short text written on it ("" for none, "?" for a rank
// the viewer does not know); `marks` the game's words for its states ("killed", "inert",
// "commanded"). A hidden piece is told by its owner alone: its kind is "hidden".
struct DiagramPiece {
  double x = 0, y = 0, size = 1;
  Player owner = kInvalidPlayer;
  std::string kind;
  std::string label;
  std::vector<std::string> marks;
};

// What a picture of a state shows. `grid`: the board is ruled in unit squares over
// [0, width] x [0, height]. `status`: one line under the board (whose turn, the score, the
// result), as the viewer may know it.
struct Diagram {
  double width = 0, height = 0;
  bool grid = false;
  std::vector<DiagramLabel> labels;
  std::vector<DiagramPoint> points;
  std::vector<DiagramArea> areas;
  std::vector<DiagramLine> lines;
  std::vector<DiagramPiece> pieces;
  std::string status;
};

// The labels of a grid: files[f] under column f, and rank numbers 1 to `ranks` left of the rows
// from the bottom, each at `offset` into its unit (0.5: a cell's middle; 0: a line's crossing).
void label_grid(Diagram& diagram, const std::vector<std::string>& files, int ranks, double offset);

// A grid's places as points named file + rank (files[0] + "1" the bottom-left one), each at
// (f + offset, r + offset): cells' centres for offset 0.5, lines' crossings for 0.
void name_grid(Diagram& diagram, const std::vector<std::string>& files, int ranks, double offset);

}  // namespace boardlab
