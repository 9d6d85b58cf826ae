"""Pictures of states for notebooks, the terminal and the web app: each game's diagram drawn by the game's own drawing (games/NAME/render.py), where its points lie, a text fallback for games without one."""

import functools
import html
import importlib.util
import pathlib
import re
import textwrap
from types import ModuleType
from typing import Callable

import boardlab
from boardlab.render import diagram as diagrams

# A point's name inside an action's text: `e5` in `e5`, `Pe5`, `d1-d2` and `xd5` (where a prefix
# of the letters may be notation rather than the file: see action_points).
_POINT_NAME = re.compile(r"([a-z]+)(\d+)")


@functools.cache
def drawing(game_name: str) -> ModuleType | None:
    """The game's drawing, games/NAME/render.py of the source tree (found by the game's name), or None
    for a game without one. It draws a diagram's pieces and terrain (see boardlab.render.diagram)."""
    path = pathlib.Path(boardlab.games_source_dir()) / game_name / "render.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"boardlab_drawing_{game_name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _picture(game: boardlab.Game, board: dict | None, text: Callable[[], str]) -> tuple[str, list]:
    """A diagram drawn by the game's drawing, with its named points; without either, `text()` in a box and
    no points."""
    drawer = drawing(game.name()) if board is not None else None
    if drawer:
        return diagrams.draw(board, drawer), diagrams.points(board, drawer)
    return text_svg(text()), []


def svg(state: boardlab.State) -> str:
    """The whole state as an SVG picture (the game's own drawing, or its text in a box)."""
    return _picture(state.game(), state.diagram(), lambda: str(state))[0]


def points(state: boardlab.State) -> list[tuple[str, float, float]]:
    """The named points of svg(state)'s picture with their coordinates; none for a game drawn as text."""
    return _picture(state.game(), state.diagram(), lambda: "")[1]


def view_picture(view) -> tuple[str, list[tuple[str, float, float]]]:
    """What a boardlab.player_view.PlayerView shows, from one diagram: the SVG picture (the game's drawing
    of the viewer's diagram, the whole state's where nothing is hidden from it; else the state's text,
    or the game as the viewer saw it) and its named points (none for a picture of text)."""
    def text() -> str:
        if not view.hides:
            return str(view.full_state())
        return "\n".join([f"The game as {_who(view)} saw it:", *textwrap.wrap(view.record() or "(nothing yet)", 60)])

    return _picture(view.game(), view.diagram(), text)


def view_svg(view) -> str:
    return view_picture(view)[0]


def view_points(view) -> list[tuple[str, float, float]]:
    return view_picture(view)[1]


def _who(view) -> str:
    return "everyone" if view.viewer == boardlab.PUBLIC_VIEWER else view.game().player_name(view.viewer)


def view_text(view) -> str:
    """What a boardlab.player_view.PlayerView shows, as text: the state where nothing is hidden from the
    viewer, else the game's text of the viewer's diagram (where its drawing has one) and the game as the
    viewer saw it."""
    if not view.hides:
        return str(view.full_state())
    board = view.diagram()
    drawer = drawing(view.game().name()) if board is not None else None
    shown = drawer.text(board) + "\n" if drawer and hasattr(drawer, "text") else ""
    return f"{shown}The game as {_who(view)} saw it: {view.record() or '(nothing yet)'}"


def action_points(game: boardlab.Game, text: str, names: set[str]) -> list[str]:
    """The points, in click order, that choose the action written `text` (`d1-d2` is d1 then d2; `pass`
    none, so it is chosen otherwise); `names`: the picture's point names (points()). A game whose notation
    does not simply name them in order says how in its drawing's action_points(text)."""
    drawer = drawing(game.name())
    if drawer and hasattr(drawer, "action_points"):
        return drawer.action_points(text)
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
