"""Puts the package's sources (python/, where the build puts its modules) and the build's test-only toy games ($BOARDLAB_BUILD, default <repo>/build) first on sys.path."""

import atexit
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("BOARDLAB_BUILD") or REPO / "build").resolve()
# The package runs from its sources: CMake builds _boardlab and _boardlab_nn into python/boardlab.
PYTHON_DIR = REPO / "python"
LAUNCHER = BUILD / "bin" / "boardlab"
# _boardlab_toys: the toy games of tests/toys/, built with the tests, outside the package.
TOYS_DIR = BUILD / "toys_python"

CONFIG = str(REPO / "configs" / "virus_war.yaml")
# Overrides for seconds-long training runs: a 1x8 network, 4 simulations, small cycles and a
# 2-game evaluation against random.
TINY_TRAINING = [
    "network.blocks=1",
    "network.channels=8",
    "network.value_hidden=16",
    "search.simulations=4",
    "self_play.concurrent_games=4",
    "self_play.workers=1",
    "self_play.lead_positions=24",
    "inference.threads=0",
    "replay.min_positions=16",
    "training.batch_size=16",
    "training.samples_per_position=1",
    "training.threads=1",
    "evaluation.every_steps=0",
    "evaluation.games=2",
    "evaluation.opponents=[random]",
    "evaluation.simulations=2",
    "run.max_minutes=0",
]

# Before any test module imports boardlab, so that the sources are what runs even where an
# installed boardlab (scripts/setup.sh's venv) is on the path too.
sys.path.insert(0, str(PYTHON_DIR))
sys.path.insert(1, str(TOYS_DIR))

# The games' stored ladders (games/NAME/ladder.yaml) make every run's evaluations play a ladder
# rung: tests see an empty games folder of their own (the launcher inherits it), and those about
# ladders give one, or point at the source tree's (SOURCE_GAMES), themselves.
SOURCE_GAMES = REPO / "games"
os.environ["BOARDLAB_GAMES_DIR"] = tempfile.mkdtemp(prefix="boardlab-test-games-")
atexit.register(shutil.rmtree, os.environ["BOARDLAB_GAMES_DIR"], ignore_errors=True)


def pytest_sessionstart(session):
    if not list((PYTHON_DIR / "boardlab").glob("_boardlab*.so")) or not LAUNCHER.is_file():
        pytest.exit(
            f"no boardlab modules in {PYTHON_DIR / 'boardlab'} or launcher in {BUILD / 'bin'}"
            " (build it, or point BOARDLAB_BUILD at the build directory)",
            returncode=4,
        )
    if not list(TOYS_DIR.glob("_boardlab_toys*.so")):
        pytest.exit(f"no toy games module in {TOYS_DIR} (build the target _boardlab_toys)", returncode=4)


@pytest.fixture
def load_toy():
    """load_toy("toy_kuhn") -> a boardlab.Game of the test-only toy games (tests/toys/)."""
    import _boardlab_toys

    return _boardlab_toys.load_toy


@pytest.fixture
def run_cli():
    """Runs the build's `boardlab` launcher: run_cli("perft", "virus_war", "3", input="...")."""

    def run(*args: str, input: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(LAUNCHER), *args], input=input, capture_output=True, text=True, timeout=timeout
        )

    return run


@pytest.fixture(scope="session")
def tiny_runs(tmp_path_factory):
    """A runs folder holding one finished 4-step Virus War run, `tiny` (metrics, checkpoints, self-play
    games, evaluations), for the web app's tests."""
    import boardlab

    runs = tmp_path_factory.mktemp("runs")
    boardlab.train(CONFIG, [*TINY_TRAINING, "run.max_steps=4", "evaluation.every_steps=2"], out=runs / "tiny",
                   log=lambda line: None)
    return runs
