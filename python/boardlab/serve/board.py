"""A position as the browser shows it: the shared SVG drawing, its clickable points, and the viewer's moves with the clicks that choose them."""

from boardlab import render
from boardlab.player_view import PlayerView


def picture(view: PlayerView) -> dict:
    """The drawing of what `view` shows and its named points ({name, x, y}, empty for a text drawing or a
    hidden-information view without view points, whose moves are then chosen from the list)."""
    svg, points = render.view_picture(view)
    return {"svg": svg,
            "points": [{"name": n, "x": round(x, 1), "y": round(y, 1)} for n, x, y in points]}


def moves(view: PlayerView, point_names: set[str]) -> list[dict]:
    """The viewer's legal moves: {action, text, points}, `points` the clicks on the drawing that choose it
    (none for a move chosen from the list only, as `pass`)."""
    game = view.game()
    out = []
    for action in view.legal_actions():
        text = view.action_to_string(action)
        clicks = render.action_points(game, text, point_names) if point_names else []
        out.append({"action": action, "text": text, "points": clicks})
    return out


def position(view: PlayerView) -> dict:
    """The drawing, its points and the viewer's moves in one message."""
    shown = picture(view)
    shown["moves"] = moves(view, {p["name"] for p in shown["points"]})
    return shown
