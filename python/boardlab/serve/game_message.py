"""What a page is sent of a game: the drawing, moves and record from the view of the seat it clicks for, never more."""

import boardlab
from boardlab.labels import player_labels
from boardlab.serve import board
from boardlab.serve.session import GameSession


def game_message(session: GameSession, seats: list[int], owner: bool = False) -> dict:
    """The game as the page that clicks for `seats` (a spectator's page: none) may see it: the drawing
    from its seat's view, its seat's moves while that seat is to choose, the turn so far, the record as
    it saw it, whose turn it is and the result. Nothing else of the session: not its seed, which with the
    page's own moves would rebuild every hidden piece, nor other seats' keys, which only the page that
    started the game (`owner`) is given, to hand out as links."""
    labels = player_labels(session.game)
    hidden = not session.game.type().perfect_information
    to_act = session.to_act()
    acting = next((s for s in to_act if s in seats), None)
    if hidden:
        viewer = seats[0] if seats else boardlab.PUBLIC_VIEWER
    else:
        viewer = acting if acting is not None else (seats[0] if seats else boardlab.PUBLIC_VIEWER)
    view = session.view(viewer)
    # Moves only for a seat this page clicks for, and only while that seat is to choose.
    position = board.position(view) if acting is not None else {**board.picture(view), "moves": []}
    if session.state.is_terminal() or session.over():
        status = session.result()
    elif hidden:
        status = f"{', '.join(labels[s] for s in to_act)} to move"
    else:
        status = str(session.state).splitlines()[-1]
    return {
        "type": "game",
        "id": session.id,
        "version": session.version,
        "game": str(session.game),
        "name": session.game.name(),
        "players": ",".join(session.specs),
        "specs": session.specs,
        "labels": labels,
        "seats": seats,
        # The keys of this page's own seats, for its links and for taking them again after a restart.
        "keys": [session.keys[s] for s in seats],
        "links": [{"seat": s, "key": session.keys[s]} for s in session.humans() if s not in seats] if owner else [],
        "humans": session.humans(),
        "viewer": viewer,
        "acting": acting,
        "to_act": to_act,
        "chosen": sorted(session.pending),
        "status": status,
        "turn": session.turn_so_far(viewer),
        "record": view.record(),
        "over": session.over(),
        "result": session.result(),
        "hidden": hidden,
        "simultaneous": session.game.type().simultaneous,
        **position,
    }


def page_seats(session: GameSession) -> list[int]:
    """The human seats the page that starts a game clicks for: all of them, but at a hidden-information game
    only the first (each other human opens the game's link for its seat, so that no screen shows two hands)."""
    humans = session.humans()
    if not session.game.type().perfect_information:
        return humans[:1]
    return humans
