"""Pictures of states: each game's drawing found by name and fed its diagram, views that hide what a viewer may not know, the text fallback for games without a drawing."""

import html
import itertools
import pathlib
import xml.etree.ElementTree as ET

import pytest

import boardlab
from boardlab import render
from boardlab.player_view import PlayerView
from conftest import REPO
from helpers import REGISTERED_GAMES, random_states

# Every registered game at a few points of a random game (every 25th of the first 300 states of two games).
SAMPLED = [(text, seed) for text in REGISTERED_GAMES for seed in (1, 2)]


def _sampled_states(text: str, seed: int):
    return itertools.islice(random_states(boardlab.load_game(text), seed), 0, 300, 25)


def test_a_game_has_a_diagram_exactly_when_its_folder_has_a_drawing():
    for name in boardlab.registered_games():
        has_diagram = boardlab.load_game(name).new_initial_state().diagram() is not None
        assert (render.drawing(name) is not None) == has_diagram, name
        assert (pathlib.Path(boardlab.games_source_dir()) / name / "render.py").is_file() == has_diagram, name
    assert pathlib.Path(boardlab.games_source_dir()) == REPO / "games"
    assert render.drawing("no_such_game") is None


@pytest.mark.parametrize("text,seed", SAMPLED)
def test_every_drawing_is_well_formed_and_names_its_points(text, seed):
    for state in _sampled_states(text, seed):
        board = state.diagram()
        if board is None:
            return
        ET.fromstring(render.svg(state))
        names = [name for name, _, _ in board["points"]]
        assert len(names) == len(set(names)), text  # a click names one place
        width, height = board["width"], board["height"]
        for piece in board["pieces"]:
            assert 0 <= piece["x"] <= width and 0 <= piece["y"] <= height, (text, piece)
            assert piece["owner"] is None or 0 <= piece["owner"] < state.game().num_players(), (text, piece)
        assert board["status"] == str(state).splitlines()[-1] or board["status"].endswith(str(state).splitlines()[-1])


@pytest.mark.parametrize("text,seed", SAMPLED)
def test_a_viewers_diagram_is_the_same_in_every_state_it_cannot_tell_apart(text, seed):
    # What a seat (or a spectator) is shown comes from what it may know: never from the hidden part.
    for state in _sampled_states(text, seed):
        if state.diagram() is None or state.is_terminal() or state.is_chance_node():
            continue
        for seat in range(state.game().num_players()):
            for viewer in (seat, boardlab.PUBLIC_VIEWER):
                seen = state.diagram(viewer)
                for draw in range(3):
                    assert state.sample_hidden(seat, draw).diagram(viewer) == seen, (text, viewer)


def test_a_diagrams_viewer_is_checked():
    state = boardlab.load_game("stratego").new_initial_state()
    with pytest.raises(ValueError, match="diagram"):
        state.diagram(2)


def test_text_fallback_is_a_valid_svg():
    picture = render.text_svg("line <1>\nline & 2")
    ET.fromstring(picture)
    assert "&lt;1&gt;" in picture and "&amp;" in picture


def test_load_record_helper():
    state = boardlab.load_record("virus_war", "a1-b2-c3")
    assert state.current_player() == 1
    assert boardlab.load_record(boardlab.load_game("virus_war"), state.record()).history() == state.history()


def test_games_without_a_drawing_draw_as_text_in_a_box(load_toy):
    for state in (load_toy("toy_race").new_initial_state(),
                  *(boardlab.load_game(name).new_initial_state() for name in ("biased_rps", "kuhn_poker", "leduc_poker"))):
        assert state.diagram() is None
        picture = state._repr_svg_()
        ET.fromstring(picture)
        assert html.escape(str(state).splitlines()[0]) in picture


def test_a_hidden_game_without_a_drawing_shows_a_seat_its_own_record():
    state = boardlab.load_game("kuhn_poker").new_initial_state()
    for action in (2, 0):
        state.apply_action(action)
    picture = render.view_svg(PlayerView(state, 1))
    assert "The game as" in picture and render.view_points(PlayerView(state, 1)) == []
    assert state.record() not in picture
