"""Klopodavka's drawing: a colour per seat, main bugs lettered, killed cells in the killer's colour, a knocked-out seat's bugs hollow."""

import random
import xml.etree.ElementTree as ET

import boardlab
from boardlab import render
from boardlab.render.diagram import seat_colour


def test_klopodavka_svg_gives_each_player_a_colour_and_crowns_main_bugs():
    state = boardlab.load_game("klopodavka(players=4,width=10,height=10)").new_initial_state()
    picture = render.svg(state)
    ET.fromstring(picture)
    # Four blocks: a lettered main bug and 8 bugs each, in the player's colour.
    for seat, letter in enumerate("ABCD"):
        assert f'font-weight="bold">{letter}</text>' in picture
        assert picture.count(f'fill="{seat_colour(seat)}" stroke="{seat_colour(seat)}"') == 8
    assert "A to move" in picture


def test_klopodavka_killed_cells_take_the_killers_colour_and_inert_bugs_are_hollow():
    rng = random.Random(4)
    game = boardlab.load_game("klopodavka(players=3,width=11,height=11)")
    while True:  # a random game in which someone went out and left bugs behind
        state = game.new_initial_state()
        while not state.is_terminal() and not any(state.is_out(p) for p in range(3)):
            state.apply_action(rng.choice(state.legal_actions()))
        board = "\n".join(str(state).splitlines()[:11])
        out = [seat for seat in range(3) if state.is_out(seat)]
        if out and any(chr(ord("a") + seat) in board for seat in out):
            break
    picture = render.svg(state)
    ET.fromstring(picture)
    # The text board counts them independently: `1`-`3` a cell killed by A-C, `a`-`c` a bug.
    symbols = [symbol for row in board.splitlines() for symbol in row.split()[1:]]  # past the rank labels
    for seat in range(3):
        killed = symbols.count(str(seat + 1))
        assert picture.count(f'fill="{seat_colour(seat)}" opacity="0.45"') == killed
        bugs = symbols.count(chr(ord("a") + seat))
        fill = "none" if seat in out else seat_colour(seat)
        assert picture.count(f'fill="{fill}" stroke="{seat_colour(seat)}"') == bugs
