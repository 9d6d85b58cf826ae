"""Stratego drawn whole (every rank shown, for analysis) or as one seat sees it (enemy pieces as backs unless their rank is known)."""

import html

import boardlab

FILES = "abcdefghik"
KINDS = "123456789XBF"
STEP = 40
MARGIN = 24
COLOURS = ("#c8322b", "#2b5cc8")  # Red, Blue
LAKE = "~~"
HIDDEN = "?"

# Observation planes read here (games/stratego/stratego.h lists them all).
_OWN_KINDS, _ENEMY_KNOWN_KINDS, _ENEMY, _LAKES, _SETUP_PHASE = 0, 14, 26, 29, 66


def _seen_cells(view) -> dict:
    """(rank, file) -> (owner or None, label) for every occupied or lake square, from the viewer's
    observation alone (boardlab.player_view.PlayerView), so nothing hidden can reach the picture."""
    planes = view.observation_tensor()
    seat = view.viewer
    out = {}
    for row in range(10):
        for col in range(10):
            # The observation is in the seat's frame: Blue's is turned by 180 degrees.
            rank, file = (row, col) if seat == 0 else (9 - row, 9 - col)
            if planes[_LAKES, row, col]:
                out[rank, file] = (None, LAKE)
                continue
            for k in range(12):
                if planes[_OWN_KINDS + k, row, col]:
                    out[rank, file] = (seat, KINDS[k])
            if planes[_ENEMY, row, col]:
                known = [KINDS[k] for k in range(12) if planes[_ENEMY_KNOWN_KINDS + k, row, col]]
                out[rank, file] = (1 - seat, known[0] if known else HIDDEN)
    return out


def cells(state: boardlab.State) -> dict:
    """(rank, file) -> (owner, label) for every occupied square and lake of the whole state (owner
    0 Red, 1 Blue, None for a lake; label a kind of KINDS, or LAKE), read from its text (` 8r` a
    Red Miner, `~~` a lake), every rank shown: for analysis, never for a seat's picture."""
    out = {}
    for line in str(state).splitlines()[:10]:
        rank = int(line[:3]) - 1
        for file, token in enumerate(line[3:].split()):
            if token == LAKE:
                out[rank, file] = (None, LAKE)
            elif token != "..":
                out[rank, file] = (0 if token[1] == "r" else 1, token[0])
    return out


def _all_cells(state: boardlab.State) -> tuple[dict, str]:
    """Every square of the whole state, and the text's last line (whose move, or the result)."""
    return cells(state), str(state).splitlines()[-1]


def _view_status(view) -> str:
    """The line under a seat's board, from public facts only."""
    game = view.game()
    mover = game.player_name(view.current_player())
    setting_up = view.observation_tensor()[_SETUP_PHASE, 0, 0] > 0
    return f"{mover} sets up" if setting_up else f"{mover} to move"


def _text(cells: dict, status: str) -> str:
    lines = []
    for rank in range(9, -1, -1):
        row = []
        for file in range(10):
            owner, label = cells.get((rank, file), (None, ".."))
            if owner is not None:
                label = label + ("r" if owner == 0 else "b")
            row.append(label if len(label) == 2 else label + " ")
        lines.append(f"{rank + 1:>2} " + " ".join(row))
    lines.append("   " + " ".join(f + " " for f in FILES))
    lines.append(status)
    return "\n".join(lines)


def _svg(cells: dict, status: str) -> str:
    size = 10 * STEP + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size + 20}" '
        f'viewBox="0 0 {size} {size + 20}" font-family="sans-serif">',
        f'<rect width="{size}" height="{size + 20}" fill="#e8dcb5"/>',
    ]
    for rank in range(10):
        for file in range(10):
            x, y = MARGIN + file * STEP, MARGIN + (9 - rank) * STEP
            owner, label = cells.get((rank, file), (None, ""))
            fill = "#7fb2d9" if label == LAKE else "#cfe0a6"
            parts.append(f'<rect x="{x}" y="{y}" width="{STEP}" height="{STEP}" fill="{fill}" stroke="#666"/>')
            if owner is None:
                continue
            parts.append(f'<rect x="{x + 4}" y="{y + 4}" width="{STEP - 8}" height="{STEP - 8}" rx="4" '
                         f'fill="{COLOURS[owner]}"/>')
            if label != HIDDEN:
                parts.append(f'<text x="{x + STEP / 2}" y="{y + STEP / 2 + 5}" font-size="15" fill="white" '
                             f'text-anchor="middle">{label}</text>')
    for i in range(10):
        parts.append(f'<text x="{MARGIN + i * STEP + STEP / 2}" y="{size - 6}" font-size="12" '
                     f'text-anchor="middle">{FILES[i]}</text>')
        parts.append(f'<text x="10" y="{MARGIN + (9 - i) * STEP + STEP / 2 + 4}" font-size="12" '
                     f'text-anchor="middle">{i + 1}</text>')
    parts.append(f'<text x="{MARGIN}" y="{size + 12}" font-size="13">{html.escape(status)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _squares() -> list[tuple[str, float, float]]:
    """Every square by its name in the notation, with its centre on either picture: the board's
    geometry, public whatever the viewer."""
    return [(f"{FILES[file]}{rank + 1}", MARGIN + (file + 0.5) * STEP, MARGIN + (9.5 - rank) * STEP)
            for rank in range(10) for file in range(10)]


def points(state: boardlab.State) -> list[tuple[str, float, float]]:
    """The whole board's squares (where a click means one)."""
    return _squares()


def view_points(view) -> list[tuple[str, float, float]]:
    """A seat's picture's squares: the same geometry, nothing of the state read."""
    return _squares()


def svg(state: boardlab.State) -> str:
    """The whole board, every rank shown: for analysis and for a game that is over."""
    return _svg(*_all_cells(state))


def view_svg(view) -> str:
    """The board as a seat's PlayerView shows it: hidden enemy pieces drawn as plain backs."""
    return _svg(_seen_cells(view), _view_status(view))


def view_text(view) -> str:
    """The board as a seat's PlayerView shows it, rank 10 on top: own pieces by rank, enemy ones as `?`
    (or their known rank), for the terminal."""
    return _text(_seen_cells(view), _view_status(view))
