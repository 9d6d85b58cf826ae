"""games/squares/first_round_oracle.py: the zero-sum solver, the double oracle, and the command line on a tiny network."""

import json

import numpy as np
import pytest

import boardlab
from conftest import REPO, TINY_TRAINING
from helpers import load_script

oracle = load_script(REPO / "games" / "squares" / "first_round_oracle.py", "squares_first_round_oracle")

# Rock, paper, scissors with paper's win over rock worth 2: its equilibrium is (1/4, 1/4, 1/2) for both,
# value 0 (that mix makes every column of x^T M zero).
BIASED = np.array([[0.0, -2.0, 1.0], [2.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])


def test_the_solver_finds_the_mixed_equilibrium():
    x, y, value = oracle.solve_zero_sum(BIASED)
    assert np.allclose(x, [0.25, 0.25, 0.5], atol=1e-6) and np.allclose(y, [0.25, 0.25, 0.5], atol=1e-6)
    assert abs(value) < 1e-9
    # A dominated row gets no weight.
    x, _, value = oracle.solve_zero_sum(np.array([[1.0, 1.0], [0.0, 0.5]]))
    assert np.allclose(x, [1, 0]) and abs(value - 1.0) < 1e-9


def test_the_double_oracle_grows_from_one_action_to_the_whole_support():
    lines = []
    result = oracle.double_oracle(lambda a, b: BIASED[a, b], 3, [0], [0], 10, 1e-9, lines.append)
    assert result["converged"]
    last = result["history"][-1]
    assert sorted(a for a, _ in last["row_mix"]) == [0, 1, 2]
    assert np.allclose([dict(last["row_mix"])[a] for a in range(3)], [0.25, 0.25, 0.5], atol=1e-6)
    assert len(lines) == len(result["history"]) and lines[0]["row_gain"] > 0
    # Out of iterations before it converges: said so.
    assert not oracle.double_oracle(lambda a, b: BIASED[a, b], 3, [0], [0], 1, 1e-9)["converged"]


def test_the_command_line_solves_a_networks_first_round(tmp_path, capsys):
    boardlab.train(str(REPO / "configs" / "squares.yaml"), [*TINY_TRAINING, "run.max_steps=1"], out=tmp_path / "run",
                   log=lambda line: None)
    assert oracle.main([str(tmp_path / "run" / "checkpoints" / "latest.pt"), "--iterations", "2", "--games", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    steps, summary = [json.loads(line) for line in lines[:-1]], json.loads(lines[-1])
    assert [s["iteration"] for s in steps] == list(range(len(steps))) and 1 <= len(steps) <= 2
    assert summary["iterations"] == len(steps) and summary["exploitability"] >= 0
    # Each iteration values every square against the other seat's support, both ways.
    assert summary["network_evaluations"] >= 1165
    assert 0 <= summary["reply_removes"] <= 1
    assert 0 <= summary["probe_score"] <= 1 and 0 <= summary["heuristic_score"] <= 1


def test_given_mixes_are_played_and_answered_without_solving(tmp_path, capsys):
    boardlab.train(str(REPO / "configs" / "squares.yaml"), [*TINY_TRAINING, "run.max_steps=1"], out=tmp_path / "run",
                   log=lambda line: None)
    checkpoint = str(tmp_path / "run" / "checkpoints" / "latest.pt")
    assert oracle.main([checkpoint, "--games", "2", "--mix", "4h8,4k10"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert "iterations" not in summary and 0 <= summary["heuristic_score"] <= 1
    # A uniform mix over the squares given, for both seats; or an earlier run's last mixes.
    assert oracle.given_mixes("4h8,4k10") == [[("4h8", 0.5), ("4k10", 0.5)]] * 2
    log = tmp_path / "oracle.log"
    log.write_text('{"iteration": 0, "row_mix": [["6g6", 1.0]], "col_mix": [["6h6", 1.0]]}\n'
                   '{"iteration": 1, "row_mix": [["4h8", 0.5], ["8a1", 0.5]], "col_mix": [["2k10", 1.0]]}\n{"converged": true}\n')
    assert oracle.given_mixes(str(log)) == [[["4h8", 0.5], ["8a1", 0.5]], [["2k10", 1.0]]]
    with pytest.raises(SystemExit, match="'7h8' is neither a file nor a first square"):
        oracle.given_mixes("4h8,7h8")
    # The opening response to the mixed opening: one reply a seat, and its games.
    game, agent = boardlab.load_game("squares"), boardlab.load_agent(checkpoint, simulations=2)
    answer = oracle.respond_to_mix(game, agent, [[("2a1", 1.0)], [("2a1", 1.0)]], 2, samples=2, candidates=2,
                                   screen_games=1)
    assert len(answer["response_replies"]) == 2 and answer["response_score"]["n"] == 2


def test_the_mixed_opening_draws_its_first_square_from_its_seats_mix_then_plays_the_agent():
    game = boardlab.load_game("squares")

    class Passing:
        def act(self, state, seat):
            return state.string_to_action(seat, "pass")

    opening = oracle.MixedOpening(Passing(), [[("6h5", 0.75), ("2a1", 0.25)], [("4c3", 1.0)]], seed=3)
    state = game.new_initial_state()
    firsts = [state.action_to_string(0, opening.act(state, 0)) for _ in range(400)]
    assert set(firsts) == {"6h5", "2a1"} and 250 < firsts.count("6h5") < 350
    assert state.action_to_string(1, opening.act(state, 1)) == "4c3"
    state.apply_actions([state.string_to_action(0, "6h5"), state.string_to_action(1, "4c3")])
    assert state.action_to_string(0, opening.act(state, 0)) == "pass"
