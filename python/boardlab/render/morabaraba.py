"""Morabaraba as a picture: three squares with spokes and diagonals, white and black cows on the 24 points; where each point lies on it."""

import boardlab

STEP = 52
MARGIN = 30
FILES = "abcdefg"
# Lines of the board, as (file, rank) pairs from 0: the squares, the spokes and the corner diagonals.
LINES = [
    *[((k, k), (6 - k, k)) for k in range(3)],
    *[((6 - k, k), (6 - k, 6 - k)) for k in range(3)],
    *[((6 - k, 6 - k), (k, 6 - k)) for k in range(3)],
    *[((k, 6 - k), (k, k)) for k in range(3)],
    ((3, 6), (3, 4)), ((6, 3), (4, 3)), ((3, 0), (3, 2)), ((0, 3), (2, 3)),
    ((0, 6), (2, 4)), ((6, 6), (4, 4)), ((6, 0), (4, 2)), ((0, 0), (2, 2)),
]


def _xy(file: int, rank: int) -> tuple[float, float]:
    return MARGIN + file * STEP, MARGIN + (6 - rank) * STEP


def _point_names(state: boardlab.State) -> list[str]:
    """The points in the observation's cell order (a row per ring, outer first): placing on point i is
    action i, so the engine names them; a new game, where every action i < 24 is a placement."""
    start = state.game().new_initial_state()
    return [start.action_to_string(i) for i in range(24)]


def _place(name: str) -> tuple[float, float]:
    return _xy(FILES.index(name[0]), int(name[1]) - 1)


def points(state: boardlab.State) -> list[tuple[str, float, float]]:
    """The 24 points by their names in the notation, with their places on the picture."""
    return [(name, *_place(name)) for name in _point_names(state)]


def svg(state: boardlab.State) -> str:
    # Player 0's (White's) view: plane 0 White's cows, plane 1 Black's, a cell per point.
    observation = state.observation_tensor(0)
    planes = observation.reshape(len(observation), -1)
    size = 6 * STEP + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 24}" '
        f'viewBox="0 0 {size} {size + 24}" font-family="sans-serif">',
        f'<rect width="{size}" height="{size + 24}" fill="#f3e3c3"/>',
    ]
    for a, b in LINES:
        (x1, y1), (x2, y2) = _xy(*a), _xy(*b)
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#5a4630" stroke-width="2"/>')
    for i in range(7):
        x, _ = _xy(i, 0)
        parts.append(f'<text x="{x}" y="{size - 6}" font-size="12" text-anchor="middle">{FILES[i]}</text>')
        _, y = _xy(0, i)
        parts.append(f'<text x="10" y="{y + 4}" font-size="12" text-anchor="middle">{i + 1}</text>')
    for cell, name in enumerate(_point_names(state)):
        x, y = _place(name)
        if planes[0, cell]:
            parts.append(f'<circle cx="{x}" cy="{y}" r="15" fill="#fbfbf5" stroke="#222" stroke-width="2"/>')
        elif planes[1, cell]:
            parts.append(f'<circle cx="{x}" cy="{y}" r="15" fill="#222" stroke="#222" stroke-width="2"/>')
        else:
            parts.append(f'<circle cx="{x}" cy="{y}" r="4" fill="#5a4630"/>')
    status = str(state).splitlines()[-1]  # the state's text ends with its status line
    parts.append(f'<text x="{MARGIN}" y="{size + 16}" font-size="13">{status}</text>')
    parts.append("</svg>")
    return "".join(parts)
