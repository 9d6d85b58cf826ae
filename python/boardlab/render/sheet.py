"""The notebook sheet Klopodavka and War are drawn on: squared paper with file and rank labels, the text board's cells, the status line."""

import html
from typing import Callable

import boardlab

MARGIN = 26
# Players A..F, in seat order.
COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"]


def board_cells(state: boardlab.State, height: int) -> list[list[str]]:
    """The text form's board, rank `height` on top: each row's cell symbols after the rank label. It names
    the owner of every cell, pieces of players that are out included, which no single observation does."""
    rows = str(state).splitlines()[:height]
    return [row.split()[1:] for row in rows]


def open_sheet(state: boardlab.State, width: int, height: int) -> tuple[list[str], int]:
    """The picture's opening parts (the paper, its squares, the file and rank labels) and the cell size."""
    cell = 28 if max(width, height) <= 20 else 20
    w, h = width * cell + 2 * MARGIN, height * cell + 2 * MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h + 22}" viewBox="0 0 {w} {h + 22}" '
        f'font-family="sans-serif">',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{width * cell}" height="{height * cell}" fill="#fbfcff" stroke="#7fa7cf"/>',
    ]
    for i in range(1, width):
        x = MARGIN + i * cell
        parts.append(f'<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{MARGIN + height * cell}" stroke="#c9dcef"/>')
    for i in range(1, height):
        y = MARGIN + i * cell
        parts.append(f'<line x1="{MARGIN}" y1="{y}" x2="{MARGIN + width * cell}" y2="{y}" stroke="#c9dcef"/>')
    files = str(state).splitlines()[height].split()
    for i, name in enumerate(files):
        x = MARGIN + i * cell + cell / 2
        parts.append(f'<text x="{x}" y="{MARGIN + height * cell + 15}" font-size="11" text-anchor="middle">{name}</text>')
    for r in range(height):
        y = MARGIN + r * cell + cell / 2 + 4
        parts.append(f'<text x="{MARGIN - 11}" y="{y}" font-size="11" text-anchor="middle">{height - r}</text>')
    return parts, cell


def close_sheet(state: boardlab.State, parts: list[str], height: int, cell: int) -> str:
    """The whole picture: `parts`, then the state's status line under the board."""
    line = str(state).splitlines()[-1]
    # A long status line (War's budget, a small board) gets a smaller font rather than being
    # cut off at the picture's edge: a sans-serif character is about 0.6 of its font size wide.
    _, _, width = state.game().observation_shape()
    size = min(13.0, (width * cell + MARGIN) / (0.6 * max(1, len(line))))
    parts.append(f'<text x="{MARGIN}" y="{height * cell + 2 * MARGIN + 12}" font-size="{size:.1f}">'
                 f'{html.escape(line)}</text>')
    parts.append("</svg>")
    return "".join(parts)


class Sheet:
    """A picture being drawn: the state's text cells (`cells`, rows from the top rank), which seats are out
    (`out`: their plane `out_plane(k)` is filled in seat 0's observation), and the parts drawn so far."""

    def __init__(self, state: boardlab.State, out_plane: Callable[[int], int]):
        _, self.height, self.width = state.game().observation_shape()
        self.state = state
        self.cells = board_cells(state, self.height)
        planes = state.observation_tensor(0)
        self.out = [bool(planes[out_plane(k), 0, 0]) for k in range(state.game().num_players())]
        self.parts, self.cell = open_sheet(state, self.width, self.height)

    def squares(self):
        """Each cell's symbol with its square's corner (x, y) and centre (cx, cy)."""
        for r, row in enumerate(self.cells):
            for f, symbol in enumerate(row):
                x, y = MARGIN + f * self.cell, MARGIN + r * self.cell
                yield symbol, x, y, x + self.cell / 2, y + self.cell / 2

    def picture(self) -> str:
        return close_sheet(self.state, self.parts, self.height, self.cell)
