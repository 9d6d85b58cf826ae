"""Stratego's drawing: the whole board shows every rank; a seat's, a spectator's and the web app's show only what the viewer may know."""

import random
import xml.etree.ElementTree as ET

import boardlab
from boardlab import render
from boardlab.player_view import PlayerView

KINDS = "123456789XBF"


def _barrage_after_setups(blue_order):
    """Barrage with Red's setup drawn from one seed and Blue's pieces on the same squares in the order
    `blue_order` gives their kinds (a function of the list of Blue's piece actions)."""
    rng = random.Random(5)
    state = boardlab.load_game("stratego(variant=barrage)").new_initial_state()
    while state.current_player() == 0:
        state.apply_action(rng.choice(state.legal_actions()))
    blue = []
    probe = state.clone()
    while probe.current_player() == 1 and probe.move_number() == state.move_number():
        action = rng.choice(probe.legal_actions())
        blue.append(action)
        probe.apply_action(action)
    pieces = blue_order([a for a in blue if a != 12])
    for action in blue:
        state.apply_action(12 if action == 12 else pieces.pop(0))
    return state


def _ranks_shown(picture: str) -> list[str]:
    return [t.text for t in ET.fromstring(picture).iter() if t.tag.endswith("text") and t.get("fill") == "white"]


def test_stratego_whole_board_shows_every_rank_and_a_seats_view_only_what_it_may_know():
    first = _barrage_after_setups(lambda kinds: kinds)
    second = _barrage_after_setups(lambda kinds: kinds[::-1])
    assert str(first) != str(second)  # Blue's ranks differ ...
    for show in (render.view_svg, render.view_text):  # ... which neither Red nor a spectator can see
        for viewer in (0, boardlab.PUBLIC_VIEWER):
            assert show(PlayerView(first, viewer)) == show(PlayerView(second, viewer))
    assert render.svg(first) != render.svg(second)
    # The whole board labels all 16 pieces; Red's view labels its own 8 and draws Blue's 8 as backs.
    assert sorted(_ranks_shown(render.svg(first))) == sorted("FB1X9322" * 2)  # Flag, Bomb, Spy, Marshal, ...
    assert sorted(_ranks_shown(render.view_svg(PlayerView(first, 0)))) == sorted("FB1X9322")
    assert _ranks_shown(render.view_svg(PlayerView(first, boardlab.PUBLIC_VIEWER))) == []
    text = render.view_text(PlayerView(first, 0))
    board = text.splitlines()[:12]
    assert "\n".join(board).count("?b") == 8 and sum("\n".join(board).count(k + "r") for k in KINDS) == 8
    assert "\n".join(board).count("~~") == 8 and board[-1] == "Red to move, move 1"
    assert text.splitlines()[-1].startswith("The game as Red saw it:")


def test_a_seats_diagram_is_the_same_in_every_state_it_cannot_tell_apart():
    rng = random.Random(7)
    state = boardlab.load_game("stratego(variant=barrage)").new_initial_state()
    while state.move_number() < 30 and not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in (0, 1):
        seen = state.diagram(seat)
        assert any(p["kind"] == "hidden" for p in seen["pieces"])
        for seed in range(5):
            assert state.sample_hidden(seat, seed).diagram(seat) == seen
    # Revealed pieces (struck, or a Scout's long move) show their rank to everyone.
    public = state.diagram(boardlab.PUBLIC_VIEWER)
    assert all((p["kind"] != "hidden") == ("known" in p["marks"]) for p in public["pieces"])
