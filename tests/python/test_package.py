"""The package runs from its sources (python/boardlab, the build's modules in it), and `pip install --no-build-isolation -e .` installs it so from any folder."""

import json
import os
import subprocess
import sys

import pytest

from conftest import BUILD, PYTHON_DIR, REPO

PACKAGE = PYTHON_DIR / "boardlab"
# What an importer reports: the files of the source tree, never a copy, so that an edit takes effect.
REPORT = ("import json, boardlab, boardlab._boardlab, boardlab._boardlab_nn, boardlab.cli; "
          "print(json.dumps([boardlab.__file__, boardlab._boardlab.__file__, boardlab._boardlab_nn.__file__, "
          "boardlab.cli.__file__, str(boardlab.load_game('virus_war'))]))")


def test_the_tests_import_the_sources():
    import boardlab
    import boardlab._boardlab
    import boardlab._boardlab_nn

    assert PYTHON_DIR == REPO / "python"
    assert boardlab.__file__ == str(PACKAGE / "__init__.py")
    assert list(boardlab.__path__) == [str(PACKAGE)]
    # The build put its modules beside the .py files (python/CMakeLists.txt), for this interpreter.
    for module in (boardlab._boardlab, boardlab._boardlab_nn):
        assert os.path.dirname(module.__file__) == str(PACKAGE), module.__file__


def test_the_launcher_runs_the_sources(run_cli):
    launcher = (BUILD / "bin" / "boardlab").read_text()
    assert f'PYTHONPATH="{PYTHON_DIR}' in launcher
    result = run_cli("perft", "virus_war", "2")
    assert result.returncode == 0, result.stderr
    assert "virus_war(strict=false)" in result.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A fresh venv of this interpreter, with boardlab installed editable as scripts/setup.sh installs it."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    # BOARDLAB_BUILD: the build under test, so that setup.py's CMake step finds nothing to do.
    env = {**os.environ, "BOARDLAB_BUILD": str(BUILD), "PIP_NO_CACHE_DIR": "1"}
    result = subprocess.run(
        [str(venv / "bin" / "python3"), "-m", "pip", "install", "-v", "--no-build-isolation", "--no-index",
         "--disable-pip-version-check", "-e", str(REPO)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # setup.py's build_ext ran CMake (-v shows the build backend's output).
    output = result.stdout + result.stderr
    assert "running build_ext" in output and "ninja: " in output, output
    return venv


def _clean_env():
    # No PYTHONPATH, and not this suite's: what a user's shell has.
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "PYTHONHOME")}


def test_an_editable_install_imports_the_sources_from_any_folder(venv):
    result = subprocess.run([str(venv / "bin" / "python3"), "-c", REPORT], capture_output=True, text=True,
                            cwd="/", env=_clean_env(), timeout=120)
    assert result.returncode == 0, result.stderr
    package, games, nn, cli, game = json.loads(result.stdout)
    assert package == str(PACKAGE / "__init__.py")
    assert cli == str(PACKAGE / "cli.py")
    assert os.path.dirname(games) == os.path.dirname(nn) == str(PACKAGE)
    assert game == "virus_war(strict=false)"


def test_an_editable_install_has_the_command(venv):
    result = subprocess.run([str(venv / "bin" / "boardlab"), "--help"], capture_output=True, text=True,
                            cwd="/", env=_clean_env(), timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: boardlab")
    assert "perft" in result.stdout


def test_an_editable_install_leaves_the_source_tree_as_it_was(venv):
    # setuptools writes its metadata to temporary folders and copies no module: nothing new beside the sources.
    assert not list(REPO.glob("*.egg-info")) and not list(PYTHON_DIR.glob("*.egg-info"))
    assert sorted(path.name for path in PACKAGE.glob("*.so")) == sorted(
        path.name for path in PACKAGE.glob("_boardlab*.so") if path.name.startswith(("_boardlab.", "_boardlab_nn.")))
