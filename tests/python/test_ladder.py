"""Rating ladders: `boardlab ladder` builds and stores one, `evaluate --ladder` and boardlab.evaluate rate on it."""

import json
import os

import pytest

import boardlab
from boardlab.ladder import build_ladder, ladder_groups

PLAYERS = "random,uct:4,uct:16"


@pytest.fixture
def games_dir(tmp_path, monkeypatch):
    """A games folder of its own, so the tests neither read nor write the source tree's ladders."""
    monkeypatch.setenv("BOARDLAB_GAMES_DIR", str(tmp_path))
    return tmp_path


def test_ladder_groups_pair_neighbours_within_the_span():
    assert ladder_groups(4, 2, 1) == [[0, 1], [1, 2], [2, 3]]
    assert ladder_groups(4, 2, 2) == [[0, 1], [0, 2], [1, 2], [1, 3], [2, 3]]
    assert len(ladder_groups(5, 2, 0)) == 10  # a full round robin
    assert ladder_groups(5, 4, 1) == [[0, 1, 2, 3], [1, 2, 3, 4]]  # a table is never narrower than its seats
    with pytest.raises(ValueError, match="cannot fill a table of 4"):
        ladder_groups(3, 4, 2)


def test_build_ladder_rates_rungs_weakest_first(games_dir):
    built = build_ladder("virus_war", PLAYERS.split(","), games=6, span=2, seed=3)
    ladder = built["ladder"]
    assert ladder["game"] == str(boardlab.load_game("virus_war"))
    assert [r["player"] for r in ladder["rungs"]][0] == "random"
    assert ladder["rungs"][0]["elo"] == 0
    assert [r["elo"] for r in ladder["rungs"]] == sorted(r["elo"] for r in ladder["rungs"])
    assert all(r["low"] <= r["elo"] <= r["high"] and r["games"] == 12 for r in ladder["rungs"])
    assert ladder["opening_turns"] == 2 and ladder["games_per_group"] == 6
    assert boardlab.find_ladder(boardlab.load_game("virus_war")) is None  # nothing stored yet


def test_cli_stores_a_ladder_that_evaluate_rates_against(run_cli, games_dir):
    result = run_cli("ladder", "virus_war", "--players", PLAYERS, "--games", "6", "--write", "--quiet")
    assert result.returncode == 0, result.stderr
    path = games_dir / "virus_war" / "ladder.yaml"
    assert f"ladder stored in {path}" in result.stdout
    stored = boardlab._boardlab.read_ladders(str(path))
    assert len(stored) == 1 and len(stored[0]["rungs"]) == 3

    result = run_cli("evaluate", "--game", "virus_war", "--player", "uct:8", "--ladder", "--games", "4", "--json",
                     "--quiet")
    assert result.returncode == 0, result.stderr
    ladder = json.loads(result.stdout)["ladder"]
    ratings = {r["player"]: r for r in ladder["ratings"]}
    assert set(ratings) == {"uct:8", *PLAYERS.split(",")}
    rungs = {r["player"]: r["elo"] for r in stored[0]["rungs"]}
    for player, elo in rungs.items():
        assert ratings[player]["rung"] and ratings[player]["elo"] == pytest.approx(elo, abs=0.05)
    assert not ratings["uct:8"]["rung"]
    assert ratings["uct:8"]["low"] < ratings["uct:8"]["elo"] < ratings["uct:8"]["high"]

    table = run_cli("evaluate", "--game", "virus_war", "--player", "uct:8", "--ladder", "--games", "2", "--quiet")
    assert table.returncode == 0, table.stderr
    assert "on the ladder of virus_war(strict=false) (rungs held at their stored ratings, random = 0)" in table.stdout


def test_python_evaluate_rates_on_the_ladder(games_dir):
    built = build_ladder("virus_war", PLAYERS.split(","), games=4)
    boardlab._boardlab.store_ladder(boardlab._boardlab.ladder_file("virus_war"), built["ladder"])
    report = boardlab.evaluate(["uct:4", "random"], game="virus_war", against="uct:8", games=2, ladder=True)
    assert [r["player"] for r in report["ladder"]["ratings"]] == ["uct:8", "uct:4", "random"]
    assert boardlab.evaluate(["random"], game="virus_war", against="uct:8", games=2)["ladder"] is None


def test_ladder_faults_are_named(run_cli, games_dir):
    result = run_cli("evaluate", "--game", "virus_war", "--player", "uct:8", "--ladder", "--games", "2")
    assert result.returncode == 2
    assert "virus_war(strict=false) has no stored ladder" in result.stderr
    assert "boardlab ladder 'virus_war(strict=false)' --write" in result.stderr

    result = run_cli("evaluate", "--game", "virus_war", "--players", "random,uct:4", "--ladder")
    assert result.returncode == 2 and "--ladder rates one player" in result.stderr

    (games_dir / "virus_war").mkdir()
    (games_dir / "virus_war" / "ladder.yaml").write_text("- game: virus_war(strict=false)\n  rungs: 3\n")
    result = run_cli("evaluate", "--game", "virus_war", "--player", "uct:8", "--ladder", "--games", "2")
    assert result.returncode == 2
    assert "ladder file '" in result.stderr
    assert "entry 1 (virus_war(strict=false)): no 'games_per_group'" in result.stderr

    result = run_cli("ladder", "virus_war", "--players", "random,uct:4", "--write", "--out", "x.yaml")
    assert result.returncode == 2 and "not allowed with argument" in result.stderr

    with pytest.raises(ValueError, match="a group of 3 players; the game seats 2"):
        boardlab._boardlab.run_arena(boardlab.load_game("virus_war"), ["random", "uct:4", "uct:8"], games=2,
                                     groups=[[0, 1, 2]])
    with pytest.raises(ValueError, match="player 1 twice in a group"):
        boardlab._boardlab.run_arena(boardlab.load_game("virus_war"), ["random", "uct:4"], games=2, groups=[[1, 1]])
    with pytest.raises(ValueError, match="store_ladder: no 'rungs'"):
        boardlab._boardlab.store_ladder(str(games_dir / "x.yaml"), {"game": "virus_war", "games_per_group": 1,
                                                                     "opening_turns": 0, "seed": 0, "seconds": 0})
    assert not os.path.exists(games_dir / "x.yaml")
