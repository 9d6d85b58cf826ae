"""Morabaraba's drawing: the board's lines, a cow on each occupied point, clicks on points by their names."""

import xml.etree.ElementTree as ET

import boardlab
from boardlab import render


def test_the_board_has_its_lines_and_each_cow_its_colour():
    state = boardlab.load_game("morabaraba").load_record("a1 d2 g7")
    picture = render.svg(state)
    ET.fromstring(picture)
    # 3 squares of 4 sides split at their midpoints (24), 4 spokes of 2 segments and 4 diagonals of 2.
    assert picture.count("<line") == 24 + 8 + 8
    assert picture.count('r="15" fill="#fbfbf5"') == 2 and picture.count('r="15" fill="#222"') == 1
    assert picture.count('r="4"') == 24  # every point marked, under its cow
    assert "Black to place" in picture


def test_moves_are_clicked_on_their_points():
    game = boardlab.load_game("morabaraba")
    points = render.points(game.new_initial_state())
    names = {n for n, _, _ in points}
    assert len(names) == 24 and {"a1", "d2", "g7"} <= names and "d4" not in names
    # a1 lies at the bottom left, g7 at the top right of the picture.
    place = {n: (x, y) for n, x, y in points}
    assert place["a1"][0] < place["g7"][0] and place["a1"][1] > place["g7"][1]
    assert render.action_points(game, "d1-d2", names) == ["d1", "d2"]
    assert render.action_points(game, "xd5", names) == ["d5"]
    assert render.action_points(game, "x-", names) == []
