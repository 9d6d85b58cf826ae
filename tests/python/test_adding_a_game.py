"""The README's account of adding a game holds: a game is its folder, one registry line, its config and its notebook; nothing else in the framework names it."""

import re
from pathlib import Path

import pytest

import boardlab

ROOT = Path(__file__).resolve().parents[2]
# The framework's code: every layer's folder, the scripts and the build files (comments left out).
FRAMEWORK = ["core", "files", "config", "arena", "mcts", "nn", "python", "fuzz", "scripts"]
# The one game the framework's defaults and examples may name: the default run's (TrainConfig's game).
DEFAULT_GAME = "virus_war"
GAMES = boardlab.registered_games()
COMMENT = {".cc": re.compile(r"//.*"), ".h": re.compile(r"//.*"), ".py": re.compile(r"#.*"),
           ".sh": re.compile(r"#.*"), ".txt": re.compile(r"#.*")}


def framework_files():
    yield ROOT / "CMakeLists.txt"
    yield from (p for p in ROOT.glob("*/CMakeLists.txt"))
    for folder in FRAMEWORK:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in COMMENT and path.suffix != ".pyi":
                yield path


def code_naming(game: str) -> list[str]:
    """The framework's files whose code (not comments) names `game` as a game string: "game", 'game(...'."""
    named = re.compile(rf"""["'`]{game}[("'`]""")
    out = []
    for path in framework_files():
        code = COMMENT[path.suffix].sub("", path.read_text(encoding="utf-8"))
        if named.search(code):
            out.append(str(path.relative_to(ROOT)))
    return out


@pytest.mark.parametrize("game", [g for g in GAMES if g != DEFAULT_GAME])
def test_nothing_in_the_framework_names_a_game(game):
    assert code_naming(game) == [], f"{game} is named outside games/{game}/, its registry line, config and notebook"


def test_the_scan_finds_a_game_named_in_code(tmp_path):
    # The default game is named by the framework's defaults: the scan must see that much.
    assert "nn/train_config.h" in code_naming(DEFAULT_GAME)


def files_touched(game: str) -> list[str]:
    """What adding `game` touched outside its folder: the registry, its configs and its notebook."""
    registry = (ROOT / "games" / "registry.cc").read_text()
    out = ["games/registry.cc"] if f"games/{game}/{game}.h" in registry and f"{game}_spec()" in registry else []
    out += [str(p.relative_to(ROOT)) for p in sorted((ROOT / "configs").glob(f"{game}*.yaml"))]
    out += [str(p.relative_to(ROOT)) for p in sorted((ROOT / "experiments").glob(f"{game}.ipynb"))]
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_game_is_its_folder_a_registry_line_its_config_and_its_notebook(game):
    folder = ROOT / "games" / game
    for name in (f"{game}.h", f"{game}.cc", f"{game}_test.cc", "playthroughs"):
        assert (folder / name).exists(), f"games/{game}/{name}"
    touched = files_touched(game)
    assert touched[0] == "games/registry.cc" and f"experiments/{game}.ipynb" in touched, touched
    assert 3 <= len(touched) <= 4, touched  # a second config only for a second variant (Stratego's barrage)
    # Its drawing, when it has a board to draw, is in its folder and found by its name.
    has_board = boardlab.load_game(game).new_initial_state().diagram() is not None
    assert (folder / "render.py").is_file() == has_board


def test_the_readme_says_so():
    readme = (ROOT / "README.md").read_text()
    account = readme[readme.index("**Adding a game**"):]
    account = account[:account.index("\n\n")]
    for part in ("games/<name>/", "games/registry.cc", "configs/<name>.yaml", "experiments/<name>.ipynb",
                 "render.py", "_bindings.cc", "fuzz/", "_test.py"):
        assert part in account, part
