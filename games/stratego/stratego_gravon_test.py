"""Stratego's Gravon XML from Python: load_gravon reads an archive game, to_gravon writes one, errors name the fault."""

import pathlib

import pytest

import boardlab

SEEDS = pathlib.Path(__file__).resolve().parent / "fuzz" / "corpus" / "gravon"


def test_load_gravon_replays_the_game():
    g = boardlab.load_gravon((SEEDS / "barrage_flag_captured.xml").read_text())
    assert str(g["game"]).startswith("stratego(") and "variant=barrage" in str(g["game"])
    assert "two_square_limit=5" in str(g["game"])  # Gravon's rule unless told otherwise
    state = g["state"]
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.record().endswith("e1-e10 g10-g9 d1-d4 g9-g10 d4-a4 g10-g9 a4-a10")
    assert g["players"] == ("red", "blue")
    assert g["winner"] == 0 and g["result_type"] == 1


def test_a_resigned_classic_game_keeps_its_result_and_writes_back():
    text = (SEEDS / "classic_resigned.xml").read_text()
    g = boardlab.load_gravon(text, "two_square_limit=3")
    assert "two_square_limit=3" in str(g["game"]) and "variant=classic" in str(g["game"])
    assert not g["state"].is_terminal()
    assert g["players"] == ("a & b", "c")
    assert g["winner"] == 1 and g["result_type"] == 3
    xml = boardlab.to_gravon(g["state"], g["players"], g["winner"], g["result_type"])
    assert '<player id="1">a &amp; b</player>' in xml and '<result type="3" winner="2"/>' in xml
    back = boardlab.load_gravon(xml, "two_square_limit=3")
    assert back["state"].record() == g["state"].record()
    assert "<result" not in boardlab.to_gravon(g["state"])  # unfinished, and no result given


def test_random_games_write_and_read_back():
    game = boardlab.load_game("stratego(variant=barrage)")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[len(state.history()) * 7 % len(state.legal_actions())])
    back = boardlab.load_gravon(boardlab.to_gravon(state), "two_square_limit=3")
    assert back["state"].record() == state.record()
    assert back["state"].returns() == state.returns()


def test_errors_name_the_fault():
    with pytest.raises(boardlab.NotationError, match=r"^gravon: the game type 'duell' is not one this engine plays"):
        boardlab.load_gravon('<stratego><game type="duell"/></stratego>')
    with pytest.raises(ValueError, match=r"line 1: <game> on line 1 is never closed"):
        boardlab.load_gravon('<stratego><game type="barrage">')
    with pytest.raises(boardlab.GameParameterError, match="the file gives variant"):
        boardlab.load_gravon((SEEDS / "classic_resigned.xml").read_text(), "variant=barrage")
    with pytest.raises(boardlab.InputError, match="Gravon XML holds Stratego games"):
        boardlab.to_gravon(boardlab.load_game("virus_war").new_initial_state())
