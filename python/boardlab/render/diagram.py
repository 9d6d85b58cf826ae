"""A state's diagram (State.diagram()) as an SVG picture: the board, its rules, lines, labels and status, with the pieces and terrain that the game's own drawing (games/NAME/render.py) draws."""

import html
from types import ModuleType

MARGIN = 28
STATUS_HEIGHT = 22
# The seats' colours, in seat order (Red, Blue, Green, Ochre, Purple, Teal): every drawing's.
SEAT_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"]
NEUTRAL = "#5d6d7e"


def seat_colour(owner: int | None) -> str:
    return NEUTRAL if owner is None else SEAT_COLOURS[owner % len(SEAT_COLOURS)]


def unit_of(diagram: dict, drawing: ModuleType) -> float:
    """Pixels per board unit: the drawing's UNIT, else one that keeps a large board on the screen."""
    if hasattr(drawing, "UNIT"):
        return drawing.UNIT
    side = max(diagram["width"], diagram["height"])
    return 32 if side <= 10 else 28 if side <= 20 else 20


class Frame:
    """Board units to the picture's pixels: y grows upwards on the board and downwards in SVG. A drawing
    may widen the MARGIN around the board and the LABEL_GAP between its edge and the labels (a board of
    points has pieces on its edge)."""

    def __init__(self, diagram: dict, drawing: ModuleType):
        self.unit = unit_of(diagram, drawing)
        self.margin = getattr(drawing, "MARGIN", MARGIN)
        self.label_gap = getattr(drawing, "LABEL_GAP", 8)
        self.height = diagram["height"]
        self.width_px = diagram["width"] * self.unit + 2 * self.margin
        self.height_px = diagram["height"] * self.unit + 2 * self.margin

    def x(self, x: float) -> float:
        return self.margin + x * self.unit

    def y(self, y: float) -> float:
        return self.margin + (self.height - y) * self.unit


def points(diagram: dict, drawing: ModuleType) -> list[tuple[str, float, float]]:
    """The diagram's named points at their places on draw()'s picture (where a click names them)."""
    frame = Frame(diagram, drawing)
    return [(name, frame.x(x), frame.y(y)) for name, x, y in diagram["points"]]


def draw(diagram: dict, drawing: ModuleType) -> str:
    """The whole picture: the board, then the terrain, lines, labels, pieces and the status line."""
    frame = Frame(diagram, drawing)
    w, h = frame.width_px, frame.height_px + STATUS_HEIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" viewBox="0 0 {w:g} {h:g}" '
        f'font-family="sans-serif">',
        *_board(diagram, drawing, frame),
    ]
    for area in diagram["areas"]:
        top, left = frame.y(area["y"] + area["height"]), frame.x(area["x"])
        parts.append(drawing.area(area, left, top, area["width"] * frame.unit, area["height"] * frame.unit))
    line_colour = getattr(drawing, "LINE", "#5a4630")
    for x1, y1, x2, y2 in diagram["lines"]:
        parts.append(f'<line x1="{frame.x(x1):g}" y1="{frame.y(y1):g}" x2="{frame.x(x2):g}" y2="{frame.y(y2):g}" '
                     f'stroke="{line_colour}" stroke-width="2"/>')
    parts.extend(_labels(diagram, frame))
    if hasattr(drawing, "point"):  # a board of points (Morabaraba's) marks each one under the pieces
        parts.extend(drawing.point(name, frame.x(x), frame.y(y)) for name, x, y in diagram["points"])
    for piece in diagram["pieces"]:
        parts.append(drawing.piece(piece, frame.x(piece["x"]), frame.y(piece["y"]), frame.unit))
    parts.append(_status(diagram["status"], frame))
    parts.append("</svg>")
    return "".join(parts)


def _board(diagram: dict, drawing: ModuleType, frame: Frame) -> list[str]:
    """The picture's background and, for a ruled board, its squares."""
    parts = []
    if hasattr(drawing, "BACKGROUND"):
        parts.append(f'<rect width="{frame.width_px:g}" height="{frame.height_px + STATUS_HEIGHT:g}" '
                     f'fill="{drawing.BACKGROUND}"/>')
    if not diagram["grid"]:
        return parts
    width, height = diagram["width"], diagram["height"]
    rule = getattr(drawing, "RULE", "#bbb")
    parts.append(f'<rect x="{frame.margin}" y="{frame.margin}" width="{width * frame.unit:g}" height="{height * frame.unit:g}" '
                 f'fill="{getattr(drawing, "BOARD", "#fdfcf7")}" stroke="{getattr(drawing, "EDGE", "#444")}"/>')
    for i in range(1, int(width)):
        parts.append(f'<line x1="{frame.x(i):g}" y1="{frame.y(0):g}" x2="{frame.x(i):g}" y2="{frame.y(height):g}" '
                     f'stroke="{rule}"/>')
    for i in range(1, int(height)):
        parts.append(f'<line x1="{frame.x(0):g}" y1="{frame.y(i):g}" x2="{frame.x(width):g}" y2="{frame.y(i):g}" '
                     f'stroke="{rule}"/>')
    return parts


def _labels(diagram: dict, frame: Frame) -> list[str]:
    """File labels under the board, rank labels left of it (a label's place is below or left of 0)."""
    parts = []
    for x, y, text in diagram["labels"]:
        below = y < 0
        px = frame.x(x) if below else frame.margin - frame.label_gap
        py = frame.y(0) + frame.label_gap + 8 if below else frame.y(y) + 4
        anchor = "middle" if below else "end"
        parts.append(f'<text x="{px:g}" y="{py:g}" font-size="11" text-anchor="{anchor}">{html.escape(text)}</text>')
    return parts


def _status(line: str, frame: Frame) -> str:
    # A long status line (War's budget on a small board) gets a smaller font rather than being cut off at
    # the picture's edge: a sans-serif character is about 0.6 of its font size wide.
    size = min(13.0, (frame.width_px - frame.margin) / (0.6 * max(1, len(line))))
    return (f'<text x="{frame.margin}" y="{frame.height_px + 10:g}" font-size="{size:.1f}">'
            f"{html.escape(line)}</text>")
