"""The opening response (`boardlab exploit --opening`): a first-round reply to a target's sampled opening, checked
where the best reply and its worth are known."""

import json

import pytest

import boardlab
from boardlab.opening_response import forced_game, opening_response, opening_response_to, opening_table, screen, seat_value
from conftest import REPO, TINY_TRAINING

# biased_rps (games/biased_rps/RULES.md): rock beats scissors by 1, paper beats rock and scissors paper by 1/2.
# Against uniform play rock's reply is worth (0 - 1/2 + 1) / 3 = 1/6 a game, the uniform policy's exact
# exploitability (test_exploit.py).
UNIFORM_EXPLOITABILITY = 1 / 6


class _Always:
    """A target that plays `text` wherever it is legal, else the first legal action."""

    def __init__(self, text: str):
        self.text = text

    def act(self, state, seat):
        legal = state.legal_actions(seat)
        wanted = state.string_to_action(seat, self.text)
        return wanted if wanted in legal else legal[-1]


def _no_network(state, seat):
    raise AssertionError("the first round of biased_rps ends the game: no network value is asked for")


def test_the_reply_to_a_fixed_opening_wins_every_game_by_what_the_table_says():
    game = boardlab.load_game("biased_rps")
    result = opening_response(game, lambda seed: _Always("P"), _no_network, samples=5, candidates=3, screen_games=2,
                              games=10)
    # Scissors beat paper by 1/2 in either seat: a score of 1/2 + (1/2 - -1/2) / (2 * 2) = 3/4, every game.
    assert [r["reply"] for r in result["replies"]] == ["S", "S"]
    assert result["final"]["mean_return"]["mean"] == pytest.approx(0.5)
    assert result["final"]["score"] == {"n": 10, "mean": 0.75, "half": 0.0, "low": 0.75, "high": 0.75}
    # A fixed target and a fixed reply replay one game a seat, and the table says why.
    assert result["final"]["distinct_games"] == 2 and result["final"]["one_round"]
    assert "2 of the 10 games differ: each game was its first round alone" in opening_table({"target": "P", **result})
    seat0 = result["replies"][0]
    assert seat0["target_openings"] == {"-/P": 5} and seat0["ranked_against_share"] == 1.0
    # Ranked one ply deep by the returns: scissors (+1/2), paper (0), rock (-1/2). Those are the replies'
    # exact worth against the sampled openings, so no game screens them.
    assert seat0["screen_skipped"] and "not screened" in opening_table({"target": "P", **result})
    assert [(c["reply"], c["one_ply_value"], c["screen_games"]) for c in seat0["screened"]] == [
        ("S", 0.5, 0), ("P", 0.0, 0), ("R", -0.5, 0)]


def test_sequential_halving_spends_the_screen_on_the_replies_still_in_the_running():
    game = boardlab.load_game("biased_rps")
    ranked = [(0.3, game.new_initial_state().string_to_action(0, a)) for a in "PRS"]
    # Against uniform play: rock +1/6 a game, scissors and paper -1/12. Three replies, two rounds, 300 games:
    # round one plays each 50, round two the better two 75 more.
    screened = screen(game, lambda seed: boardlab.make_bot("random", game, seed), 0, ranked, 3, 100, seed=7)
    assert [c["screen_games"] for c in screened] == [125, 125, 50]
    assert screened[0]["reply"] == game.new_initial_state().string_to_action(0, "R")
    assert screened[0]["screen_score"] >= screened[1]["screen_score"]
    # One candidate: its budget in one round.
    assert [c["screen_games"] for c in screen(game, lambda seed: _Always("P"), 0, ranked, 1, 4, seed=0)] == [4]


def test_against_uniform_play_it_finds_rock_and_wins_the_exact_exploitability():
    result = opening_response_to("random", "biased_rps", samples=600, candidates=3, screen_games=300, games=3000,
                                 seed=3)
    assert [r["reply"] for r in result["replies"]] == ["R", "R"]
    won = result["final"]["mean_return"]
    assert won["low"] <= UNIFORM_EXPLOITABILITY <= won["high"], won
    assert result["target"] == "random" and result["game"] == "biased_rps"
    assert "R (one-ply value" in opening_table(result)


def test_a_forced_square_removes_the_targets_larger_one_and_wins():
    game = boardlab.load_game("squares")
    state = game.new_initial_state()
    reply = state.string_to_action(0, "6h5")
    final = forced_game(game, lambda seed: _Always("8g4"), 0, reply, seed=1)
    assert [state.action_to_string(s, a) for s, a in enumerate(final.history()[:2])] == ["6h5", "8g4"]
    assert list(final.returns()) == [1, -1]


def test_seat_value_is_a_seats_own_value_where_the_values_sum_to_zero():
    assert seat_value([0.4, -0.4], 0) == pytest.approx(0.4)
    assert seat_value([0.6, -0.2, -0.4], 1) == pytest.approx(-0.2)
    assert seat_value([1.0, 1.0], 1) == pytest.approx(0.0)  # level: nothing ahead of the other


def test_what_it_cannot_answer_is_named():
    with pytest.raises(ValueError, match="virus_war starts with one seat to move"):
        opening_response_to("random", "virus_war")
    with pytest.raises(ValueError, match="uct:10 has none"):
        opening_response_to("uct:10", "squares", samples=1, candidates=1, screen_games=1, games=1)
    with pytest.raises(ValueError, match="only an agent:CHECKPOINT target knows its own"):
        opening_response_to("random")
    with pytest.raises(ValueError, match="screen_games must be a whole number of 1 or more, got 0"):
        opening_response_to("random", "biased_rps", screen_games=0)


def test_the_command_line_answers_a_squares_agent_and_keeps_its_result(run_cli, tmp_path):
    boardlab.train(str(REPO / "configs" / "squares.yaml"), [*TINY_TRAINING, "run.max_steps=1"], out=tmp_path / "run",
                   log=lambda line: None)
    checkpoint = tmp_path / "run" / "checkpoints" / "latest.pt"
    out = tmp_path / "opening"
    done = run_cli("exploit", "--checkpoint", str(checkpoint), "--simulations", "2", "--opening", "--samples", "3",
                   "--candidates", "2", "--screen-games", "1", "--games", "2", "--out", str(out), timeout=300)
    assert done.returncode == 0, done.stderr
    result = json.loads((out / "exploit.json").read_text())
    assert result["target"].startswith(f"agent:{checkpoint}") and result["game"] == "squares"
    assert result["final"]["games"] == 2 and 0 <= result["final"]["score"]["mean"] <= 1
    for seat, reply in enumerate(result["replies"]):
        assert sum(reply["target_openings"].values()) == 3
        values = [c["one_ply_value"] for c in sorted(reply["screened"], key=lambda c: c["rank"])]
        assert len(values) == 2 and values[0] >= values[1]
        assert reply["reply"] in {c["reply"] for c in reply["screened"]}
    assert "seat 1:" in done.stdout and "what that one reply wins" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["--minutes", "3"], "--minutes: the opening response trains nothing"),
    (["--set", "seed=2"], "--set: the opening response trains nothing"),
])
def test_opening_faults_are_named(run_cli, tmp_path, args, message):
    done = run_cli("exploit", "--player", "random", "--config", str(REPO / "configs" / "biased_rps.yaml"),
                   "--opening", *args, "--out", str(tmp_path / "x"))
    assert done.returncode == 2 and message in done.stderr
    assert not (tmp_path / "x").exists()


def test_a_game_that_starts_with_one_mover_is_refused_on_the_command_line(run_cli, tmp_path):
    done = run_cli("exploit", "--player", "random", "--config", str(REPO / "configs" / "virus_war.yaml"), "--opening",
                   "--out", str(tmp_path / "x"))
    assert done.returncode == 2 and "virus_war starts with one seat to move" in done.stderr
    assert not (tmp_path / "x").exists()
