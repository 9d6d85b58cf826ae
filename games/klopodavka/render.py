"""Klopodavka's drawing (boardlab.render.diagram draws the sheet): a colour per seat, main bugs large and lettered, killed cells in the killer's colour, a knocked-out seat's bugs hollow."""

from boardlab.render.diagram import seat_colour

RULE = "#c9dcef"
BOARD = "#fbfcff"
EDGE = "#7fa7cf"


def area(a: dict, x: float, y: float, w: float, h: float) -> str:
    # A killed cell is covered with the killer's colour, as on paper.
    return f'<rect x="{x + 2:g}" y="{y + 2:g}" width="{w - 4:g}" height="{h - 4:g}" fill="{seat_colour(a["owner"])}" opacity="0.45"/>'


def piece(p: dict, cx: float, cy: float, unit: float) -> str:
    colour = seat_colour(p["owner"])
    if p["kind"] == "main_bug":
        return (f'<circle cx="{cx:g}" cy="{cy:g}" r="{unit * 0.42:g}" fill="{colour}" stroke="#111" stroke-width="2"/>'
                f'<text x="{cx:g}" y="{cy + unit * 0.17:g}" font-size="{unit * 0.5:.0f}" fill="#fff" '
                f'text-anchor="middle" font-weight="bold">{p["label"]}</text>')
    fill = "none" if "inert" in p["marks"] else colour
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="{unit * 0.3:g}" fill="{fill}" stroke="{colour}" stroke-width="2"/>'
