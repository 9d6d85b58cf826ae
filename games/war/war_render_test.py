"""War's drawing: a colour per seat, a letter per unit, generals ringed, dead cells crossed out, cut-off or inert units hollow."""

import random
import xml.etree.ElementTree as ET

import boardlab
from boardlab import render
from boardlab.render.diagram import NEUTRAL, seat_colour


def test_war_svg_gives_each_player_a_colour_and_each_unit_its_letter():
    game = boardlab.load_game("war(players=4,width=12,height=12)")
    state = game.new_initial_state()
    for text in ["Pc3", "Kd3", "Sg7", "end"]:  # A: infantry, knight, plane; then B to move
        state.apply_action(state.string_to_action(text))
    picture = render.svg(state)
    ET.fromstring(picture)
    # Four generals, lettered G, ringed in black and filled with their player's colour.
    assert picture.count('font-weight="bold">G</text>') == 4
    for seat in range(4):
        assert picture.count(f'fill="{seat_colour(seat)}" stroke="#111"') == 1
    # A's three commanded units, filled in A's colour with their letters and named in their titles.
    assert picture.count(f'fill="{seat_colour(0)}" stroke="{seat_colour(0)}"') == 3
    for letter, name in zip("PKS", ("infantry", "knight", "plane")):
        assert f'font-weight="bold">{letter}</text>' in picture and f"<title>{name}</title>" in picture
    assert "B to move" in picture


def test_war_dead_cells_are_crossed_and_cut_off_or_inert_units_hollow():
    rng = random.Random(3)
    game = boardlab.load_game("war(players=3,width=11,height=11)")
    while True:  # a random game with dead cells and units cut off from their general (or inert)
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            board = [symbol for row in str(state).splitlines()[:11] for symbol in row.split()[1:]]
            if "xx" in board and any(s[0].islower() and s[1] != "G" for s in board if s != "xx"):
                break
        else:
            continue
        break
    picture = render.svg(state)
    ET.fromstring(picture)
    # The text board counts them independently: `xx` dead, upper-case seat letters commanded.
    assert picture.count(f'fill="{NEUTRAL}"') == board.count("xx")
    for seat in range(3):
        hollow = sum(1 for s in board if s[0] == chr(ord("a") + seat) and s[1] != "G")
        filled = sum(1 for s in board if s[0] == chr(ord("A") + seat) and s[1] != "G")
        assert picture.count(f'fill="none" stroke="{seat_colour(seat)}"') == hollow
        assert picture.count(f'fill="{seat_colour(seat)}" stroke="{seat_colour(seat)}"') == filled
