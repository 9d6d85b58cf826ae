// Klopodavka as a diagram: bugs and main bugs in their seat's colour, cells killed by a seat marked as its own.
#include "games/klopodavka/klopodavka.h"

namespace boardlab {

std::optional<Diagram> KlopodavkaState::diagram(Player) const {
  const GridNotation& grid = klopodavka().notation();
  Diagram out = grid.diagram();
  for (int c = 0; c < grid.width() * grid.height(); ++c) {
    const CellView view = cell(c);
    const double x = grid.centre_x(c), y = grid.centre_y(c);
    switch (view.content) {
      case Content::kKilled: out.areas.push_back({x - 0.5, y - 0.5, 1, 1, "killed", view.owner}); break;
      case Content::kBug:
      case Content::kMainBug: {
        const bool main = view.content == Content::kMainBug;
        DiagramPiece bug{x, y, 1, view.owner, main ? "main_bug" : "bug", main ? game().player_name(view.owner) : "", {}};
        // A seat that is out leaves its bugs on the board, inert: neither targets nor conductors of its own.
        if (is_out(view.owner)) bug.marks.push_back("inert");
        out.pieces.push_back(std::move(bug));
        break;
      }
      case Content::kEmpty: break;
    }
  }
  out.status = status_line();
  return out;
}

}  // namespace boardlab
