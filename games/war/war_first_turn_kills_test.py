"""games/war/first_turn_kills.py: first-turn kills where the board is small, none on configs/war.yaml's 14x14."""

import argparse

import pytest

import boardlab
from conftest import REPO
from helpers import load_script

kills = load_script(REPO / "games" / "war" / "first_turn_kills.py", "war_first_turn_kills")


def test_on_ten_by_ten_the_turn_found_puts_a_player_out_before_it_has_moved():
    game = "war(players=4,width=10,height=10)"
    turn = kills.first_turn_kill(game)
    assert turn is not None
    state = boardlab.load_record(game, turn)
    assert len(state.record().split()) == 1  # A's first turn, nothing else
    assert [p for p in range(4) if state.is_out(p)] in ([1], [3])


def test_the_configs_board_has_no_first_turn_kill():
    assert "width=14,height=14" in (REPO / "configs" / "war.yaml").read_text()
    assert kills.first_turn_kill("war(players=4,width=14,height=14)") is None


def test_board_sides_are_read_as_a_range_and_refused_with_the_reason(capsys):
    assert kills.sizes("12-14") == [12, 13, 14]
    assert kills.sizes("10") == [10]
    with pytest.raises(argparse.ArgumentTypeError, match="runs backwards"):
        kills.sizes("14-12")
    with pytest.raises(argparse.ArgumentTypeError, match="is not N or N-M"):
        kills.sizes("big")
    assert kills.main(["--players", "4", "--sizes", "6"]) == 2
    assert "first_turn_kills:" in capsys.readouterr().err
