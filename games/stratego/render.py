"""Stratego's drawing (boardlab.render.diagram draws the board): pieces by rank where the viewer knows it, backs where it does not, lakes; and the same as text for the terminal."""

from boardlab.render.diagram import seat_colour

UNIT = 40
BACKGROUND = "#e8dcb5"
BOARD = "#cfe0a6"
RULE = "#666"
LAKE = "#7fb2d9"
FILES = "abcdefghik"


def area(a: dict, x: float, y: float, w: float, h: float) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{LAKE}" stroke="{RULE}"/>'


def piece(p: dict, cx: float, cy: float, unit: float) -> str:
    half = unit / 2 - 4
    back = (f'<rect x="{cx - half:g}" y="{cy - half:g}" width="{2 * half:g}" height="{2 * half:g}" rx="4" '
            f'fill="{seat_colour(p["owner"])}"/>')
    if not p["label"]:  # a piece whose rank the viewer does not know: its back
        return back
    return back + (f'<text x="{cx:g}" y="{cy + 5:g}" font-size="15" fill="white" text-anchor="middle">'
                   f'{p["label"]}</text>')


def text(diagram: dict) -> str:
    """The board as text, rank 10 on top: `8r` a Red Miner, `?b` a Blue piece of unknown rank, `~~` a lake."""
    cells = {}
    for a in diagram["areas"]:
        cells[int(a["x"]), int(a["y"])] = "~~"
    for p in diagram["pieces"]:
        cells[int(p["x"]), int(p["y"])] = (p["label"] or "?") + "rb"[p["owner"]]
    rows = [f"{rank + 1:>2} " + " ".join(cells.get((file, rank), "..") for file in range(10)) for rank in range(9, -1, -1)]
    return "\n".join([*rows, "   " + " ".join(f + " " for f in FILES), diagram["status"]])
