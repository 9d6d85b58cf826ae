"""Squares' drawing: every square and green cell of the diagram, the grid points labelled, two clicks per square."""

import random
import xml.etree.ElementTree as ET

import boardlab
from boardlab import render
from boardlab.render.diagram import seat_colour


def _squares(state):
    """(owner, side, x0, y0) of every square in the state's diagram, by its centre and size."""
    return sorted((p["owner"], int(p["size"]), int(p["x"] - p["size"] / 2), int(p["y"] - p["size"] / 2))
                  for p in state.diagram()["pieces"])


def test_squares_svg_draws_every_square_and_green_cell():
    # Red 4c3 and Blue 4e4 collide into a 2x3 green zone; Red adds 2a1.
    state = boardlab.load_game("squares").load_record("4c3/4e4 2a1/pass")
    assert _squares(state) == [(0, 2, 0, 0), (0, 4, 2, 2), (1, 4, 4, 3)]
    picture = state._repr_svg_()
    ET.fromstring(picture)
    assert picture.count('class="square"') == 3
    assert picture.count('class="green"') == 6
    assert picture.count(f'fill="{seat_colour(0)}"') == 2 and picture.count(f'fill="{seat_colour(1)}"') == 1
    # The grid points are labelled a..v without j and 1..21.
    assert ">v</text>" in picture and ">21</text>" in picture and ">j</text>" not in picture
    assert "Red 20, Blue 16; round 3: Red and Blue choose" in picture


def test_squares_svg_of_a_whole_random_game():
    rng = random.Random(4)
    state = boardlab.load_game("squares").new_initial_state()
    while not state.is_terminal():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
    picture = render.svg(state)
    ET.fromstring(picture)
    squares = _squares(state)
    assert squares and picture.count('class="square"') == len(squares)
    # The observation's plane 2 holds the green cells: an independent count.
    assert picture.count('class="green"') == int(state.observation_tensor(0)[2].sum())
    # Each square's cells are its owner's in the observation (plane 0: Red's cells from Red's view, green
    # zones, which both own, included).
    planes = state.observation_tensor(0)
    red_only = planes[0] - planes[2]
    for owner, side, x0, y0 in squares:
        cells, green = red_only[y0:y0 + side, x0:x0 + side], planes[2][y0:y0 + side, x0:x0 + side]
        assert (cells[green == 0] == (owner == 0)).all()


def test_a_square_is_clicked_by_its_two_corners():
    squares = boardlab.load_game("squares")
    names = {name for name, _, _ in render.points(squares.new_initial_state())}
    assert len(names) == 21 * 21 and {"a1", "v21"} <= names
    assert render.action_points(squares, "4c5", names) == ["c5", "g9"]
    assert render.action_points(squares, "pass", names) == []
