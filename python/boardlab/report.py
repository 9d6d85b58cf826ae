"""Results tables from run folders (`boardlab report`): each run's final figures, runs of one config grouped into
mean ± 95% interval rows across seeds, and a plot per group of its rating over steps, one line per seed.

A run's figures come from what it wrote: metrics.csv (length, steps, games; the in-run evaluations' Elo and
ladder rating), evaluation/step_N.json (the last in-run evaluation's scores) and, for a sweep's run,
sweep_job.json (its final checkpoint's evaluation, which then replaces the in-run one). Runs group by their
config.yaml with the seed left out, so the seeds of one configuration become one row.
"""

import csv
import json
import math
import os
import pathlib
from dataclasses import dataclass, field

from boardlab.errors import CliError
from boardlab.stats import INTERVAL_NOTE, Interval, mean_interval
from boardlab.sweep_plan import PLAN_FILE, folder_of, read_plan


@dataclass
class RunFigures:
    """One run's final figures; scores are percentages, ratings (elo, low, high)."""

    path: pathlib.Path
    game: str
    seed: int | None
    config: dict  # the flattened config.yaml without its seed: "search.simulations" -> 16
    steps: int | None = None
    games: int | None = None
    positions: int | None = None
    minutes: float | None = None
    evaluation: str = "none"  # where the scores come from
    scores: dict[str, float] = field(default_factory=dict)
    ladder: tuple[float, float, float] | None = None
    elo: tuple[float, float, float] | None = None
    elo_anchor: str | None = None
    curve: list[tuple[int, float, float, float]] = field(default_factory=list)  # (step, rating, low, high)
    curve_kind: str = ""  # "ladder Elo" or "Elo"

    def figures(self) -> dict[str, float]:
        """The numbers a group averages, by column name."""
        out: dict[str, float] = {}
        if self.ladder:
            out["ladder Elo"] = self.ladder[0]
        if self.elo:
            out[f"Elo vs {self.elo_anchor}"] = self.elo[0]
        for opponent, score in self.scores.items():
            out[f"vs {opponent} (%)"] = score
        for name, value in (("steps", self.steps), ("games", self.games), ("minutes", self.minutes)):
            if value is not None:
                out[name] = value
        return out

    def as_dict(self, base: pathlib.Path | None = None) -> dict:
        return {"run": _shown(self.path, base), "game": self.game, "seed": self.seed, "steps": self.steps,
                "games": self.games, "positions": self.positions, "minutes": self.minutes,
                "evaluation": self.evaluation, "scores": self.scores,
                "ladder": dict(zip(("elo", "low", "high"), self.ladder)) if self.ladder else None,
                "elo": {**dict(zip(("elo", "low", "high"), self.elo)), "anchor": self.elo_anchor} if self.elo else None}


@dataclass
class Group:
    """Runs of one configuration: a sweep's configuration, or identical config.yaml files but for the seed."""

    label: str
    runs: list[RunFigures]
    planned: int | None = None  # a sweep's seeds for this configuration, finished or not

    def summary(self) -> dict[str, Interval]:
        """Each figure's mean and interval over the runs that have it, in the column order of columns()."""
        out = {}
        for column in columns([self]):
            values = [run.figures()[column] for run in self.runs if column in run.figures()]
            if values:
                out[column] = mean_interval(values)
        return out


def _number(text: str):
    if text in ("", None):
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _flatten(config: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in config.items():
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _shown(path: pathlib.Path, base: pathlib.Path | None) -> str:
    if base is not None:
        try:
            return str(path.relative_to(base))
        except ValueError:
            pass
    return str(path)


def _read_metrics(path: pathlib.Path) -> list[dict]:
    if not path.is_file():
        return []
    with open(path, newline="") as f:
        return [{key: _number(value) for key, value in row.items() if key} for row in csv.DictReader(f)]


def read_run(path: "str | os.PathLike") -> RunFigures:
    """A run folder's figures, or one line saying why the folder is not a run."""
    import yaml

    path = pathlib.Path(path)
    config_path = path / "config.yaml"
    if not config_path.is_file():
        raise CliError(f"'{path}' is not a run folder (no config.yaml)")
    try:
        config = yaml.safe_load(config_path.read_text())
    except (OSError, yaml.YAMLError) as error:
        raise CliError(f"'{config_path}' cannot be read as a config: {str(error).splitlines()[0]}") from None
    if not isinstance(config, dict) or "game" not in config:
        raise CliError(f"'{config_path}' is not a boardlab config (no game)")
    flat = _flatten(config)
    seed = flat.pop("seed", None)
    run = RunFigures(path=path, game=str(config["game"]), seed=seed, config=flat)

    rows = _read_metrics(path / "metrics.csv")
    if rows:
        last = rows[-1]
        run.steps, run.games, run.positions = (int(last[k]) if last.get(k) is not None else None
                                               for k in ("step", "games", "positions"))
        run.minutes = last["seconds"] / 60 if last.get("seconds") is not None else None
    # The curve: the ladder rating where the run has one (it keeps rising), else the evaluation's own Elo.
    on_ladder = [r for r in rows if r.get("ladder_elo") is not None]
    if on_ladder:
        run.ladder = (on_ladder[-1]["ladder_elo"], on_ladder[-1]["ladder_low"], on_ladder[-1]["ladder_high"])
        rated, keys, run.curve_kind = on_ladder, ("ladder_elo", "ladder_low", "ladder_high"), "ladder Elo"
    else:
        rated, keys, run.curve_kind = [r for r in rows if r.get("elo") is not None], ("elo", "elo_low", "elo_high"), "Elo"
    run.curve = [(int(r["step"]), r[keys[0]], r[keys[1]], r[keys[2]]) for r in rated]

    evaluations = sorted((path / "evaluation").glob("step_*.json"), key=lambda p: int(p.stem.split("_")[1])) \
        if (path / "evaluation").is_dir() else []
    if evaluations:
        _read_in_run_evaluation(run, evaluations[-1])

    job = path / "sweep_job.json"
    if job.is_file():
        _read_sweep_evaluation(run, job)
    return run


def _read_in_run_evaluation(run: RunFigures, path: pathlib.Path) -> None:
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise CliError(f"'{path}' cannot be read as an evaluation: {error}") from None
    step = int(path.stem.split("_")[1])
    me = f"net@{step}"
    for pairing in data.get("pairings", []):
        if pairing["a"] == me:
            run.scores[pairing["b"]] = 100 * pairing["score"]
        elif pairing["b"] == me:
            run.scores[pairing["a"]] = 100 * (1 - pairing["score"])
    run.scores.pop("previous", None)
    players = {p["name"]: p for p in data.get("players", [])}
    anchor = next((name for name, p in players.items() if p.get("rated") and p.get("stderr") == 0 and name != me), None)
    mine = players.get(me)
    if mine and mine.get("rated") and anchor:
        run.elo, run.elo_anchor = (mine["elo"], mine["low"], mine["high"]), anchor
    run.evaluation = f"in-run evaluation at step {step}, {data.get('games', '?')} games"


def _read_sweep_evaluation(run: RunFigures, path: pathlib.Path) -> None:
    try:
        state = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise CliError(f"'{path}' cannot be read: {error}") from None
    trained = state.get("trained") or {}
    # The training's own summary counts past the last metrics row.
    run.steps, run.games = trained.get("steps", run.steps), trained.get("games", run.games)
    run.positions, run.minutes = trained.get("positions", run.positions), trained.get("minutes", run.minutes)
    evaluation = state.get("evaluation")
    if not evaluation:
        return
    run.scores = {opponent: 100 * score for opponent, score in evaluation["scores"].items()}
    ladder, elo = evaluation.get("ladder"), evaluation.get("elo")
    run.ladder = (ladder["elo"], ladder["low"], ladder["high"]) if ladder else None
    run.elo, run.elo_anchor = ((elo["elo"], elo["low"], elo["high"]), elo["anchor"]) if elo else (None, None)
    run.evaluation = (f"final checkpoint at {evaluation['simulations']} simulations, "
                      f"{evaluation['games']} games a pairing")


def expand(paths: list[str]) -> list[pathlib.Path]:
    """Run folders from the arguments: a run folder as it is, a sweep folder as its runs (those started)."""
    folders: list[pathlib.Path] = []
    for text in paths:
        path = pathlib.Path(text)
        if (path / "config.yaml").is_file():
            folders.append(path)
        elif (path / PLAN_FILE).is_file():
            folders.extend(path / job.folder for job in read_plan(path).jobs if (path / job.folder / "config.yaml").is_file())
        elif not path.exists():
            raise CliError(f"'{path}' does not exist")
        else:
            raise CliError(f"'{path}' is neither a run folder (no config.yaml) nor a sweep folder (no plan.json)")
    return list(dict.fromkeys(folders))


def _value_text(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def group_by_config(runs: list[RunFigures]) -> list[Group]:
    """Runs with identical configs but for the seed, in the order first met; each group named by the keys in
    which the configs differ ('search.simulations=32'), or by its game when there is one group."""
    keyed: dict[str, list[RunFigures]] = {}
    for run in runs:
        keyed.setdefault(json.dumps(run.config, sort_keys=True, default=str), []).append(run)
    groups = list(keyed.values())
    all_keys = sorted({key for group in groups for key in group[0].config})
    differing = [key for key in all_keys if len({json.dumps(g[0].config.get(key), default=str) for g in groups}) > 1]
    out = []
    for group in groups:
        label = ",".join(f"{key}={_value_text(group[0].config.get(key))}" for key in differing) or group[0].game
        out.append(Group(label=label, runs=sorted(group, key=lambda r: (r.seed is None, r.seed or 0))))
    return out


def columns(groups: list[Group]) -> list[str]:
    """The figures the table shows, ratings first, then scores by opponent (in the order first met), then length."""
    seen: list[str] = []
    for group in groups:
        for run in group.runs:
            for name in run.figures():
                if name not in seen:
                    seen.append(name)
    order = {"ladder Elo": 0, "steps": 3, "games": 4, "minutes": 5}
    return sorted(seen, key=lambda c: (order.get(c, 1 if c.startswith("Elo") else 2), seen.index(c)))


_DIGITS = {"steps": 0, "games": 0, "minutes": 1}


def _format(column: str, value: float) -> str:
    if "Elo" in column:
        return f"{value:+.0f}"
    return f"{value:,.{_DIGITS.get(column, 1)}f}"


def _interval_text(column: str, interval: Interval) -> str:
    """Strength figures with their interval; a run's length (steps, games, minutes) as its mean alone."""
    if column in _DIGITS:
        return _format(column, interval.mean)
    return interval.text(0 if "Elo" in column else 1, signed="Elo" in column)


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A GitHub markdown table; '|' inside a cell is escaped."""
    def line(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    return "\n".join([line(headers), "|" + "---|" * len(headers), *(line(r) for r in rows)]) + "\n"


def summary_data(groups: list[Group], base: pathlib.Path | None = None) -> dict:
    """The tables as JSON: per group its runs' figures and each figure's mean and interval."""
    return {"interval": INTERVAL_NOTE,
            "configurations": [{"label": g.label, "planned": g.planned, "runs": [r.as_dict(base) for r in g.runs],
                                "summary": {k: v.as_dict() for k, v in g.summary().items()}} for g in groups]}


def summary_markdown(groups: list[Group], title: str, preface: str = "", base: pathlib.Path | None = None,
                     plots: dict[str, str] | None = None) -> str:
    """A summary table (a row per group: mean ± interval of each figure) and a table of every run's figures."""
    shown = columns(groups)
    rated = [c for c in shown if "Elo" in c]
    summary_rows = []
    for group in groups:
        summary = group.summary()
        count = f"{len(group.runs)} of {group.planned}" if group.planned is not None else str(len(group.runs))
        summary_rows.append([group.label, count, *(_interval_text(c, summary[c]) if c in summary else "–"
                                                    for c in shown)])
    run_rows = []
    for group in groups:
        for run in group.runs:
            figures = run.figures()
            cells = []
            for column in shown:
                if column not in figures:
                    cells.append("–")
                elif column == "ladder Elo":
                    cells.append(f"{run.ladder[0]:+.0f} [{run.ladder[1]:+.0f}, {run.ladder[2]:+.0f}]")
                elif column.startswith("Elo vs"):
                    cells.append(f"{run.elo[0]:+.0f} [{run.elo[1]:+.0f}, {run.elo[2]:+.0f}]")
                else:
                    cells.append(_format(column, figures[column]))
            run_rows.append([group.label, "–" if run.seed is None else str(run.seed), _shown(run.path, base),
                             run.evaluation, *cells])
    parts = [f"# {title}\n"]
    if preface:
        parts.append(preface + "\n")
    parts.append(f"Each figure of a configuration: the {INTERVAL_NOTE}; one seed has no interval; steps, games "
                 "and minutes are means. A strength claim needs at least three seeds. Scores are the agent's "
                 "percentage (a draw counts half); ratings are Elo, random = 0, and on the game's ladder (its "
                 "rungs held at their stored ratings) where it has one.\n")
    parts.append("## By configuration\n")
    parts.append(markdown_table(["configuration", "seeds", *shown], summary_rows))
    if plots:
        parts.append("")
        parts.extend(f"![{label}]({path})\n" for label, path in plots.items())
    parts.append("\n## Every run\n")
    parts.append(markdown_table(["configuration", "seed", "run", "evaluation", *shown], run_rows))
    if rated:
        parts.append("\nA run's rating is shown with its own 95% interval from its evaluation games.\n")
    return "\n".join(parts)


def plot_groups(groups: list[Group], folder: pathlib.Path) -> dict[str, str]:
    """One PNG per group that has ratings over steps: a line per seed with its interval shaded. Returns
    {group label: file name relative to folder's parent}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = {}
    for group in groups:
        curves = [run for run in group.runs if run.curve]
        if not curves:
            continue
        folder.mkdir(parents=True, exist_ok=True)
        fig, axes = plt.subplots(figsize=(7, 4))
        for i, run in enumerate(curves):
            steps = [p[0] for p in run.curve]
            axes.plot(steps, [p[1] for p in run.curve], marker="o", color=f"C{i}",
                      label=f"seed {run.seed}" if run.seed is not None else run.path.name)
            axes.fill_between(steps, [p[2] for p in run.curve], [p[3] for p in run.curve], color=f"C{i}", alpha=0.15)
        kinds = {run.curve_kind for run in curves}
        kind = kinds.pop() if len(kinds) == 1 else "Elo / ladder Elo"
        axes.set(title=group.label, xlabel="step", ylabel=f"{kind} (random = 0)")
        axes.legend(fontsize="small")
        fig.tight_layout()
        name = f"{folder_of(group.label)}.png"
        fig.savefig(folder / name, dpi=80)
        plt.close(fig)
        written[group.label] = f"{folder.name}/{name}"
    return written


def report(paths: list[str], out: "str | os.PathLike | None" = None) -> dict:
    """Reads the runs (sweep folders expanded), groups them by config and returns {"markdown", "data"}; with out,
    writes report.md, report.json and plots/ there."""
    runs = [read_run(folder) for folder in expand(paths)]
    if not runs:
        raise CliError("no runs to report: the folders hold no started run")
    groups = group_by_config(runs)
    plots = None
    if out is not None:
        out = pathlib.Path(out)
        if out.exists() and not out.is_dir():
            raise CliError(f"--out '{out}' is a file, not a folder")
        out.mkdir(parents=True, exist_ok=True)
        plots = plot_groups(groups, out / "plots")
    markdown = summary_markdown(groups, f"Report of {len(runs)} run{'s' * (len(runs) != 1)}", plots=plots)
    data = summary_data(groups)
    if out is not None:
        (out / "report.md").write_text(markdown)
        (out / "report.json").write_text(json.dumps(data, indent=2) + "\n")
    return {"markdown": markdown, "data": data}
