"""War as a picture: a notebook sheet, a colour per player, a letter per unit type, dead cells crossed out, cut-off units hollow."""

import boardlab
from boardlab.render.sheet import COLOURS, Sheet

__all__ = ["COLOURS", "DEAD", "svg"]

DEAD = "#5d6d7e"
# The unit letters of the notation (the seed's П, К, Т, С) and the general's G (Г).
UNITS = {"P": "infantry", "K": "knight", "T": "tank", "S": "plane", "G": "general"}


def svg(state: boardlab.State) -> str:
    # Two characters a cell: `..` empty, `xx` dead, else the seat's letter (upper case while commanded)
    # and the unit's. A player that is out has its "out" plane 7k + 6 filled: its units are inert.
    sheet = Sheet(state, out_plane=lambda k: 7 * k + 6)
    parts, cell, out = sheet.parts, sheet.cell, sheet.out
    for symbol, x, y, cx, cy in sheet.squares():
        if symbol == "..":
            continue
        if symbol == "xx":  # a dead cell: a wall for everyone
            parts.append(f'<rect x="{x + 2}" y="{y + 2}" width="{cell - 4}" height="{cell - 4}" fill="{DEAD}" opacity="0.6"/>')
            parts.append(
                f'<path d="M{x + 5} {y + 5}L{x + cell - 5} {y + cell - 5}M{x + cell - 5} {y + 5}L{x + 5} {y + cell - 5}" '
                f'stroke="#fff" stroke-width="2"/>'
            )
            continue
        seat = ord(symbol[0].upper()) - ord("A")
        colour, unit = COLOURS[seat], symbol[1]
        commanded = symbol[0].isupper()
        general = unit == "G"
        radius = cell * (0.44 if general else 0.36)
        # Commanded units are filled; cut-off ones hollow; those of a player that is out dashed too.
        fill = colour if commanded else "none"
        dash = ' stroke-dasharray="3 2"' if out[seat] else ""
        ring = "#111" if general else colour
        shape = (
            f'<rect x="{cx - radius}" y="{cy - radius}" width="{2 * radius}" height="{2 * radius}" rx="3" '
            if general
            else f'<circle cx="{cx}" cy="{cy}" r="{radius}" '
        )
        parts.append(f'{shape}fill="{fill}" stroke="{ring}" stroke-width="2"{dash}><title>{UNITS[unit]}</title></{"rect" if general else "circle"}>')
        parts.append(
            f'<text x="{cx}" y="{cy + cell * 0.17}" font-size="{cell * 0.48:.0f}" fill="{"#fff" if commanded else colour}" '
            f'text-anchor="middle" font-weight="bold">{unit}</text>'
        )
    return sheet.picture()
