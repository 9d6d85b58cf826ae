"""Training runs from Python: start one, open an existing run folder, read its metrics, checkpoints and games."""

import csv
import os
import pathlib

from boardlab.engine import network_module

# How nn/training_run.cc marks a self-play game that a cap ended (games/selfplay.txt).
_TRUNCATED = " (truncated)"


def _number(text: str):
    if text == "":
        return None
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() and "." not in text else value


class Run:
    """A run folder (see nn/pipeline.h): config.yaml, checkpoints/, metrics.csv, games/, evaluation/, log.txt."""

    def __init__(self, path: "str | os.PathLike", summary: dict | None = None):
        self.path = pathlib.Path(path)
        if not (self.path / "config.yaml").is_file():
            raise ValueError(f"'{self.path}' is not a boardlab run folder (no config.yaml)")
        self.summary = summary or {}

    @classmethod
    def open(cls, path: "str | os.PathLike") -> "Run":
        return cls(path)

    @property
    def config(self) -> str:
        """The config as used, every key."""
        return (self.path / "config.yaml").read_text()

    @property
    def metrics(self):
        """metrics.csv: a pandas DataFrame when pandas is installed, else a list of dicts (numbers parsed, blanks None)."""
        path = self.path / "metrics.csv"
        try:
            import pandas  # noqa: F401
        except ImportError:
            pandas = None
        if pandas is not None:
            return pandas.read_csv(path)
        with open(path, newline="") as f:
            return [{key: _number(value) for key, value in row.items()} for row in csv.DictReader(f)]

    def metrics_rows(self) -> list[dict]:
        """metrics.csv as a list of dicts, whether or not pandas is installed."""
        with open(self.path / "metrics.csv", newline="") as f:
            return [{key: _number(value) for key, value in row.items()} for row in csv.DictReader(f)]

    @property
    def checkpoints(self) -> list[pathlib.Path]:
        """Step checkpoints, oldest first by step (latest.pt is a link to the last)."""
        return sorted((self.path / "checkpoints").glob("step_*.pt"), key=lambda p: int(p.stem.split("_")[1]))

    @property
    def latest_checkpoint(self) -> pathlib.Path:
        return self.path / "checkpoints" / "latest.pt"

    @property
    def games(self) -> list[dict]:
        """Self-play games: {"returns": [...], "record": "a1-b2-c3 ...", "truncated": bool}, records in the
        game's notation; a game ended by a cap that is not a rule is truncated."""
        path = self.path / "games" / "selfplay.txt"
        games = []
        if path.is_file():
            for line in path.read_text().splitlines():
                if not line.startswith("["):
                    continue
                returns, _, record = line[1:].partition("] ")
                truncated = record.endswith(_TRUNCATED)
                games.append({
                    "returns": [float(r) for r in returns.split(",")],
                    "record": record.removesuffix(_TRUNCATED),
                    "truncated": truncated,
                })
        return games

    @property
    def evaluations(self) -> dict[int, str]:
        """Each evaluation's table, by training step."""
        tables = {}
        for path in sorted((self.path / "evaluation").glob("step_*.txt")):
            tables[int(path.stem.split("_")[1])] = path.read_text()
        return tables

    @property
    def log(self) -> str:
        path = self.path / "log.txt"
        return path.read_text() if path.is_file() else ""

    def resume(self, overrides: list[str] | None = None, log=None) -> "Run":
        """Continues the run from its latest checkpoint (e.g. with overrides=["run.max_steps=2000"])."""
        summary = network_module().train(overrides=list(overrides or []), out=str(self.path), resume=True, log=log)
        self.summary = summary
        return self

    def __repr__(self):
        return f"Run({str(self.path)!r})"


def train(config: "str | os.PathLike", overrides: list[str] | dict | None = None, out=None, log=None) -> Run:
    """Runs a training run from a YAML config (the GIL is released while C++ works) and returns its Run.

    overrides: ["training.batch_size=64", ...] or {"training.batch_size": 64}; out: the run folder
    (default runs/<game>-<date>-<time>); log: a function called with each progress line (default: stderr).
    Ctrl-C or SIGTERM stops the run at its next safe point with a checkpoint: run.summary["interrupted"]
    is then True and run.summary["signal"] names the signal; resume() continues it.
    """
    if isinstance(overrides, dict):
        overrides = [f"{key}={_yaml_value(value)}" for key, value in overrides.items()]
    summary = network_module().train(
        config=str(config), overrides=list(overrides or []), out=str(out) if out else "", resume=False, log=log
    )
    return Run(summary["run_dir"], summary)


def _yaml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    return str(value)
