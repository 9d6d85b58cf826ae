"""perft and random_play from Python: known counts, reproducibility, bad arguments."""

import threading

import pytest

import boardlab


def test_perft_strict_counts():
    state = boardlab.load_game("virus_war(strict=true)").new_initial_state()
    assert [boardlab.perft(state, depth) for depth in range(0, 6)] == [1, 1, 3, 15, 15, 45]
    assert state.history() == []  # counting works on copies


def test_perft_errors_and_terminal():
    game = boardlab.load_game("virus_war")
    with pytest.raises(ValueError, match=r"^perft: depth must be 0\.\.2147483647, got -1$"):
        boardlab.perft(game.new_initial_state(), -1)
    with pytest.raises(TypeError):
        boardlab.perft(game, 1)  # a Game is not a State


def test_random_play_reports_rates():
    stats = boardlab.random_play(boardlab.load_game("virus_war"), 0.2, 5, 1)
    assert set(stats) == {"games", "actions", "seconds", "actions_per_second", "games_per_second", "rounds",
                          "rounds_per_second"}
    assert stats["rounds"] == 0 and stats["rounds_per_second"] == 0  # Virus War has no simultaneous round
    assert stats["games"] >= 5
    assert stats["seconds"] >= 0.2
    assert stats["actions"] > stats["games"]
    assert stats["actions_per_second"] == pytest.approx(stats["actions"] / stats["seconds"])
    assert stats["games_per_second"] == pytest.approx(stats["games"] / stats["seconds"])


def test_random_play_counted_in_games_is_reproducible():
    game = boardlab.load_game("virus_war(strict=true)")
    # With no time target the run stops at exactly min_games, so the seed fixes everything.
    first, second, other = (boardlab.random_play(game, 0, 300, seed) for seed in (7, 7, 8))
    assert first["games"] == second["games"] == 300
    assert first["actions"] == second["actions"]
    assert other["actions"] != first["actions"]


@pytest.mark.parametrize("seconds", [-1.0, float("nan"), float("inf")])
def test_random_play_rejects_bad_durations(seconds):
    with pytest.raises(ValueError, match="seconds"):
        boardlab.random_play(boardlab.load_game("virus_war"), seconds, 1, 0)


def test_random_play_rejects_negative_counts():
    # A ValueError naming the argument, not pybind11's TypeError with a signature dump.
    with pytest.raises(ValueError, match=r"^random_play: min_games must be 0\.\.9223372036854775807, got -1$"):
        boardlab.random_play(boardlab.load_game("virus_war"), 0.0, -1, 0)


def test_random_play_runs_in_threads():
    # The GIL is released while C++ plays: threads may share one game object.
    game = boardlab.load_game("virus_war")
    results = []
    threads = [threading.Thread(target=lambda: results.append(boardlab.random_play(game, 0.1, 1, 0))) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 3 and all(r["games"] >= 1 for r in results)


def test_perft_runs_in_threads():
    state = boardlab.load_game("virus_war(strict=true)").new_initial_state()
    results = []
    threads = [threading.Thread(target=lambda: results.append(boardlab.perft(state, 6))) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [boardlab.perft(state, 6)] * 2
