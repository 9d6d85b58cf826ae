"""Pictures of states for notebooks: one SVG drawer per game, a text fallback for the others."""

import html

import boardlab
from boardlab.render import klopodavka, morabaraba, squares, stratego, virus_war, war

# Adding a game's picture is one entry here: name -> function(state) -> SVG text.
DRAWERS = {
    "virus_war": virus_war.svg,
    "morabaraba": morabaraba.svg,
    "squares": squares.svg,
    "klopodavka": klopodavka.svg,
    "stratego": stratego.svg,
    "war": war.svg,
}

# What a player of a hidden-information game may see of the board, as text: name -> function(state, seat).
VIEWS = {
    "stratego": stratego.text,
}


def svg(state: boardlab.State) -> str:
    """The state as an SVG picture (the game's own drawing, or its text in a box)."""
    drawer = DRAWERS.get(state.game().name())
    return drawer(state) if drawer else text_svg(str(state))


def text_svg(text: str) -> str:
    lines = text.splitlines() or [""]
    width = 9 * max(len(line) for line in lines) + 16
    height = 18 * len(lines) + 12
    rows = "".join(
        f'<text x="8" y="{18 * (i + 1)}" font-family="monospace" font-size="14" xml:space="preserve">'
        f"{html.escape(line)}</text>"
        for i, line in enumerate(lines)
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">{rows}</svg>'
