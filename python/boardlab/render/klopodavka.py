"""Klopodavka as a picture: a notebook sheet, a colour per player, main bugs crowned, killed cells in the killer's colour."""

import boardlab
from boardlab.render.sheet import COLOURS, Sheet

__all__ = ["COLOURS", "svg"]


def svg(state: boardlab.State) -> str:
    # Cells: `.`, a bug `a`-`f`, a main bug `A`-`F`, a cell killed by A-F `1`-`6`. A player that is
    # out has its "out" plane 5k + 4 filled: its bugs are inert.
    sheet = Sheet(state, out_plane=lambda k: 5 * k + 4)
    parts, cell, out = sheet.parts, sheet.cell, sheet.out
    for symbol, x, y, cx, cy in sheet.squares():
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
    return sheet.picture()
