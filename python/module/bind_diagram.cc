// State.diagram() for Python: a state's board as one viewer may see it, as plain dicts and tuples for drawings.
#include <pybind11/stl.h>

#include "arguments.h"
#include "bindings.h"
#include "core/diagram.h"
#include "handles.h"

namespace boardlab::python {

namespace py = pybind11;

namespace {

// A seat, or None for no one.
py::object owner_object(Player owner) { return owner == kInvalidPlayer ? py::object(py::none()) : py::int_(owner); }

py::dict piece_dict(const DiagramPiece& piece) {
  py::dict out;
  out["x"] = piece.x;
  out["y"] = piece.y;
  out["size"] = piece.size;
  out["owner"] = owner_object(piece.owner);
  out["kind"] = piece.kind;
  out["label"] = piece.label;
  out["marks"] = piece.marks;
  return out;
}

py::dict area_dict(const DiagramArea& area) {
  py::dict out;
  out["x"] = area.x;
  out["y"] = area.y;
  out["width"] = area.width;
  out["height"] = area.height;
  out["kind"] = area.kind;
  out["owner"] = owner_object(area.owner);
  return out;
}

py::dict diagram_dict(const Diagram& d) {
  py::dict out;
  out["width"] = d.width;
  out["height"] = d.height;
  out["grid"] = d.grid;
  py::list labels, points, areas, lines, pieces;
  for (const DiagramLabel& l : d.labels) labels.append(py::make_tuple(l.x, l.y, l.text));
  for (const DiagramPoint& p : d.points) points.append(py::make_tuple(p.name, p.x, p.y));
  for (const DiagramArea& a : d.areas) areas.append(area_dict(a));
  for (const DiagramLine& l : d.lines) lines.append(py::make_tuple(l.x1, l.y1, l.x2, l.y2));
  for (const DiagramPiece& p : d.pieces) pieces.append(piece_dict(p));
  out["labels"] = labels;
  out["points"] = points;
  out["areas"] = areas;
  out["lines"] = lines;
  out["pieces"] = pieces;
  out["status"] = d.status;
  return out;
}

py::object diagram(const StateHandle& s, const std::optional<IntArg>& viewer) {
  const Player who = viewer ? viewer_arg(*s.game, *viewer, "diagram") : kInvalidPlayer;
  const std::optional<Diagram> d = s.state->diagram(who);
  return d ? py::object(diagram_dict(*d)) : py::object(py::none());
}

}  // namespace

void bind_state_diagram(py::class_<StateHandle>& state) {
  state.def("diagram", &diagram, py::arg("viewer") = py::none(),
            "The board as `viewer` (a seat, or PUBLIC_VIEWER; None: everything, for analysis) may see it, for "
            "drawings: a dict of width and height in board units (x rightwards, y upwards from the bottom-left "
            "corner), grid (ruled in unit squares), labels [(x, y, text)], points [(name, x, y)] where a click "
            "names a place in the notation, areas [{x, y, width, height, kind, owner}] of terrain, lines "
            "[(x1, y1, x2, y2)] of the board, pieces [{x, y, size, owner, kind, label, marks}] centred at (x, y) "
            "(kind 'hidden' where the viewer may not know it), and status, a line of public facts. None for a "
            "game without a board to draw.");
}

}  // namespace boardlab::python
