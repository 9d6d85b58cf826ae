// War as a diagram: units by type in their seat's colour (commanded or cut off), generals, dead cells.
#include "games/war/war.h"

#include "games/war/unit_patterns.h"

namespace boardlab {

std::optional<Diagram> WarState::diagram(Player) const {
  const GridNotation& grid = war().notation();
  Diagram out = grid.diagram();
  for (int c = 0; c < grid.width() * grid.height(); ++c) {
    const CellView view = cell(c);
    const double x = grid.centre_x(c), y = grid.centre_y(c);
    if (view.content == kNothing) continue;
    if (view.content == kDead) {
      out.areas.push_back({x - 0.5, y - 0.5, 1, 1, "dead", kInvalidPlayer});
      continue;
    }
    const bool general = view.content == kGeneral;
    DiagramPiece unit{x, y, 1, view.owner, general ? "general" : kUnitType[view.content].name,
                      std::string(1, general ? 'G' : kUnitType[view.content].letter), {}};
    if (view.commanded) unit.marks.push_back("commanded");
    if (is_out(view.owner)) unit.marks.push_back("inert");
    out.pieces.push_back(std::move(unit));
  }
  out.status = status_line();
  return out;
}

}  // namespace boardlab
