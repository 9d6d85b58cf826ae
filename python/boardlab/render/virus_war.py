"""Virus War as a picture: the 10×10 grid, crosses and noughts; killed crosses circled, killed noughts filled; where each cell lies on it."""

import boardlab

CELL = 32
MARGIN = 24
FILES = "abcdefghik"


def _centre(file: int, rank: int) -> tuple[float, float]:
    return MARGIN + file * CELL + CELL / 2, MARGIN + (9 - rank) * CELL + CELL / 2


def points(state: boardlab.State) -> list[tuple[str, float, float]]:
    """Every cell by its name in the notation, with its centre on the picture (where a click means it)."""
    return [(f"{FILES[file]}{rank + 1}", *_centre(file, rank)) for rank in range(10) for file in range(10)]


def svg(state: boardlab.State) -> str:
    # Player 0's view is the board as it stands: planes 0-3 are live X, live O, dead X, dead O.
    planes = state.observation_tensor(0)
    size = 10 * CELL + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 22}" '
        f'viewBox="0 0 {size} {size + 22}" font-family="sans-serif">',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{10 * CELL}" height="{10 * CELL}" fill="#fdfcf7" stroke="#444"/>',
    ]
    for i in range(1, 10):
        parts.append(f'<line x1="{MARGIN + i * CELL}" y1="{MARGIN}" x2="{MARGIN + i * CELL}" y2="{MARGIN + 10 * CELL}" stroke="#bbb"/>')
        parts.append(f'<line x1="{MARGIN}" y1="{MARGIN + i * CELL}" x2="{MARGIN + 10 * CELL}" y2="{MARGIN + i * CELL}" stroke="#bbb"/>')
    for i in range(10):
        x = MARGIN + i * CELL + CELL / 2
        parts.append(f'<text x="{x}" y="{MARGIN + 10 * CELL + 16}" font-size="12" text-anchor="middle">{FILES[i]}</text>')
        y = MARGIN + (9 - i) * CELL + CELL / 2 + 4
        parts.append(f'<text x="{MARGIN - 10}" y="{y}" font-size="12" text-anchor="middle">{i + 1}</text>')
    for rank in range(10):
        for file in range(10):
            cx, cy = _centre(file, rank)
            r = CELL * 0.3
            if planes[0, rank, file] or planes[2, rank, file]:
                parts.append(
                    f'<path d="M{cx - r},{cy - r}L{cx + r},{cy + r}M{cx + r},{cy - r}L{cx - r},{cy + r}" '
                    f'stroke="#c0392b" stroke-width="3"/>'
                )
                if planes[2, rank, file]:  # killed X: circled
                    parts.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.45}" fill="none" stroke="#222" stroke-width="2"/>')
            elif planes[1, rank, file]:
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="#2471a3" stroke-width="3"/>')
            elif planes[3, rank, file]:  # killed O: filled in
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="#2471a3" stroke="#2471a3" stroke-width="3"/>')
    status = str(state).splitlines()[-1]
    parts.append(f'<text x="{MARGIN}" y="{size + 14}" font-size="13">{status}</text>')
    parts.append("</svg>")
    return "".join(parts)
