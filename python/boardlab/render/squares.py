"""Squares as a picture: the 20×20 field with its grid points labelled a–v and 1–21, each player's squares in its colour, green zones green; where each grid point lies on it."""

import re

import boardlab

CELL = 22
MARGIN = 28
FILES = "abcdefghiklmnopqrstuv"  # the 21 grid files, no j
COLOURS = ("#c0392b", "#2471a3")  # Red, Blue
GREEN = "#27ae60"
# "Red 24: 4c5 2m7" in the text of a state: a player's score and its squares on the field.
SQUARES_LINE = re.compile(r"^(Red|Blue) (\d+):((?: \d+[a-v]\d+)*)$")
SQUARE = re.compile(r"(\d+)([a-v])(\d+)")


def squares_on_field(state: boardlab.State) -> list[tuple[int, int, int, int]]:
    """(owner, side, x0, y0) of every square on the field, read from the state's text."""
    out = []
    for line in str(state).splitlines():
        match = SQUARES_LINE.match(line)
        if not match:
            continue
        owner = 0 if match.group(1) == "Red" else 1
        for side, file, rank in SQUARE.findall(match.group(3)):
            out.append((owner, int(side), FILES.index(file), int(rank) - 1))
    return out


def _x(point: float) -> float:
    return MARGIN + point * CELL


def _y(point: float) -> float:
    return MARGIN + (20 - point) * CELL


def points(state: boardlab.State) -> list[tuple[str, float, float]]:
    """The 21×21 grid points by their names, with their places on the picture."""
    return [(f"{FILES[x]}{y + 1}", _x(x), _y(y)) for y in range(21) for x in range(21)]


def action_points(text: str) -> list[str]:
    """A square is chosen by two clicks, its lower-left corner and then its upper-right one: `4c5` is c5 and g9."""
    match = SQUARE.fullmatch(text)
    if not match:
        return []  # pass
    side, file, rank = int(match.group(1)), FILES.index(match.group(2)), int(match.group(3))
    return [f"{FILES[file]}{rank}", f"{FILES[file + side]}{rank + side}"]


def svg(state: boardlab.State) -> str:
    # Player 0's (Red's) view is the field as it stands: plane 2 holds the green cells.
    planes = state.observation_tensor(0)
    size = 20 * CELL + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 22}" '
        f'viewBox="0 0 {size} {size + 22}" font-family="sans-serif">',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{20 * CELL}" height="{20 * CELL}" fill="#fdfcf7" stroke="#444"/>',
    ]
    for i in range(1, 20):
        parts.append(f'<line x1="{_x(i)}" y1="{_y(0)}" x2="{_x(i)}" y2="{_y(20)}" stroke="#ddd"/>')
        parts.append(f'<line x1="{_x(0)}" y1="{_y(i)}" x2="{_x(20)}" y2="{_y(i)}" stroke="#ddd"/>')
    # Coordinates name the grid points (the lines' crossings), not the cells.
    for i in range(21):
        parts.append(f'<text x="{_x(i)}" y="{_y(0) + 16}" font-size="10" text-anchor="middle">{FILES[i]}</text>')
        parts.append(f'<text x="{MARGIN - 8}" y="{_y(i) + 3}" font-size="10" text-anchor="end">{i + 1}</text>')
    for owner, side, x0, y0 in squares_on_field(state):
        colour = COLOURS[owner]
        parts.append(
            f'<rect class="square" x="{_x(x0)}" y="{_y(y0 + side)}" width="{side * CELL}" height="{side * CELL}" '
            f'fill="{colour}" fill-opacity="0.35" stroke="{colour}" stroke-width="2"/>'
        )
    for y in range(20):
        for x in range(20):
            if planes[2, y, x]:
                parts.append(
                    f'<rect class="green" x="{_x(x)}" y="{_y(y + 1)}" width="{CELL}" height="{CELL}" '
                    f'fill="{GREEN}" fill-opacity="0.8"/>'
                )
    lines = str(state).splitlines()
    scores = ", ".join(line.split(":")[0] for line in lines if SQUARES_LINE.match(line))
    parts.append(f'<text x="{MARGIN}" y="{size + 12}" font-size="13">{scores}; {lines[-1]}</text>')
    parts.append("</svg>")
    return "".join(parts)
