"""Stratego as a player sees it: own pieces with their ranks, enemy pieces as backs unless their rank is known."""

import boardlab

FILES = "abcdefghik"
KINDS = "123456789XBF"
STEP = 40
MARGIN = 24
COLOURS = ("#c8322b", "#2b5cc8")  # Red, Blue


def _cells(state: boardlab.State, seat: int):
    """(rank, file) -> (owner, text) for every occupied or lake square, from the seat's observation."""
    planes = state.observation_tensor(seat)
    out = {}
    for row in range(10):
        for col in range(10):
            # The observation is in the seat's frame: Blue's is turned by 180 degrees.
            rank, file = (row, col) if seat == 0 else (9 - row, 9 - col)
            if planes[29, row, col]:
                out[rank, file] = (None, "~~")
                continue
            for k in range(12):
                if planes[k, row, col]:
                    out[rank, file] = (seat, KINDS[k])
            if planes[26, row, col]:
                known = [KINDS[k] for k in range(12) if planes[14 + k, row, col]]
                out[rank, file] = (1 - seat, known[0] if known else "?")
    return out


def text(state: boardlab.State, seat: int) -> str:
    """The board as `seat` sees it, rank 10 on top: own pieces by rank, enemy ones as `?` (or their known rank)."""
    cells = _cells(state, seat)
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
    lines.append(str(state).splitlines()[-1])
    return "\n".join(lines)


def svg(state: boardlab.State, seat: int = 0) -> str:
    """The board as `seat` sees it (Red's view by default), hidden enemy pieces drawn as plain backs."""
    cells = _cells(state, seat)
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
            fill = "#7fb2d9" if label == "~~" else "#cfe0a6"
            parts.append(f'<rect x="{x}" y="{y}" width="{STEP}" height="{STEP}" fill="{fill}" stroke="#666"/>')
            if owner is None:
                continue
            parts.append(f'<rect x="{x + 4}" y="{y + 4}" width="{STEP - 8}" height="{STEP - 8}" rx="4" '
                         f'fill="{COLOURS[owner]}"/>')
            if label != "?":
                parts.append(f'<text x="{x + STEP / 2}" y="{y + STEP / 2 + 5}" font-size="15" fill="white" '
                             f'text-anchor="middle">{label}</text>')
    for i in range(10):
        parts.append(f'<text x="{MARGIN + i * STEP + STEP / 2}" y="{size - 6}" font-size="12" '
                     f'text-anchor="middle">{FILES[i]}</text>')
        parts.append(f'<text x="10" y="{MARGIN + (9 - i) * STEP + STEP / 2 + 4}" font-size="12" '
                     f'text-anchor="middle">{i + 1}</text>')
    status = str(state).splitlines()[-1]
    parts.append(f'<text x="{MARGIN}" y="{size + 12}" font-size="13">{status}</text>')
    parts.append("</svg>")
    return "".join(parts)
