"""Ctrl-C and SIGTERM stop every long command within moments, keeping what was done: run as a user would, in a subprocess."""

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from conftest import CONFIG, LAUNCHER, PYTHON_DIR, TINY_TRAINING, TOYS_DIR

# A bound no stopped command comes near, and that every command below would pass by far
# without the stop: they are sized to run for many minutes or hours.
STOPS_WITHIN = 60
TINY = TINY_TRAINING + ["run.log_every_seconds=0.2"]


def sets(overrides):
    return [arg for item in overrides for arg in ("--set", item)]


class Running:
    """A command in a subprocess whose output is collected as it comes, to wait for a line before signalling it."""

    def __init__(self, args, cwd=None):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PYTHON_DIR), str(TOYS_DIR)])}
        self.process = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd, env=env
        )
        self.out, self.err = [], []
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, into):
        while chunk := stream.read(1):
            into.append(chunk)

    def stdout(self) -> str:
        return "".join(self.out)

    def stderr(self) -> str:
        return "".join(self.err)

    def wait_for(self, pattern: str, stream: str = "stderr", timeout: float = 120) -> None:
        """Waits until the stream shows the regular expression `pattern`."""
        read = self.stdout if stream == "stdout" else self.stderr
        deadline = time.monotonic() + timeout
        while not re.search(pattern, read()):
            assert self.process.poll() is None, f"ended before '{pattern}':\n{self.stdout()}\n{self.stderr()}"
            assert time.monotonic() < deadline, f"no '{pattern}' after {timeout} s:\n{self.stdout()}\n{self.stderr()}"
            time.sleep(0.05)

    def stop(self, signum=signal.SIGINT, after: float = 0.0) -> int:
        """Sends `signum` after `after` seconds; returns the exit code (the process must end within STOPS_WITHIN)."""
        time.sleep(after)
        self.process.send_signal(signum)
        try:
            code = self.process.wait(timeout=STOPS_WITHIN)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"still running {STOPS_WITHIN} s after the signal:\n{self.stdout()}\n{self.stderr()}")
        for reader in self._readers:
            reader.join()
        return code


def python_call(code: str, setup: str = "") -> list[str]:
    """A Python process that runs `setup`, prints 'ready' and then makes one long call."""
    return [sys.executable, "-c", f"import boardlab\n{setup}\nprint('ready', flush=True)\n{code}"]


def test_ctrl_c_in_evaluate_prints_and_saves_the_games_played(tmp_path):
    out = tmp_path / "out"
    run = Running([str(LAUNCHER), "evaluate", "--game", "virus_war", "--players", "random,uct:50",
                   "--games", "600", "--out", str(out), "--threads", "1"])
    run.wait_for(r" games, ")  # the progress line: the games have begun
    assert run.stop(signal.SIGINT, after=2) == 130
    stdout = run.stdout()
    assert "of 600 games in" in stdout, stdout
    assert "stopped early: " in stdout and "of 600 games played" in stdout, stdout
    assert f"results written to {out}/" in stdout
    results = json.loads((out / "results.json").read_text())
    assert results["stopped"] is True and results["planned"] == 600
    assert 1 <= results["games"] < 600
    records = (out / "games.txt").read_text().splitlines()
    assert len(records) == results["games"]
    assert sum(p["games"] for p in results["players"]) == 2 * results["games"]


def test_sigterm_in_evaluate_also_keeps_the_games_played(tmp_path):
    out = tmp_path / "out"
    run = Running([str(LAUNCHER), "evaluate", "--game", "virus_war", "--players", "random,uct:50",
                   "--games", "600", "--out", str(out), "--json", "--threads", "1"])
    run.wait_for(r" games, ")
    assert run.stop(signal.SIGTERM, after=1) == 143
    printed = json.loads(run.stdout())
    assert printed["stopped"] is True and printed["games"] < 600
    assert json.loads((out / "results.json").read_text())["games"] == printed["games"]


def test_a_player_stopped_before_its_first_game_shows_no_games(tmp_path):
    # Issue 36: it was rated +0 [-10767140, +10767140]. The groups play in turn, one game at a
    # time, so uct:60 has played nothing when the stop comes.
    out = tmp_path / "out"
    run = Running([str(LAUNCHER), "evaluate", "--game", "virus_war", "--players", "random,uct:50,uct:60",
                   "--games", "600", "--out", str(out), "--threads", "1"])
    run.wait_for(r" games, ")
    assert run.stop(signal.SIGINT, after=1) == 130
    stdout = run.stdout()
    assert "10767140" not in stdout
    assert re.search(r"\nuct:60 +0 +- +- +- +- +no games\n", stdout), stdout
    player = json.loads((out / "results.json").read_text())["players"][2]
    assert player["name"] == "uct:60" and player["games"] == 0 and player["rated"] is False
    assert [player[key] for key in ("elo", "stderr", "low", "high", "mean_return", "mean_rank", "ms_per_move")] == [None] * 7
    assert "\nuct:60,,,,\n" in (out / "elo.csv").read_text()
    assert "\nuct:60,0,,,0,\n" in (out / "standings.csv").read_text()


def test_the_python_report_has_none_for_a_player_without_games():
    call = ("r = boardlab.evaluate(['random', 'uct:50', 'uct:60'], game='virus_war', games=600, threads=1)\n"
            "import json\nprint(json.dumps({'elo': r['elo'][2], 'standings': r['standings'][2]}), flush=True)")
    run = Running(python_call(call))
    run.wait_for("ready", stream="stdout")
    assert run.stop(signal.SIGINT, after=1) == 0
    printed = json.loads(run.stdout().splitlines()[-1])
    assert printed["elo"] == {"player": "uct:60", "rated": False, "elo": None, "stderr": None, "low": None, "high": None}
    assert printed["standings"]["games"] == 0 and printed["standings"]["mean_return"] is None


def test_a_bad_out_is_refused_before_any_game(tmp_path, run_cli):
    a_file = tmp_path / "taken"
    a_file.write_text("")
    for out, why in ((a_file, "is a file, not a folder"), (a_file / "sub", "is not a writable folder")):
        # 600 games of uct:50 would take minutes: the refusal comes first.
        result = run_cli("evaluate", "--game", "virus_war", "--players", "random,uct:50", "--games", "600",
                         "--out", str(out), timeout=STOPS_WITHIN)
        assert result.returncode == 2
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1 and why in result.stderr, result.stderr


def test_simulations_zero_is_refused(run_cli, tmp_path):
    result = run_cli("evaluate", "--checkpoint", str(tmp_path / "any.pt"), "--simulations", "0", "--against", "random")
    assert result.returncode == 2
    assert result.stderr == (
        "boardlab evaluate: error: argument --simulations: must be an integer from 1 to 2,147,483,647, got 0"
        " (see boardlab evaluate --help)\n"
    )


def test_ctrl_c_stops_a_search_with_a_huge_budget_in_play():
    run = Running([str(LAUNCHER), "play", "virus_war", "--players", "uct:1000000000,random", "--seed", "1"])
    run.wait_for("seed 1", stream="stdout")  # the game has begun: the first move is being searched
    assert run.stop(signal.SIGINT, after=1) == 130
    assert run.stderr().endswith("interrupted\n"), run.stderr()


@pytest.mark.parametrize(
    "call",
    [
        "boardlab._boardlab.search_bench(boardlab.load_game('virus_war'), 'simulations=800', 'free', 64, 1e9)",
        "boardlab.random_play(boardlab.load_game('virus_war'), 1e9)",
        "boardlab.perft(boardlab.load_game('virus_war').new_initial_state(), 12)",
        # After the first sub-move, which is forced: the search has a choice to make.
        "s = boardlab.load_game('virus_war').new_initial_state()\ns.apply_action(s.legal_actions()[0])\n"
        "boardlab.make_bot('uct:1000000000', 'virus_war').act(s)",
    ],
    ids=["search_bench", "random_play", "perft", "bot_act"],
)
def test_ctrl_c_raises_keyboard_interrupt_from_long_calls(call):
    run = Running(python_call(call))
    run.wait_for("ready", stream="stdout")
    code = run.stop(signal.SIGINT, after=1)
    assert code != 0
    assert run.stderr().rstrip().endswith("KeyboardInterrupt"), run.stderr()


def test_sigterm_keeps_its_meaning_for_a_python_caller():
    """Outside the command line nobody handles SIGTERM in Python: the process ends by it, as it would without C++."""
    run = Running(python_call("boardlab.random_play(boardlab.load_game('virus_war'), 1e9)"))
    run.wait_for("ready", stream="stdout")
    assert run.stop(signal.SIGTERM, after=1) == -signal.SIGTERM


def test_ctrl_c_stops_the_network_benchmark():
    call = f"_boardlab_nn.bench_network({CONFIG!r}, ['network.channels=8', 'network.blocks=1'], 1e9)"
    run = Running(python_call(call, setup="from boardlab import _boardlab_nn"))
    run.wait_for("ready", stream="stdout")
    assert run.stop(signal.SIGINT, after=2) != 0
    assert run.stderr().rstrip().endswith("KeyboardInterrupt"), run.stderr()


def checkpoint_step(path):
    from boardlab import _boardlab_nn  # LibTorch loads only for the tests that read checkpoints

    return _boardlab_nn.checkpoint_info(str(path))["step"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["sigterm", "sigint"])
def test_a_signal_ends_training_with_a_checkpoint(tmp_path, signum):
    run_dir = tmp_path / "run"
    run = Running([str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run_dir),
                   *sets([*TINY, "run.max_steps=1000000", "checkpoint.every_steps=1000000"])])
    run.wait_for(r"\nstep [1-9]\d*/")  # a progress line after a training step: no checkpoint yet
    assert not (run_dir / "checkpoints" / "latest.pt").exists()
    assert run.stop(signum) == 128 + signum
    assert "stopped early; continue with: boardlab train --resume" in run.stdout()
    assert checkpoint_step(run_dir / "checkpoints" / "latest.pt") >= 1
    log = (run_dir / "log.txt").read_text()
    assert "\nstopped at step " in log


def test_ctrl_c_during_the_final_evaluation_stops_it(tmp_path):
    run_dir = tmp_path / "run"
    # Two training steps, then an evaluation of 2000 games: an hour on two cores.
    overrides = [*TINY, "run.max_steps=2", "evaluation.games=2000", "evaluation.opponents=[uct:20]"]
    run = Running([str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run_dir), *sets(overrides)])
    deadline = time.monotonic() + 120
    # The run's own checkpoint at its last step comes just before its final evaluation.
    while not (run_dir / "checkpoints" / "latest.pt").exists():
        assert run.process.poll() is None, run.stderr()
        assert time.monotonic() < deadline, run.stderr()
        time.sleep(0.05)
    assert run.stop(signal.SIGINT, after=2) == 130
    log = (run_dir / "log.txt").read_text()
    assert "evaluation at step 2 stopped after " in log and " of 2000 games" in log, log
    assert "\nstopped at step 2 " in log
    assert checkpoint_step(run_dir / "checkpoints" / "latest.pt") == 2
    assert not any((run_dir / "evaluation").iterdir())  # no evaluation recorded


def test_max_minutes_bounds_the_final_evaluation(tmp_path, run_cli):
    run_dir = tmp_path / "run"
    # Without the bound its 2000-game evaluation would take an hour.
    overrides = [*TINY, "run.max_minutes=0.1", "run.max_steps=1000000", "evaluation.games=2000",
                 "evaluation.opponents=[uct:20]"]
    result = run_cli("train", "--config", CONFIG, "--out", str(run_dir), *sets(overrides), timeout=300)
    assert result.returncode == 0, result.stderr
    log = (run_dir / "log.txt").read_text()
    assert "run.max_minutes is spent" in log or ("stopped after" in log and "of 2000 games" in log), log
    assert "\nfinished at step " in log
