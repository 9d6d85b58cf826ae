"""The house's layers, read from the sources: includes run only downwards, torch stays in nn/, and no file imports one that imports it back."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Lowest first: a file may include its own layer's headers and those of the layers before it.
LAYERS = ["core", "files", "config", "games", "arena", "mcts", "nn", "python"]
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def layer_of(path: Path, folder: str) -> str:
    """A file's layer: its top folder's, except the parts of a game that belong to higher layers but live
    in the game's folder: its Python bindings (games/GAME/*_bindings.cc) and its fuzz targets."""
    if folder == "games" and path.name.endswith("_bindings.cc"):
        return "python"
    if folder == "games" and path.parent.name == "fuzz":
        return "fuzz"
    return folder


def cpp_sources():
    for folder in LAYERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".h", ".cc") and not path.name.endswith("_test.cc"):
                yield layer_of(path, folder), path


def includes(path: Path) -> list[str]:
    return INCLUDE.findall(path.read_text(encoding="utf-8"))


def test_includes_run_only_downwards():
    upward = []
    for layer, path in cpp_sources():
        for included in includes(path):
            top = included.split("/")[0]
            if layer in LAYERS and top in LAYERS and LAYERS.index(top) > LAYERS.index(layer):
                upward.append(f"{path.relative_to(ROOT)} includes {included}")
    assert not upward, "includes from a lower layer to a higher one:\n" + "\n".join(upward)


def test_torch_headers_stay_inside_nn():
    outside = [
        str(path.relative_to(ROOT))
        for layer, path in cpp_sources()
        if layer != "nn" and any(i.startswith(("torch/", "ATen/", "c10/")) for i in includes(path))
    ]
    assert not outside, f"torch headers outside nn/: {outside}"


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph as the list of its nodes (the first repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_cycle_finder_finds_cycles():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_no_header_includes_one_that_includes_it_back():
    graph = {}
    for _, path in cpp_sources():
        if path.suffix == ".h":
            name = str(path.relative_to(ROOT))
            graph[name] = {i for i in includes(path) if (ROOT / i).is_file()}
    assert cycle(graph) == []


def python_imports(path: Path, module: str) -> set[str]:
    """The package's modules `module` (at `path`) imports, the package itself left out: importing
    `boardlab` from inside it is how a submodule reaches the extension's names."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("boardlab.")}


def test_no_python_module_imports_one_that_imports_it_back():
    source = ROOT / "python"
    modules = {}
    for path in sorted((source / "boardlab").rglob("*.py")):
        parts = path.relative_to(source).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {name: {i for i in python_imports(path, name) if i in modules} for name, path in modules.items()}
    # A package's __init__ gathering its submodules (`from boardlab.render import war`) is not a
    # cycle with them: Python makes the package before a submodule runs.
    for name in graph:
        graph[name] -= {name} | {other for other in graph if name.startswith(other + ".")}
    assert cycle(graph) == [], "a cycle of imports"


@pytest.mark.parametrize("layer", LAYERS)
def test_every_layer_has_its_folder(layer):
    assert (ROOT / layer).is_dir()
