"""Morabaraba's drawing (boardlab.render.diagram draws the lines): white and black cows on the 24 points, a dot on each empty one."""

UNIT = 52
MARGIN = 44
LABEL_GAP = 22  # beyond the cows on the edge
BACKGROUND = "#f3e3c3"
LINE = "#5a4630"
FILL = ("#fbfbf5", "#222")  # White's cows, Black's


def point(name: str, x: float, y: float) -> str:
    return f'<circle cx="{x:g}" cy="{y:g}" r="4" fill="{LINE}"/>'


def piece(p: dict, cx: float, cy: float, unit: float) -> str:
    return f'<circle cx="{cx:g}" cy="{cy:g}" r="15" fill="{FILL[p["owner"]]}" stroke="#222" stroke-width="2"/>'
