"""A sweep folder's plan: its configurations and seeds as jobs, each job's folder, and plan.json read back (`boardlab sweep`)."""

import json
import os
import pathlib
import re
from dataclasses import dataclass, field

from boardlab.errors import CliError

PLAN_FILE = "plan.json"
JOB_FILE = "sweep_job.json"
BASE_LABEL = "base"  # the configuration of a sweep without --grid


@dataclass(frozen=True)
class Job:
    """One training run of a sweep: a configuration (its grid values) with one seed."""

    index: int
    label: str
    overrides: tuple[str, ...]
    seed: int
    folder: str  # relative to the sweep folder

    def as_dict(self) -> dict:
        return {"index": self.index, "label": self.label, "overrides": list(self.overrides), "seed": self.seed,
                "folder": self.folder}


@dataclass
class Plan:
    """Everything that decides a sweep's jobs and their results."""

    config: str  # absolute path of the config file
    config_sha256: str
    sets: list[str]
    grid: list[tuple[str, list[str]]]
    seeds: list[int]
    minutes: float | None
    eval_games: int
    against: list[str]
    jobs: list[Job] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"config": self.config, "config_sha256": self.config_sha256, "sets": self.sets,
                "grid": [{"key": key, "values": values} for key, values in self.grid], "seeds": self.seeds,
                "minutes": self.minutes, "eval_games": self.eval_games, "against": self.against,
                "jobs": [job.as_dict() for job in self.jobs]}

    @classmethod
    def from_dict(cls, data: dict) -> "Plan":
        return cls(config=data["config"], config_sha256=data["config_sha256"], sets=list(data["sets"]),
                   grid=[(g["key"], list(g["values"])) for g in data["grid"]], seeds=list(data["seeds"]),
                   minutes=data["minutes"], eval_games=data["eval_games"], against=list(data["against"]),
                   jobs=[Job(j["index"], j["label"], tuple(j["overrides"]), j["seed"], j["folder"])
                         for j in data["jobs"]])

    def labels(self) -> list[str]:
        """The configurations' labels in grid order."""
        return list(dict.fromkeys(job.label for job in self.jobs))

    # What must be equal for a rerun to continue a sweep folder: the seeds and the grid's values may grow.
    def fixed(self) -> dict:
        return {"config": self.config, "config_sha256": self.config_sha256, "sets": self.sets,
                "grid keys": [key for key, _ in self.grid], "minutes": self.minutes, "eval_games": self.eval_games,
                "against": self.against}


def label_of(overrides: tuple[str, ...]) -> str:
    """A configuration's readable name: its grid values, 'search.simulations=32,training.batch_size=64'."""
    return ",".join(overrides) if overrides else BASE_LABEL


def folder_of(label: str) -> str:
    """A label as a folder name: characters that a path or an agent spec would read otherwise become '_'."""
    name = re.sub(r"[^A-Za-z0-9._=,+-]", "_", label)
    return name if name not in (".", "..") else f"_{name}"


def read_json(path: pathlib.Path, what: str) -> dict:
    try:
        return json.loads(path.read_text())
    except OSError as error:
        raise CliError(f"{what} '{path}' cannot be read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise CliError(f"{what} '{path}' is not valid JSON: {error.msg} at line {error.lineno}") from None


def read_plan(out: "str | os.PathLike") -> Plan:
    """The plan of a sweep folder, or one line saying why there is none."""
    path = pathlib.Path(out) / PLAN_FILE
    if not path.is_file():
        raise CliError(f"'{out}' is not a sweep folder (no {PLAN_FILE})")
    try:
        return Plan.from_dict(read_json(path, "sweep plan"))
    except (KeyError, TypeError, ValueError) as error:
        raise CliError(f"sweep plan '{path}' is malformed: {error}") from None
