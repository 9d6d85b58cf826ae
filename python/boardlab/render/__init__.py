"""Pictures of states for notebooks and the web app: one SVG drawer per game, where its points lie, a text fallback for the others."""

import html
import re
import textwrap
from typing import Callable

import boardlab
from boardlab.render import klopodavka, morabaraba, sheet, squares, stratego, virus_war, war

# Adding a game's picture is one entry here: name -> function(state) -> SVG text.
DRAWERS = {
    "virus_war": virus_war.svg,
    "morabaraba": morabaraba.svg,
    "squares": squares.svg,
    "klopodavka": klopodavka.svg,
    "stratego": stratego.svg,
    "war": war.svg,
}

# Where a drawing's points lie, for clicking on it (the web app): name -> function(state) ->
# [(point name in the game's notation, x, y)] in the picture's coordinates.
POINTS: dict[str, Callable[[boardlab.State], list[tuple[str, float, float]]]] = {
    "virus_war": virus_war.points,
    "morabaraba": morabaraba.points,
    "squares": squares.points,
    "klopodavka": sheet.points,
    "stratego": stratego.points,
    "war": sheet.points,
}

# The points an action is chosen by, one click each, for games whose notation does not simply
# name them in order (see action_points).
ACTION_POINTS: dict[str, Callable[[str], list[str]]] = {
    "squares": squares.action_points,
}

# Drawings of what one player knows of a hidden-information game while it goes on: name ->
# function(PlayerView of a seat) -> SVG text. A game without one, and every game's public view
# (which has no observation), is drawn as the viewer's record in text.
VIEW_DRAWERS: dict[str, Callable] = {
    "stratego": stratego.view_svg,
}

# Where the points of a view drawer's picture lie: name -> function(PlayerView) -> points as in
# POINTS. A game without one has its hidden-information moves chosen from the list only.
VIEW_POINTS: dict[str, Callable] = {
    "stratego": stratego.view_points,
}

# The same as text, for the terminal (`boardlab play`): name -> function(PlayerView) -> text.
VIEW_TEXTS: dict[str, Callable] = {
    "stratego": stratego.view_text,
}

# A point's name inside an action's text: `e5` in `e5`, `Pe5`, `d1-d2` and `xd5` (where a prefix
# of the letters may be notation rather than the file: see action_points).
_POINT_NAME = re.compile(r"([a-z]+)(\d+)")


def svg(state: boardlab.State) -> str:
    """The state as an SVG picture (the game's own drawing, or its text in a box)."""
    drawer = DRAWERS.get(state.game().name())
    return drawer(state) if drawer else text_svg(str(state))


def view_svg(view) -> str:
    """The picture of what a boardlab.player_view.PlayerView shows: the state's own drawing where nothing is
    hidden from the viewer, else the game's view drawer, or the game as the viewer saw it, in text."""
    if not view.hides:
        return svg(view.full_state())
    game = view.game()
    drawer = VIEW_DRAWERS.get(game.name())
    if drawer and view.viewer != boardlab.PUBLIC_VIEWER:  # a seat's drawing reads its observation
        return drawer(view)
    who = "everyone" if view.viewer == boardlab.PUBLIC_VIEWER else game.player_name(view.viewer)
    lines = [f"The game as {who} saw it:", *textwrap.wrap(view.record() or "(nothing yet)", 60)]
    return text_svg("\n".join(lines))


def view_text(view) -> str:
    """What a boardlab.player_view.PlayerView shows, as text: the state where nothing is hidden from the
    viewer, else the game's view text (for a seat of a game that has one) and the game as the viewer saw it."""
    if not view.hides:
        return str(view.full_state())
    game = view.game()
    drawer = VIEW_TEXTS.get(game.name())
    board = drawer(view) + "\n" if drawer and view.viewer != boardlab.PUBLIC_VIEWER else ""
    who = "everyone" if view.viewer == boardlab.PUBLIC_VIEWER else game.player_name(view.viewer)
    return f"{board}The game as {who} saw it: {view.record() or '(nothing yet)'}"


def points(state: boardlab.State) -> list[tuple[str, float, float]]:
    """The named points of the state's picture with their coordinates; none for a game drawn as text."""
    pointer = POINTS.get(state.game().name())
    return pointer(state) if pointer else []


def view_points(view) -> list[tuple[str, float, float]]:
    """The named points of view_svg(view)'s picture: the state's own where nothing is hidden from the
    viewer, else the game's view points (none without them)."""
    if not view.hides:
        return points(view.full_state())
    pointer = VIEW_POINTS.get(view.game().name())
    return pointer(view) if pointer and view.viewer != boardlab.PUBLIC_VIEWER else []


def action_points(game: boardlab.Game, text: str, names: set[str]) -> list[str]:
    """The points, in click order, that choose the action written `text` (`d1-d2` is d1 then d2; `pass`
    none, so it is chosen otherwise); `names`: the picture's point names (points())."""
    if game.name() in ACTION_POINTS:
        return ACTION_POINTS[game.name()](text)
    found = []
    for letters, digits in _POINT_NAME.findall(text):
        # The longest name that ends the word: `xd5` (a shot) is d5, a sheet's `ab12` stays ab12.
        name = next((letters[i:] + digits for i in range(len(letters)) if letters[i:] + digits in names), None)
        if name is not None:
            found.append(name)
    return found


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
