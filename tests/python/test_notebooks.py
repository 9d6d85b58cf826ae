"""Every notebook in experiments/ runs headless from top to bottom in quick mode; a failing cell fails the test."""

import os
import pathlib

import pytest

from conftest import REPO

NOTEBOOKS = sorted((REPO / "experiments").glob("*.ipynb"))


def test_there_is_a_notebook_per_game():
    import boardlab

    names = {path.stem for path in NOTEBOOKS}
    assert set(boardlab.registered_games()) <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: pathlib.Path, monkeypatch, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("BOARDLAB_QUICK", "1")
    monkeypatch.setenv("BOARDLAB_ROOT", str(REPO))
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError naming the cell and the error
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    # Every state drawn in the notebook came out as a picture.
    pictures = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if "image/svg+xml" in o.get("data", {})]
    assert pictures
