"""War's drawing (boardlab.render.diagram draws the sheet): a colour per seat, a letter per unit, generals square, dead cells crossed out, cut-off units hollow and a knocked-out seat's dashed."""

from boardlab.render.diagram import NEUTRAL, seat_colour

RULE = "#c9dcef"
BOARD = "#fbfcff"
EDGE = "#7fa7cf"
DEAD = NEUTRAL


def area(a: dict, x: float, y: float, w: float, h: float) -> str:
    # A dead cell: a wall for everyone.
    return (f'<rect x="{x + 2:g}" y="{y + 2:g}" width="{w - 4:g}" height="{h - 4:g}" fill="{DEAD}" opacity="0.6"/>'
            f'<path d="M{x + 5:g} {y + 5:g}L{x + w - 5:g} {y + h - 5:g}M{x + w - 5:g} {y + 5:g}L{x + 5:g} {y + h - 5:g}" '
            f'stroke="#fff" stroke-width="2"/>')


def piece(p: dict, cx: float, cy: float, unit: float) -> str:
    colour = seat_colour(p["owner"])
    commanded = "commanded" in p["marks"]
    general = p["kind"] == "general"
    radius = unit * (0.44 if general else 0.36)
    # Commanded units are filled; cut-off ones hollow; those of a seat that is out dashed too.
    style = (f'fill="{colour if commanded else "none"}" stroke="{"#111" if general else colour}" stroke-width="2"'
             + (' stroke-dasharray="3 2"' if "inert" in p["marks"] else ""))
    tag = "rect" if general else "circle"
    shape = (f'<rect x="{cx - radius:g}" y="{cy - radius:g}" width="{2 * radius:g}" height="{2 * radius:g}" rx="3" '
             if general else f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" ')
    return (f'{shape}{style}><title>{p["kind"]}</title></{tag}>'
            f'<text x="{cx:g}" y="{cy + unit * 0.17:g}" font-size="{unit * 0.48:.0f}" '
            f'fill="{"#fff" if commanded else colour}" text-anchor="middle" font-weight="bold">{p["label"]}</text>')
