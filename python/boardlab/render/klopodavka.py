"""Klopodavka as a picture: a notebook sheet, a colour per player, main bugs crowned, killed cells in the killer's colour."""

import html

import boardlab

MARGIN = 26
# Players A..F, in seat order.
COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"]


def _board(state: boardlab.State, height: int) -> list[list[str]]:
    # The text form's board, rank `height` on top: each cell one symbol (`.`, a bug `a`-`f`, a main
    # bug `A`-`F`, a cell killed by A-F `1`-`6`), after the rank label. It names the owner of every
    # cell, inert bugs of players that are out included, which no single observation does.
    rows = str(state).splitlines()[:height]
    return [row.split()[1:] for row in rows]


def svg(state: boardlab.State) -> str:
    _, height, width = state.game().observation_shape()
    cell = 28 if max(width, height) <= 20 else 20
    board = _board(state, height)
    # A player that is out has its "out" plane (5k + 4 from seat 0's view) filled: its bugs are inert.
    planes = state.observation_tensor(0)
    players = state.game().num_players()
    out = [bool(planes[5 * k + 4, 0, 0]) for k in range(players)]
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
    for r, row in enumerate(board):
        for f, symbol in enumerate(row):
            x, y = MARGIN + f * cell, MARGIN + r * cell
            cx, cy = x + cell / 2, y + cell / 2
            if symbol in "123456":  # covered with the killer's colour, as on paper
                colour = COLOURS[int(symbol) - 1]
                parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" fill="{colour}" opacity="0.45"/>')
            elif symbol.islower():
                seat = ord(symbol) - ord("a")
                fill = "none" if out[seat] else COLOURS[seat]  # inert bugs: hollow
                parts.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.3}" fill="{fill}" stroke="{COLOURS[seat]}" stroke-width="2"/>'
                )
            elif symbol.isupper():  # the main bug: larger, ringed and marked
                colour = COLOURS[ord(symbol) - ord("A")]
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="{cell * 0.42}" fill="{colour}" stroke="#111" stroke-width="2"/>')
                parts.append(
                    f'<text x="{cx}" y="{cy + cell * 0.17}" font-size="{cell * 0.5:.0f}" fill="#fff" '
                    f'text-anchor="middle" font-weight="bold">{symbol}</text>'
                )
    status = html.escape(str(state).splitlines()[-1])
    parts.append(f'<text x="{MARGIN}" y="{h + 12}" font-size="13">{status}</text>')
    parts.append("</svg>")
    return "".join(parts)
