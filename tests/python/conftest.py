"""Finds the build under test ($BOARDLAB_BUILD, default <repo>/build) and puts its package first on sys.path."""

import os
import pathlib
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("BOARDLAB_BUILD") or REPO / "build").resolve()
PYTHON_DIR = BUILD / "python"
LAUNCHER = BUILD / "bin" / "boardlab"

# Before any test module imports boardlab: the source tree's python/boardlab has no
# compiled _boardlab, the build's copy does.
sys.path.insert(0, str(PYTHON_DIR))


def pytest_sessionstart(session):
    if not list((PYTHON_DIR / "boardlab").glob("_boardlab*.so")) or not LAUNCHER.is_file():
        pytest.exit(
            f"no boardlab build at {BUILD} (build it, or point BOARDLAB_BUILD at the build directory)",
            returncode=4,
        )


@pytest.fixture
def run_cli():
    """Runs the build's `boardlab` launcher: run_cli("perft", "virus_war", "3", input="...")."""

    def run(*args: str, input: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(LAUNCHER), *args], input=input, capture_output=True, text=True, timeout=timeout
        )

    return run
