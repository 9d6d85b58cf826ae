"""games/stratego/endings.py: how one player's evaluated games ended, from its side, and the records it refuses."""

import json
import subprocess

import pytest

import boardlab
from conftest import LAUNCHER, REPO
from helpers import load_script

endings = load_script(REPO / "games" / "stratego" / "endings.py", "stratego_endings")

BARRAGE = "stratego(variant=barrage)"
REASONS = {"the Flag was captured", "the loser could not move", "neither side can move", "neither Flag can be reached",
           "the move cap"}


def test_an_evaluations_games_are_counted_from_the_named_players_side(tmp_path):
    # A player whose name holds commas, so the records' comma-joined names must be read with care.
    searcher = "mcts(simulations=4,rollouts=1)"
    done = subprocess.run([str(LAUNCHER), "evaluate", "--game", BARRAGE, "--param", "move_cap=200", "--player", searcher,
                           "--against", "random", "--games", "6", "--threads", "1", "--out", str(tmp_path / "ev"),
                           "--quiet"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "ev" / "games.txt").read_text().splitlines()
    game = boardlab.load_game(f"{BARRAGE[:-1]},move_cap=200)")
    mine = endings.endings(lines, "mcts", game)
    theirs = endings.endings(lines, "random", game)
    assert mine["games"] == theirs["games"] == 6
    # What one side won the other lost, for the same reasons; a draw is drawn for both.
    assert mine["won"]["reasons"] == theirs["lost"]["reasons"] and mine["lost"]["reasons"] == theirs["won"]["reasons"]
    assert mine["drawn"] == theirs["drawn"]
    assert sum(r["games"] for r in (mine["won"], mine["lost"], mine["drawn"])) == 6
    for result in ("won", "lost", "drawn"):
        assert set(mine[result]["reasons"]) <= REASONS
        assert sum(mine[result]["reasons"].values()) == mine[result]["games"]
    assert sum(mine["lost_as"].values()) == mine["lost"]["games"]
    # The seats alternate: the searcher sat as Red in three games and as Blue in three.
    seats = [0 if line.startswith(f"[{searcher},") else 1 for line in lines]
    assert sorted(seats) == [0, 0, 0, 1, 1, 1]
    scores = [json.loads("[" + line.split("] [")[1].split("]")[0] + "]")[seat] for line, seat in zip(lines, seats)]
    assert mine["won"]["games"] == sum(s > 0 for s in scores) and mine["lost"]["games"] == sum(s < 0 for s in scores)


def test_records_it_cannot_read_are_named_by_line(tmp_path):
    game = boardlab.load_game(BARRAGE)
    with pytest.raises(ValueError, match="line 1: both players of \\[random,random\\] start with 'random'"):
        endings.endings(["[random,random] [1.00,-1.00] a1-a2"], "random", game)
    with pytest.raises(ValueError, match="line 1: no player of \\[random,uct:5\\] start with 'agent'"):
        endings.endings(["[random,uct:5] [1.00,-1.00] a1-a2"], "agent", game)
    with pytest.raises(ValueError, match="line 2: not a game of games.txt"):
        endings.endings(["", "a1-a2"], "agent", game)
    unfinished = game.new_initial_state().record()
    with pytest.raises(ValueError, match="line 1: the record does not end the game"):
        endings.endings([f"[agent:x,random] [0.00,0.00] {unfinished}"], "agent", game)


def test_the_command_line_names_a_missing_file(tmp_path):
    with pytest.raises(SystemExit, match="endings: .*nothing.txt"):
        endings.main([str(tmp_path / "nothing.txt"), "--player", "agent"])
