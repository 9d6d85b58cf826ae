"""games/stratego/setups.py: the Flag statistics of self-play records and of a player's own setups, and its errors."""

import math

import pytest

from conftest import REPO
from helpers import load_script

setups = load_script(REPO / "games" / "stratego" / "setups.py", "stratego_setups")


def _setup(pieces):
    """A 40-square setup string in fill order from {index: kind}."""
    squares = ["."] * 40
    for index, kind in pieces.items():
        squares[index] = kind
    return "".join(squares)


def test_the_flag_statistics_of_a_run_read_where_each_side_put_its_flag(tmp_path):
    a1_guarded = _setup({0: "F", 1: "B", 2: "9"})  # the Flag on a1, a Bomb beside it on b1
    b2_alone = _setup({11: "F", 30: "B"})           # the Flag on b2, its Bomb far away
    c1 = _setup({2: "F"})
    path = tmp_path / "selfplay.txt"
    path.write_text(f"[1,-1] {a1_guarded} {b2_alone} a1-a2\n[-1,1] {a1_guarded} {c1} c1-c2\n")
    games = setups.setups(path)
    assert games == [[a1_guarded, b2_alone], [a1_guarded, c1]]
    stats, flags = setups.flag_statistics(games)
    assert flags == {"a1": 2, "b2": 1, "c1": 1}
    assert stats["setups"] == 4 and stats["distinct_flag_squares"] == 3
    assert stats["flag_entropy_bits"] == pytest.approx(1.5)  # shares 1/2, 1/4, 1/4
    assert stats["flag_on_back_rank"] == 0.75
    assert stats["flag_beside_a_bomb"] == 0.5


def test_a_record_that_does_not_open_with_two_setups_is_refused_by_file_and_line(tmp_path):
    path = tmp_path / "selfplay.txt"
    path.write_text(f"[1,-1] {_setup({0: 'F'})} {_setup({0: 'F'})} a1-a2\n[0,0] FB a1-a2\n")
    with pytest.raises(ValueError, match=r"selfplay.txt:2: the first two turns are not two 40-square setups"):
        setups.setups(path)


def test_a_players_own_setups_hold_one_flag_each():
    made = setups.player_setups("random", 3, "stratego(variant=barrage)", seed=4)
    assert len(made) == 3
    for game in made:
        assert [len(side) for side in game] == [40, 40]
        assert all(side.count("F") == 1 for side in game)
    stats, _ = setups.flag_statistics(made)
    assert 0 <= stats["flag_entropy_bits"] <= round(math.log2(6), 3)  # 6 setups, rounded as reported
