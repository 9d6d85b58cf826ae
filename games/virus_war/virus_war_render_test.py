"""Virus War's drawing: every symbol drawn, killed ones marked, from the game's diagram."""

import random
import xml.etree.ElementTree as ET

import boardlab
from boardlab import render


def test_virus_war_svg_draws_every_symbol():
    state = boardlab.load_game("virus_war").load_record("a1-b2-c3 k10-i9-h8")
    picture = state._repr_svg_()
    assert ET.fromstring(picture).tag.endswith("svg")  # well-formed XML
    # Three crosses (each one path) and three noughts (circles).
    assert picture.count("<path") == 3
    assert picture.count("<circle") == 3
    assert "X to move" in picture


def test_dead_symbols_are_marked():
    # Random play until both colours have lost symbols: killed O are filled, killed X circled. The
    # observation's planes 2 and 3 (dead X, dead O) count them independently of the diagram.
    rng = random.Random(3)
    state = boardlab.load_game("virus_war").new_initial_state()
    while True:
        planes = state.observation_tensor(0)
        if planes[2].sum() >= 1 and planes[3].sum() >= 1:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    picture = render.svg(state)
    assert picture.count('fill="#2471a3"') == int(planes[3].sum())
    assert picture.count('r="14.4" fill="none" stroke="#222"') == int(planes[2].sum())
