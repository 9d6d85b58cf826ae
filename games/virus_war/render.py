"""Virus War's drawing (boardlab.render.diagram draws the board): crosses and noughts; a killed cross circled, a killed nought filled in."""

from boardlab.render.diagram import seat_colour

UNIT = 32


def piece(p: dict, cx: float, cy: float, unit: float) -> str:
    r = unit * 0.3
    colour = seat_colour(p["owner"])
    killed = "killed" in p["marks"]
    if p["kind"] == "cross":
        cross = (f'<path d="M{cx - r:g},{cy - r:g}L{cx + r:g},{cy + r:g}M{cx + r:g},{cy - r:g}L{cx - r:g},{cy + r:g}" '
                 f'stroke="{colour}" stroke-width="3"/>')
        ring = f'<circle cx="{cx:g}" cy="{cy:g}" r="{unit * 0.45:g}" fill="none" stroke="#222" stroke-width="2"/>'
        return cross + (ring if killed else "")
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{colour if killed else "none"}" stroke="{colour}" stroke-width="3"/>'
