"""games/squares/opening_probe.py: the reply that removes a predictable first square, and the probe's games."""

import collections

import boardlab
from conftest import REPO
from helpers import load_script

probe = load_script(REPO / "games" / "squares" / "opening_probe.py", "squares_opening_probe")


def test_squares_read_by_the_notation_without_j():
    assert probe.square("6h5") == (6, 7, 4)
    assert probe.square("2t19") == (2, 18, 18)
    assert probe.square("pass") is None


def test_a_smaller_overlapping_square_removes_a_larger_one_and_equal_sides_share():
    assert probe.round_gain(probe.square("6h5"), probe.square("8g4")) == 1
    assert probe.round_gain(probe.square("8g4"), probe.square("6h5")) == -1
    assert probe.round_gain(probe.square("8g4"), probe.square("8h5")) == 0   # a green zone, both stay
    assert probe.round_gain(probe.square("2a1"), probe.square("8g4")) == 0   # apart
    assert probe.round_gain(probe.square("2e2"), probe.square("8g4")) == 0   # touching at a corner only


def test_the_best_reply_removes_the_likeliest_square_and_prefers_the_larger_side():
    options = [boardlab.load_game("squares").new_initial_state().action_to_string(0, a)
               for a in boardlab.load_game("squares").new_initial_state().legal_actions(0)]
    reply, share = probe.best_reply(options, collections.Counter({"8g4": 100}))
    assert share == 1.0 and probe.square(reply)[0] == 6
    assert probe.overlap(probe.square(reply), probe.square("8g4"))
    # Against two 6x6s that overlap, a 4x4 on both removes either.
    reply, share = probe.best_reply(options, collections.Counter({"6g6": 52, "6h6": 48}))
    assert share == 1.0 and probe.square(reply)[0] == 4


class _Fixed:
    """Plays `first` in the first round, then passes."""

    def __init__(self, first):
        self.first = first

    def act(self, state, seat):
        legal = state.legal_actions(seat)
        wanted = state.string_to_action(seat, self.first) if state.move_number() == 0 else None
        return wanted if wanted in legal else state.string_to_action(seat, "pass")


def test_the_prober_wins_every_game_its_forced_square_removes_the_agents():
    game = boardlab.load_game("squares")
    result = probe.probe(game, lambda seed: _Fixed("8g4"), "6h5", 4)
    assert result["score"] == 1.0
    assert result["agent_first_squares"] == {"8g4": 4}
    # Forced onto a larger square, the prober's is the one removed.
    assert probe.probe(game, lambda seed: _Fixed("6h5"), "8g4", 2)["score"] == 0.0


def test_the_command_line_probes_an_agent_spec_with_its_search_options(tmp_path, capsys):
    import json

    from conftest import TINY_TRAINING
    boardlab.train(str(REPO / "configs" / "squares.yaml"), [*TINY_TRAINING, "run.max_steps=1"], out=tmp_path / "run",
                   log=lambda line: None)
    checkpoint = tmp_path / "run" / "checkpoints" / "latest.pt"
    spec = f"agent:{checkpoint}(simulations=4,matrix_candidate_noise=1)"
    assert probe.main([spec, "--games", "2", "--samples", "6"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["agent"] == spec
    assert sum(result["sampled_first_squares"].values()) == 6
    assert result["games"] == 2 and 0.0 <= result["score"] <= 1.0
    assert (result["forced"], result["reply_removes"]) == probe.best_reply(
        [boardlab.load_game("squares").new_initial_state().action_to_string(0, a) for a in range(1165)],
        collections.Counter(result["sampled_first_squares"]))
    # A bare checkpoint plays the search its run evaluated with.
    assert probe.main([str(checkpoint), "--games", "1", "--forced", "2a1"]) == 0
    assert json.loads(capsys.readouterr().out)["agent"].startswith(f"agent:{checkpoint}(simulations=")
