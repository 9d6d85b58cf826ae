"""The extension modules' stubs (python/boardlab/*.pyi) are what stubgen makes of this build's modules: never stale."""

import subprocess
import sys

import pytest
from conftest import PYTHON_DIR, REPO

MODULES = ["_boardlab", "_boardlab_nn"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("stubs")
    args = [arg for name in MODULES for arg in ("-m", f"boardlab.{name}")]
    subprocess.run([sys.executable, "-c", "from mypy.stubgen import main; main()", "-q", *args, "-o", str(out)],
                   check=True, env={"PYTHONPATH": str(PYTHON_DIR), "PATH": "/usr/bin:/bin"})
    return out / "boardlab"


@pytest.mark.parametrize("name", MODULES)
def test_the_stubs_are_current(generated, name):
    committed = REPO / "python" / "boardlab" / f"{name}.pyi"
    assert committed.is_file(), f"{committed} is missing: run scripts/make_stubs.sh"
    assert committed.read_text() == (generated / f"{name}.pyi").read_text(), \
        f"{committed.name} is stale: run scripts/make_stubs.sh after a build"


def test_the_package_says_it_is_typed():
    assert (PYTHON_DIR / "boardlab" / "py.typed").is_file()


def test_a_stub_names_what_the_module_has():
    # The stubs list the bindings a user calls, with pyspiel's argument names where it has them.
    stub = (REPO / "python" / "boardlab" / "_boardlab.pyi").read_text()
    for name in ("class State", "def apply_action", "def is_out", "def returns", "MAX_SIMULATIONS: int"):
        assert name in stub, name
