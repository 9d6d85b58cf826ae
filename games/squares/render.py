"""Squares' drawing (boardlab.render.diagram draws the field and labels its grid points a–v and 1–21): each seat's squares in its colour, green zones green; a square is clicked by two corners."""

import re

from boardlab.render.diagram import seat_colour

UNIT = 22
RULE = "#ddd"
GREEN = "#27ae60"
FILES = "abcdefghiklmnopqrstuv"  # the 21 grid files, no j
SQUARE = re.compile(r"(\d+)([a-v])(\d+)")


def area(a: dict, x: float, y: float, w: float, h: float) -> str:
    return f'<rect class="green" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{GREEN}" fill-opacity="0.8"/>'


def piece(p: dict, cx: float, cy: float, unit: float) -> str:
    colour, side = seat_colour(p["owner"]), p["size"] * unit
    return (f'<rect class="square" x="{cx - side / 2:g}" y="{cy - side / 2:g}" width="{side:g}" height="{side:g}" '
            f'fill="{colour}" fill-opacity="0.35" stroke="{colour}" stroke-width="2"/>')


def action_points(text: str) -> list[str]:
    """A square is chosen by two clicks, its lower-left corner and then its upper-right one: `4c5` is c5 and g9."""
    match = SQUARE.fullmatch(text)
    if not match:
        return []  # pass
    side, file, rank = int(match.group(1)), FILES.index(match.group(2)), int(match.group(3))
    return [f"{FILES[file]}{rank}", f"{FILES[file + side]}{rank + side}"]
