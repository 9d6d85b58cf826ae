"""Sweeps: a grid of configurations × seeds, each trained, its final checkpoint evaluated, and a table of the mean
± 95% interval across seeds per configuration (`boardlab sweep`).

A sweep folder DIR holds plan.json (what to run: the config, the grid, the seeds, the evaluation), one run folder
per job, DIR/<configuration>/seed<k>, and the tables sweep.json and sweep.md. Each run folder gets sweep_job.json
once its training is done and again once its evaluation is, so a rerun of the same command skips finished jobs,
resumes a killed run with `boardlab train --resume`'s machinery and evaluates what was trained. Jobs run one after
another, or split across the ranks of an MPI or scheduler job (index ≡ rank mod ranks, each rank training alone),
with `--collect` making the tables from whatever is finished.
"""

import contextlib
import hashlib
import itertools
import json
import os
import pathlib
import re
import signal

import boardlab
from boardlab import _boardlab
from boardlab.engine import network_module
from boardlab.errors import CliError
from boardlab.sweep_plan import JOB_FILE, PLAN_FILE, Job, Plan, folder_of, label_of, read_json, read_plan

# What nn/mpi_world.cc reads to decide that a process was launched by mpirun or srun: a sweep rank's training
# must not see them, or every rank's run would join one distributed training.
_MPI_LAUNCH_VARIABLES = ("OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK")
# Where a scheduler says which rank this process is: (rank, number of ranks).
_RANK_VARIABLES = (("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"), ("SLURM_PROCID", "SLURM_NTASKS"))


class SweepStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped a job's training or evaluation; what was done is kept for the next run."""

    def __init__(self, signum: int | None):
        super().__init__()
        self.signum = signum or signal.SIGINT


def split_top_level(text: str) -> list[str]:
    """Splits at commas outside brackets, parentheses and quotes: 'a,[b, c],"d,e"' -> ['a', '[b, c]', '"d,e"']."""
    parts, depth, quote, current = [], 0, None, []
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return parts


def parse_grid(items: list[str]) -> list[tuple[str, list[str]]]:
    """--grid key=a,b (repeatable) -> [(key, [a, b]), ...], each key a config key path as --set takes."""
    grid: list[tuple[str, list[str]]] = []
    for item in items:
        key, eq, values_text = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise CliError(f"--grid '{item}': expected key.path=value,value,...")
        if key == "seed":
            raise CliError("--grid seed: the seeds come from --seeds and --first-seed")
        if key in (k for k, _ in grid):
            raise CliError(f"--grid {key} is given twice: list all its values in one --grid {key}=a,b")
        values = split_top_level(values_text)
        if any(not v for v in values):
            raise CliError(f"--grid '{item}': an empty value (values are separated by commas; quote a value "
                           "with commas or put it in brackets)")
        if len(set(values)) != len(values):
            raise CliError(f"--grid {key}: a value is listed twice")
        grid.append((key, values))
    return grid


def _config_text(config: str) -> str:
    try:
        return pathlib.Path(config).read_text()
    except OSError as error:
        raise CliError(f"config file '{config}' cannot be read: {error.strerror}") from None


def _check_overrides(config: str, overrides: list[str], what: str | None = None) -> str:
    """The resolved config YAML, or one line naming the bad key or value (the one parser `train --set` uses, whose
    message names the --set item; `what` names the flag instead where the item came from another)."""
    try:
        return network_module().config_yaml(config, overrides)
    except ValueError as error:
        if what is None:
            raise CliError(str(error)) from None
        reason = re.sub(r"^--set [^:]*: ", "", str(error))
        raise CliError(f"{what}: {reason}") from None


def make_plan(config: str, grid: list[tuple[str, list[str]]], sets: list[str], seeds: int, first_seed: int = 1,
              minutes: float | None = None, eval_games: int = 100, against: list[str] | None = None) -> Plan:
    """The jobs of a sweep, every configuration checked by the config parser before anything runs.

    Jobs go seed by seed (every configuration with the first seed, then the second...), so that a sweep stopped
    half way has comparable figures for every configuration; each seed's configurations start one further along,
    so that ranks taking every K-th job each run a mix of configurations rather than one configuration's every seed
    (which would confound a configuration with its machine's speed in time-limited runs)."""
    if not os.path.isfile(config):
        raise CliError(f"config file '{config}' does not exist")
    if seeds < 1:
        raise CliError(f"--seeds must be at least 1, got {seeds}")
    if any(s.partition("=")[0].strip() == "seed" for s in sets):
        raise CliError("--set seed=...: the seeds come from --seeds and --first-seed")
    grid_keys = {key for key, _ in grid}
    for item in sets:
        if item.partition("=")[0].strip() in grid_keys:
            raise CliError(f"--set {item}: {item.partition('=')[0].strip()} is also a --grid key")
    text = _config_text(config)
    extra = [*sets, *([f"run.max_minutes={minutes:g}"] if minutes is not None else [])]
    _check_overrides(config, extra)
    for key, values in grid:
        for value in values:
            _check_overrides(config, [*extra, f"{key}={value}"], f"--grid {key}={value}")
    combinations = [tuple(f"{key}={value}" for (key, _), value in zip(grid, chosen))
                    for chosen in itertools.product(*(values for _, values in grid))]
    folders: dict[str, str] = {}
    for overrides in combinations:
        label = label_of(overrides)
        folder = folder_of(label)
        if folder in folders.values():
            raise CliError(f"--grid: configurations '{label}' and '{next(k for k, v in folders.items() if v == folder)}'"
                           f" would share the folder '{folder}'")
        folders[label] = folder
    plan = Plan(config=os.path.abspath(config), config_sha256=hashlib.sha256(text.encode()).hexdigest(), sets=list(sets),
                grid=grid, seeds=list(range(first_seed, first_seed + seeds)), minutes=minutes, eval_games=eval_games,
                against=list(against or []))
    for turn, seed in enumerate(plan.seeds):
        shift = turn % len(combinations)
        for overrides in combinations[shift:] + combinations[:shift]:
            label = label_of(overrides)
            plan.jobs.append(Job(len(plan.jobs), label, overrides, seed, f"{folders[label]}/seed{seed}"))
    return plan


def _write_json(path: pathlib.Path, data: dict) -> None:
    """Written whole or not at all (a temporary file renamed), so a killed sweep never leaves half a file."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(data, indent=2) + "\n")
    os.replace(temporary, path)


def _shown_value(value) -> str:
    if isinstance(value, list):
        value = " ".join(map(str, value)) or "none"
    text = str(value)
    return f"'{text}'" if len(text) <= 80 else f"'{text[:77]}...'"


def store_plan(out: "str | os.PathLike", plan: Plan) -> None:
    """Writes plan.json, refusing a folder that holds a sweep of another config, --set, --minutes or evaluation
    (its runs would not compare); more seeds or grid values than before continue the sweep."""
    out = pathlib.Path(out)
    if out.exists() and not out.is_dir():
        raise CliError(f"--out '{out}' is a file, not a folder")
    if (out / PLAN_FILE).is_file():
        old = read_plan(out).fixed()
        for key, value in plan.fixed().items():
            if old.get(key) != value:
                if key == "config_sha256":
                    raise CliError(f"'{out}' holds a sweep of another version of {plan.config} (the file changed "
                                   "since): its runs would not compare; choose another --out")
                raise CliError(f"'{out}' holds a sweep with other {key}: {_shown_value(old.get(key))} then, "
                               f"{_shown_value(value)} now; rerun with its arguments or choose another --out")
    try:
        out.mkdir(parents=True, exist_ok=True)
        _write_json(out / PLAN_FILE, plan.as_dict())
    except OSError as error:
        raise CliError(f"--out '{out}' is not a writable folder: {error.strerror}") from None


def rank_of(rank: int | None, ranks: int | None, environ=os.environ) -> tuple[int, int]:
    """(rank, ranks): from --rank/--ranks, else from mpirun's or SLURM's environment, else (0, 1)."""
    if (rank is None) != (ranks is None):
        raise CliError("give --rank and --ranks together")
    if rank is None:
        for rank_name, size_name in _RANK_VARIABLES:
            if rank_name in environ and size_name in environ:
                try:
                    rank, ranks = int(environ[rank_name]), int(environ[size_name])
                except ValueError:
                    raise CliError(f"{rank_name}={environ[rank_name]!r}, {size_name}={environ[size_name]!r}: "
                                   "not whole numbers") from None
                break
        else:
            return 0, 1
    if ranks < 1 or not 0 <= rank < ranks:
        raise CliError(f"rank {rank} of {ranks}: a rank lies from 0 to ranks - 1")
    return rank, ranks


def jobs_of_rank(plan: Plan, rank: int, ranks: int) -> list[Job]:
    """This rank's share: the jobs whose index ≡ rank (mod ranks). The shares are disjoint and cover every job."""
    return [job for job in plan.jobs if job.index % ranks == rank]


@contextlib.contextmanager
def _training_alone():
    """Hides the MPI launch variables while a run trains, so a sweep rank's run stays one process."""
    saved = {name: os.environ.pop(name) for name in _MPI_LAUNCH_VARIABLES if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def job_state(out: "str | os.PathLike", job: Job) -> dict:
    """What is done of a job: {} before its training ends, then 'trained' and, once evaluated, 'evaluation'."""
    path = pathlib.Path(out) / job.folder / JOB_FILE
    return read_json(path, "sweep job file") if path.is_file() else {}


def _train(out: pathlib.Path, plan: Plan, job: Job, log) -> dict:
    folder = out / job.folder
    nn = network_module()
    with _training_alone():
        if (folder / "config.yaml").is_file():
            log(f"resuming {job.folder}")
            summary = nn.train(config="", overrides=[], out=str(folder), resume=True)
        else:
            overrides = [*plan.sets, *([f"run.max_minutes={plan.minutes:g}"] if plan.minutes is not None else []),
                         *job.overrides, f"seed={job.seed}"]
            folder.mkdir(parents=True, exist_ok=True)
            summary = nn.train(config=plan.config, overrides=overrides, out=str(folder), resume=False)
    if summary["interrupted"]:
        raise SweepStopped(summary["signal"])
    return {"steps": summary["steps"], "games": summary["games"], "positions": summary["positions"],
            "minutes": summary["seconds"] / 60}


def _config_values(folder: pathlib.Path) -> dict:
    import yaml

    return yaml.safe_load((folder / "config.yaml").read_text())


def scores_of(report: dict, player: str) -> tuple[dict[str, float], dict[str, list[int]]]:
    """`player`'s score against each opponent (a fraction: a win 1, a draw ½) and its wins, draws and losses,
    from an arena report's pairings, whichever side of a pairing the player is on."""
    scores, results = {}, {}
    for pairing in report["pairings"]:
        if pairing["a"] == player:
            opponent, score, wdl = pairing["b"], pairing["score"], [pairing["wins"], pairing["draws"], pairing["losses"]]
        elif pairing["b"] == player:
            opponent, score = pairing["a"], 1.0 - pairing["score"]
            wdl = [pairing["losses"], pairing["draws"], pairing["wins"]]
        else:
            continue
        scores[opponent], results[opponent] = score, wdl
    return scores, results


def evaluate_job(out: pathlib.Path, plan: Plan, job: Job) -> dict:
    """Plays the job's final checkpoint (at its run's evaluation.simulations) against the game's ladder when the
    game has one and against --against; with neither, against the config's evaluation opponents."""
    folder = out / job.folder
    config = _config_values(folder)
    game = boardlab.load_game(config["game"])
    ladder = boardlab.find_ladder(game)
    opponents = list(plan.against) or ([] if ladder else list(config["evaluation"]["opponents"]))
    agent = _boardlab.player_spec("agent", str(folder / "checkpoints" / "latest.pt"), [])
    if ladder:
        opponents += [r["player"] for r in ladder["rungs"] if r["player"] not in opponents]
    report = boardlab.evaluate(opponents, game, games=plan.eval_games, against=agent, ladder=bool(ladder),
                               opening_turns=ladder["opening_turns"] if ladder else None)
    if report["stopped"]:
        raise SweepStopped(report["signal"])
    scores, results = scores_of(report, agent)
    rating = next((r for r in report["elo"] if r["player"] == agent and r["rated"]), None)
    anchor = next((r["player"] for r in report["elo"] if r["rated"] and r["stderr"] == 0 and r["player"] != agent),
                  None)
    on_ladder = None
    if ladder:
        mine = next(r for r in report["ladder"]["ratings"] if r["player"] == agent)
        on_ladder = {"elo": mine["elo"], "low": mine["low"], "high": mine["high"]} if mine["rated"] else None
    return {"game": str(report["game"]), "games": plan.eval_games, "simulations": config["evaluation"]["simulations"],
            "opponents": opponents, "scores": scores, "results": results, "ladder": on_ladder,
            "elo": {"elo": rating["elo"], "low": rating["low"], "high": rating["high"], "anchor": anchor}
            if rating and anchor else None,
            "seconds": report["seconds"]}


def run_job(out: "str | os.PathLike", plan: Plan, job: Job, log=print) -> dict:
    """Trains (or resumes) and evaluates one job unless done; returns its sweep_job.json."""
    out = pathlib.Path(out)
    state = job_state(out, job)
    if state.get("evaluation"):
        log(f"[{job.index + 1}/{len(plan.jobs)}] {job.folder}: done, skipped")
        return state
    path = out / job.folder / JOB_FILE
    if not state.get("trained"):
        log(f"[{job.index + 1}/{len(plan.jobs)}] {job.folder}: training")
        state = {"label": job.label, "seed": job.seed, "overrides": list(job.overrides),
                 "trained": _train(out, plan, job, log)}
        _write_json(path, state)
    log(f"[{job.index + 1}/{len(plan.jobs)}] {job.folder}: evaluating its final checkpoint")
    state["evaluation"] = evaluate_job(out, plan, job)
    _write_json(path, state)
    return state


def run_sweep(out: "str | os.PathLike", plan: Plan, rank: int = 0, ranks: int = 1, log=print) -> list[dict]:
    """Stores the plan and runs this rank's jobs in order; each finished job's state, in job order."""
    store_plan(out, plan)
    return [run_job(out, plan, job, log) for job in jobs_of_rank(plan, rank, ranks)]


def collect(out: "str | os.PathLike") -> dict:
    """Makes sweep.json and sweep.md from the finished jobs of a sweep folder; returns sweep.json's content and
    the markdown under "markdown"."""
    from boardlab.report import Group, read_run, summary_data, summary_markdown

    out = pathlib.Path(out)
    plan = read_plan(out)
    groups = []
    for label in plan.labels():
        jobs = [job for job in plan.jobs if job.label == label]
        runs = [read_run(out / job.folder) for job in jobs if job_state(out, job).get("evaluation")]
        groups.append(Group(label=label, runs=runs, planned=len(jobs)))
    title = f"Sweep of {plan.config}: {len(groups)} configuration{'s' * (len(groups) != 1)} × {len(plan.seeds)} " \
            f"seed{'s' * (len(plan.seeds) != 1)} ({plan.seeds[0]}–{plan.seeds[-1]})"
    against = ", ".join(plan.against) or "the config's evaluation opponents (or the ladder's rungs)"
    preface = (f"Each run: `boardlab train --config {plan.config}"
               + "".join(f" --set {s}" for s in plan.sets)
               + (f" --set run.max_minutes={plan.minutes:g}" if plan.minutes is not None else "")
               + " --set seed=K` and the configuration's keys; then its final checkpoint, at its run's "
               f"evaluation.simulations, plays {plan.eval_games} games against each of {against}, "
               "and against the game's ladder where it has one.")
    markdown = summary_markdown(groups, title, preface, base=out)
    data = {"plan": plan.as_dict(), **summary_data(groups, base=out)}
    _write_json(out / "sweep.json", data)
    (out / "sweep.md").write_text(markdown)
    return {**data, "markdown": markdown}
