"""Runs in the web app: the run folders under --runs, and what the page shows of one (metrics, evaluations, newest self-play games, checkpoints)."""

import os
import pathlib
import stat

from boardlab.runs import Run
from boardlab.serve.messages import clip

NEWEST_GAMES = 5  # self-play games sent to the page, newest first


class RunsFolder:
    """The folder `boardlab serve --runs` names; every path the page sends is checked to lie inside it."""

    def __init__(self, root: "str | os.PathLike"):
        self.root = pathlib.Path(root).resolve()

    def list(self) -> list[dict]:
        """Run folders (a config.yaml inside) up to two levels down, newest first."""
        if not self.root.is_dir():
            return []
        found = []
        for config in [*self.root.glob("*/config.yaml"), *self.root.glob("*/*/config.yaml")]:
            folder = config.parent
            metrics = folder / "metrics.csv"
            modified = max(config.stat().st_mtime, metrics.stat().st_mtime if metrics.is_file() else 0)
            found.append({"path": str(folder.relative_to(self.root)), "game": _config_game(config),
                          "modified": modified})
        return sorted(found, key=lambda r: -r["modified"])

    def open(self, relative: str) -> Run:
        """The run at `relative` (as list() names it); ValueError when it is not a run inside the folder."""
        path = self._inside(relative)
        if path is None:
            raise ValueError(f"{clip(relative)!r} is outside the runs folder {self.root}")
        return Run(path)  # ValueError: not a run folder

    def checkpoint(self, relative: str) -> str:
        """A checkpoint file inside the folder, by its path relative to it. A path outside it, a file that is
        not there and one that is no regular file (a FIFO, a device) get the one refusal: a page learns
        nothing of the files around."""
        path = self._inside(relative)
        if path is None or not _is_regular_file(path):
            raise ValueError(f"no checkpoint {clip(relative)!r} in the runs folder: name a .pt file inside it, "
                             "as a run's page lists them")
        return str(path)

    def _inside(self, relative: str) -> pathlib.Path | None:
        """`relative` resolved (links followed), if it lies in the folder."""
        try:
            path = (self.root / relative).resolve()
        except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL
            return None
        return path if path == self.root or self.root in path.parents else None


def _is_regular_file(path: pathlib.Path) -> bool:
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:  # not there, a name too long, a folder not searchable
        return False


def _config_game(config: pathlib.Path) -> str:
    for line in config.read_text(errors="replace").splitlines():
        if line.startswith("game:"):
            return line.partition(":")[2].split("#")[0].strip()
    return "?"


def run_stamp(run: Run) -> tuple:
    """What changes while a run trains: the page is sent the run again when this does."""
    parts = [run.path / "metrics.csv", run.path / "games" / "selfplay.txt", run.path / "evaluation",
             run.path / "checkpoints"]
    return tuple(p.stat().st_mtime_ns if p.exists() else 0 for p in parts)


def run_summary(folder: RunsFolder, run: Run) -> dict:
    """The page's picture of a run: metrics as columns, evaluation tables by step, the newest self-play
    games, the checkpoints (paths relative to the runs folder) and the log's last lines."""
    rows = run.metrics_rows() if (run.path / "metrics.csv").is_file() else []
    columns: dict[str, list] = {}
    for row in rows:
        for key in row:
            columns.setdefault(key, [])
    for row in rows:
        for key in columns:
            value = row.get(key)
            columns[key].append(value if isinstance(value, (int, float)) else None)
    games = run.games
    newest = [{"index": len(games) - i, **g} for i, g in enumerate(reversed(games[-NEWEST_GAMES:]))]
    checkpoints = [str(p.relative_to(folder.root)) for p in reversed(run.checkpoints)]
    if run.latest_checkpoint.is_file():
        checkpoints.insert(0, str(run.latest_checkpoint.relative_to(folder.root)))
    return {
        "path": str(run.path.relative_to(folder.root)),
        "game": _config_game(run.path / "config.yaml"),
        "metrics": columns,
        "evaluations": {str(step): table for step, table in run.evaluations.items()},
        "games": newest,
        "game_count": len(games),
        "checkpoints": checkpoints,
        "log": run.log.splitlines()[-12:],
    }
