"""The arena from Python and the command line: ratings, standings, pairings, games and truncation in the report."""

import csv
import io
import json
import re

import pytest

import boardlab


def test_report_keys_for_two_players():
    report = boardlab.evaluate(["random", "uct:10"], game="virus_war", games=4, seed=3)
    assert report["seats"] == 2 and report["players"] == ["random", "uct:10"]
    assert [e["player"] for e in report["elo"]] == ["random", "uct:10"]
    assert report["elo"][0]["elo"] == 0 and report["elo"][0]["stderr"] == 0  # random is the anchor
    low, elo, high = (report["elo"][1][key] for key in ("low", "elo", "high"))
    assert low < elo < high
    assert report["converged"] is True
    (pairing,) = report["pairings"]
    assert pairing["wins"] + pairing["draws"] + pairing["losses"] == 4
    assert len(report["games"]) == 4 and report["truncated"] == 0
    for g in report["games"]:
        assert sorted(g["seats"]) == ["random", "uct:10"] and g["group"] == 0
        assert g["truncated"] is False and len(g["returns"]) == 2
    # Standings: mean return and mean place of each player over its games, from the games.
    for s in report["standings"]:
        mine = [g["returns"][g["seats"].index(s["player"])] for g in report["games"]]
        assert s["games"] == 4 and s["truncated"] == 0
        assert s["mean_return"] == pytest.approx(sum(mine) / 4)
        assert s["mean_rank"] == pytest.approx(sum(1 if r > 0 else 2 if r < 0 else 1.5 for r in mine) / 4)
    rows = list(csv.DictReader(io.StringIO(report["standings_csv"])))
    assert [r["player"] for r in rows] == ["random", "uct:10"]
    assert "mean rank" in report["table"] and "vs" in report["table"]
    assert json.loads(report["json"])["players"][1]["mean_rank"] == pytest.approx(report["standings"][1]["mean_rank"], abs=1e-4)


def test_truncated_games_are_counted():
    game = boardlab.load_game("morabaraba(move_cap=40)")
    report = boardlab.evaluate(["random", "random"], game=game, games=20, seed=2)
    truncated = [g for g in report["games"] if g["truncated"]]
    assert 0 < len(truncated) == report["truncated"]
    assert all(g["returns"] == [0.0, 0.0] for g in truncated)
    assert [s["truncated"] for s in report["standings"]] == [len(truncated)] * 2
    assert f"{len(truncated)} of 20 games ended by a cap" in report["table"]
    assert json.loads(report["json"])["truncated"] == len(truncated)


def test_games_open_with_their_own_random_turns_unless_told():
    # Squares opens with none (its random rounds decide games), Virus War with 2.
    for name, own in (("squares", 0), ("virus_war", 2)):
        game = boardlab.load_game(name)
        assert game.arena_opening_turns() == own
        records = [[g["record"] for g in boardlab.evaluate(["random", "random"], game=game, games=4, seed=3,
                                                            opening_turns=turns)["games"]]
                   for turns in (None, own, 2 - own)]
        assert records[0] == records[1] and records[0] != records[2]


def test_evaluate_command_prints_the_table_and_writes_standings(run_cli, tmp_path):
    out = tmp_path / "eval"
    result = run_cli("evaluate", "--game", "virus_war", "--players", "random,uct:20,uct:5", "--games", "2", "--quiet",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "6 games in" in result.stdout
    assert "mean return" in result.stdout and "(anchor)" in result.stdout
    rows = list(csv.DictReader((out / "standings.csv").open()))
    assert [(r["player"], r["games"]) for r in rows] == [("random", "4"), ("uct:20", "4"), ("uct:5", "4")]
    for name in ("results.json", "elo.csv", "pairings.csv", "games.txt"):
        assert (out / name).is_file(), name


def test_evaluate_takes_specs_with_options_in_parentheses(run_cli):
    # The documented multi-option specs split at the same commas as the list before.
    result = run_cli("evaluate", "--game", "virus_war", "--players", "mcts(algorithm=puct,simulations=8),uct(simulations=8),random",
                     "--games", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^mcts\(algorithm=puct,simulations=8\) +vs uct\(simulations=8\) ", result.stdout, re.M), result.stdout
    result = run_cli("evaluate", "--game", "virus_war", "--player", "mcts(algorithm=puct,simulations=8)",
                     "--against", "uct:8,random", "--games", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^mcts\(algorithm=puct,simulations=8\) +vs random ", result.stdout, re.M), result.stdout


def test_evaluate_refuses_the_old_comma_spelling_in_one_line(run_cli):
    for flags, new in (
        (["--players", "mcts:algorithm=puct,simulations=8,random"], "mcts(algorithm=puct,simulations=8),random"),
        (["--player", "random", "--against", "mcts:algorithm=puct,simulations=8"], "mcts(algorithm=puct,simulations=8)"),
    ):
        result = run_cli("evaluate", "--game", "virus_war", *flags, "--games", "2", "--quiet")
        assert result.returncode == 2, result.stderr
        assert f"write '{new}'" in result.stderr
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
