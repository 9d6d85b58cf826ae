"""The results README (experiments/results/README.md), generated from the manifest runs.yaml, the runs' metrics.csv
copies beside it, preface.md and the findings in notes/ (`boardlab report --results experiments/results`).

The manifest holds what metrics.csv cannot: each run's game, configuration, seed and the figures of the
`boardlab evaluate` runs made of its final checkpoint, as data. Steps, games and minutes come from the metrics
file (or the run's own final count where that ran past the file's last row). Runs of one configuration are
one group, and each group of several runs gets a row of mean ± 95% interval per opponent (boardlab.stats):
the README is rewritten from these files, never edited by hand, and a test keeps it equal to what they say.
"""

import csv
import pathlib

import boardlab
from boardlab.errors import CliError
from boardlab.report import markdown_table
from boardlab.stats import INTERVAL_NOTE, mean_interval

MANIFEST = "runs.yaml"
PREFACE = "preface.md"

_SECTION_KEYS = {"section", "game", "protocol", "games", "opponents", "positions", "notes", "configs"}
_CONFIG_KEYS = {"config", "runs"}
_RUN_KEYS = {"run", "metrics", "seed", "session", "end", "default", "note", "figures", "evaluations"}
_EVALUATION_KEYS = {"games", "agent", "opening", "seed", "checkpoint", "scores", "games_of", "results", "elo", "anchor",
                    "note"}


def _check_keys(entry, allowed: set[str], required: set[str], where: str) -> None:
    if not isinstance(entry, dict):
        raise CliError(f"{where}: expected a mapping, got {type(entry).__name__}")
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise CliError(f"{where}: unknown key '{unknown[0]}' (known: {', '.join(sorted(allowed))})")
    missing = sorted(required - set(entry))
    if missing:
        raise CliError(f"{where}: no '{missing[0]}'")


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_evaluation(evaluation, where: str) -> None:
    """An evaluation's figures are numbers where the tables compute with them: one line naming the first that is not."""
    _check_keys(evaluation, _EVALUATION_KEYS, set(), where)
    for opponent, score in (evaluation.get("scores") or {}).items():
        if not _is_number(score):
            raise CliError(f"{where}: the score against {opponent} is {score!r}, not a percentage")
    for player, rating in (evaluation.get("elo") or {}).items():
        if not (isinstance(rating, list) and len(rating) in (1, 3) and all(_is_number(v) for v in rating)):
            raise CliError(f"{where}: the Elo of {player} is {rating!r}, not [elo] or [elo, low, high]")
    for opponent, wdl in (evaluation.get("results") or {}).items():
        if not (isinstance(wdl, list) and len(wdl) == 3 and all(isinstance(v, int) for v in wdl)):
            raise CliError(f"{where}: the results against {opponent} are {wdl!r}, not [wins, draws, losses]")


def load_manifest(folder: pathlib.Path) -> list[dict]:
    """The sections of runs.yaml, checked: known keys only, every metrics file there and listed once, and every
    *.metrics.csv of the folder listed (no stored run goes unreported)."""
    import yaml

    path = folder / MANIFEST
    try:
        sections = yaml.safe_load(path.read_text())
    except OSError as error:
        raise CliError(f"'{path}' cannot be read: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise CliError(f"'{path}' is not valid YAML: {str(error).splitlines()[0]}") from None
    if not isinstance(sections, list):
        raise CliError(f"'{path}': expected a list of sections")
    listed: dict[str, str] = {}
    names: set[str] = set()
    for section in sections:
        _check_keys(section, _SECTION_KEYS, {"section", "game", "configs"}, f"{MANIFEST}, a section")
        where = f"{MANIFEST}, section '{section['section']}'"
        if section.get("notes") and not (folder / section["notes"]).is_file():
            raise CliError(f"{where}: its notes file '{section['notes']}' does not exist")
        for config in section["configs"]:
            _check_keys(config, _CONFIG_KEYS, _CONFIG_KEYS, f"{where}, a config")
            for run in config["runs"]:
                _check_keys(run, _RUN_KEYS, {"run"}, f"{where}, a run")
                name = f"{section['section']}: {run['run']}"
                if name in names:
                    raise CliError(f"{MANIFEST}: run '{name}' is listed twice")
                names.add(name)
                end = run.get("end")
                if end is not None and not (isinstance(end, list) and len(end) in (2, 3) and all(_is_number(v) for v in end)):
                    raise CliError(f"{MANIFEST}, run '{name}': end is [steps, games] or [steps, games, positions]")
                for i, evaluation in enumerate(run.get("evaluations", [])):
                    _check_evaluation(evaluation, f"{MANIFEST}, run '{name}', evaluation {i + 1}")
                metrics = run.get("metrics")
                if metrics:
                    if metrics in listed:
                        raise CliError(f"{MANIFEST}: '{metrics}' belongs to run '{listed[metrics]}' and to '{name}'")
                    if not (folder / metrics).is_file():
                        raise CliError(f"{MANIFEST}, run '{name}': its metrics file '{metrics}' does not exist")
                    listed[metrics] = name
    unlisted = sorted(p.name for p in folder.glob("*.metrics.csv") if p.name not in listed)
    if unlisted:
        raise CliError(f"'{unlisted[0]}' is in {folder} but no run of {MANIFEST} names it")
    return sections


def _last_row(path: pathlib.Path) -> dict:
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise CliError(f"'{path}' has no rows")
    return rows[-1]


def _percent(value) -> str:
    return f"{value:g}%"


def _elo(value: float) -> str:
    return f"{value:+.0f}".replace("-", "−")


def _rating(values) -> str:
    """[elo] or [elo, low, high] -> '+729' or '+729 [+449, +1009]'."""
    values = values if isinstance(values, list) else [values]
    if len(values) == 3:
        return f"{_elo(values[0])} [{_elo(values[1])}, {_elo(values[2])}]"
    return _elo(values[0])


def _score_cell(evaluation: dict, opponent: str, default_games: int | None) -> str:
    score = evaluation.get("scores", {}).get(opponent)
    if score is None:
        return "–"
    text = _percent(score)
    details = []
    results = evaluation.get("results", {}).get(opponent)
    if results:
        details.append("–".join(str(r) for r in results))
    games = evaluation.get("games_of", {}).get(opponent)
    if games is None and evaluation.get("games") not in (None, default_games):
        games = evaluation["games"]
    if games is not None:
        details.append(f"{games} games")
    return f"{text} ({', '.join(details)})" if details else text


def _elo_cells(evaluation: dict) -> tuple[str, str]:
    """(the agent's Elo, the baselines' Elo) in the fit of the evaluation, random = 0 unless the agent anchors."""
    elo = evaluation.get("elo")
    if not elo:
        return "–", "–"
    others = ", ".join(f"{player} {_rating(value)}" for player, value in elo.items() if player != "agent")
    if evaluation.get("anchor") == "agent":
        return "0 (anchor)", others or "–"
    return (_rating(elo["agent"]) if "agent" in elo else "–"), others or "–"


def _protocol(evaluation: dict, default_games: int | None) -> str:
    parts = []
    if evaluation.get("checkpoint"):
        parts.append(f"checkpoint {evaluation['checkpoint']}")
    if evaluation.get("agent"):
        parts.append(f"agent {evaluation['agent']}")
    if evaluation.get("games") not in (None, default_games):
        parts.append(f"{evaluation['games']} games a pairing")
    if evaluation.get("opening"):
        parts.append(f"opening: {evaluation['opening']}")
    if evaluation.get("seed") is not None:
        parts.append(f"`--seed {evaluation['seed']}`")
    if evaluation.get("note"):
        parts.append(evaluation["note"])
    return "; ".join(parts) or "as the table above"


def _note(run: dict, primary: dict) -> str:
    """The run's note, and what its table evaluation did beside the section's protocol (agent options, opening...)."""
    details = {k: v for k, v in primary.items() if k in ("agent", "opening", "seed", "checkpoint", "note")}
    parts = [run.get("note", ""), f"evaluation: {_protocol(details, None)}" if details else ""]
    return "; ".join(filter(None, parts))


def _figures_cell(run: dict) -> str:
    return "; ".join(f"{name} {value}" for name, value in (run.get("figures") or {}).items()) or "–"


def _length(folder: pathlib.Path, run: dict, positions: bool) -> tuple[str, str]:
    """('steps, games[, positions]', 'minutes'): the run's own final count where the manifest has it (`end`), else
    the metrics file's last row."""
    minutes, counts = "–", []
    if run.get("metrics"):
        last = _last_row(folder / run["metrics"])
        if last.get("seconds"):
            minutes = f"{float(last['seconds']) / 60:.1f}"
        counts = [int(float(last[key])) for key in ("step", "games", "positions")]
    if run.get("end"):
        counts = list(run["end"]) + counts[len(run["end"]):]
    shown = counts[:3 if positions else 2]
    return (", ".join(f"{v:,}" if i == 2 else str(v) for i, v in enumerate(shown)) or "–"), minutes


def _in_run(folder: pathlib.Path, run: dict) -> str:
    """The last in-run evaluation in the metrics file: its step and scores (the run's own small evaluation)."""
    if not run.get("metrics"):
        return "–"
    with open(folder / run["metrics"], newline="") as f:
        rows = [r for r in csv.DictReader(f) if any(k and k.startswith("score_vs_") and k != "score_vs_previous"
                                                     and r[k] for k in r)]
    if not rows:
        return "–"
    last = rows[-1]
    scores = [f"{k[len('score_vs_'):]} {100 * float(v):g}%" for k, v in last.items()
              if k and k.startswith("score_vs_") and k != "score_vs_previous" and v]
    return f"step {int(float(last['step']))}: " + ", ".join(scores)


def _section(folder: pathlib.Path, section: dict) -> str:
    opponents = list(section.get("opponents") or [])
    for config in section["configs"]:
        for run in config["runs"]:
            for evaluation in run.get("evaluations", []):
                opponents += [o for o in evaluation.get("scores", {}) if o not in opponents]
    default_games = section.get("games")
    positions = bool(section.get("positions"))
    headers = ["configuration", "run", "seed", "steps, games" + (", positions" if positions else ""), "minutes",
               *(f"vs {o}" for o in opponents), "Elo [95%]", "baselines' Elo", "last in-run evaluation",
               "other figures", "note"]
    rows, others = [], []
    for config in section["configs"]:
        for i, run in enumerate(config["runs"]):
            evaluations = run.get("evaluations") or [{}]
            primary = evaluations[0]
            name = f"[{run['run']}]({run['metrics']})" if run.get("metrics") else run["run"]
            name = f"**{name}**" if run.get("default") else name
            session = f" (session {run['session']})" if run.get("session") is not None else ""
            counts, minutes = _length(folder, run, positions)
            rows.append([config["config"] if i == 0 else "", name + session,
                         "–" if run.get("seed") is None else str(run["seed"]), counts, minutes,
                         *(_score_cell(primary, o, default_games) for o in opponents), *_elo_cells(primary),
                         _in_run(folder, run), _figures_cell(run), _note(run, primary)])
            for evaluation in evaluations[1:]:
                others.append([run["run"], _protocol(evaluation, default_games),
                               *(_score_cell(evaluation, o, evaluation.get("games")) for o in opponents),
                               *_elo_cells(evaluation)])
        runs = config["runs"]
        if len(runs) > 1:
            means = []
            for opponent in opponents:
                values = [r["evaluations"][0]["scores"][opponent] for r in runs
                          if r.get("evaluations") and opponent in r["evaluations"][0].get("scores", {})]
                means.append(mean_interval(values).text(1, unit="%") if len(values) > 1 else "–")
            rows.append(["", f"*mean ± 95% of {len(runs)} runs*", "", "", "", *means, "", "", "", "", ""])
    parts = [f"## {section['section']}\n"]
    if section.get("protocol"):
        parts.append(section["protocol"].strip() + "\n")
    if rows:
        parts.append(markdown_table(headers, rows))
    if others:
        parts.append(f"\nOther evaluations of these runs' networks ({default_games or 100} games a pairing unless "
                     "said):\n")
        parts.append(markdown_table(["run", "evaluation", *(f"vs {o}" for o in opponents), "Elo [95%]",
                                     "baselines' Elo"], others))
    if section.get("notes"):
        if rows:
            parts.append(f"\n### Findings ({section['notes']})\n")
        parts.append((folder / section["notes"]).read_text().strip() + "\n")
    return "\n".join(parts)


def generate(folder: "str | pathlib.Path") -> str:
    """README.md's text from the folder's manifest, metrics files, preface and notes."""
    folder = pathlib.Path(folder)
    if not (folder / MANIFEST).is_file():
        raise CliError(f"'{folder}' holds no {MANIFEST}: not a results folder")
    sections = load_manifest(folder)
    head = [
        "<!-- Generated by `boardlab report --results experiments/results` from runs.yaml, the *.metrics.csv files, "
        "preface.md and notes/: edit those, then regenerate. -->\n",
        (folder / PREFACE).read_text().strip() + "\n" if (folder / PREFACE).is_file() else "",
        "How to read the tables: a row is one training run; **bold** runs are of the default config of their "
        "time. The first columns come from the run's metrics file (steps and games from the run's own final count "
        "where it ran past the file's last row); the scores (the agent's, a draw counting half) and Elo (random = "
        "0 unless the agent anchors) come from `boardlab evaluate` of its final checkpoint, kept in runs.yaml. Runs "
        f"of one configuration are grouped; a group of several runs has a row of the {INTERVAL_NOTE}. A strength "
        "claim needs at least three seeds.\n",
    ]
    return "\n".join([*filter(None, head), *(_section(folder, s) for s in sections), _ladders()])


def _ladders() -> str:
    """The registered games' stored ladders (games/NAME/ladder.yaml of the source tree, arena/ladder.h): every
    rung's rating and interval, and what its round robin cost."""
    parts = ["## Ladders\n",
             "Each game's reference players, rated once by `boardlab ladder GAME --write` (neighbours within two "
             "rungs play each other; Elo with random = 0 and 95% intervals). Evaluations on the ladder "
             "(`boardlab evaluate --ladder`, a run's `ladder_elo`) hold these ratings fixed.\n"]
    for name in boardlab.registered_games():
        for ladder in boardlab._boardlab.read_ladders(boardlab._boardlab.ladder_file(name)):
            parts.append(f"**{ladder['game']}**: {ladder['games_per_group']} games per table, "
                         f"{ladder['opening_turns']} random opening turns, {ladder['seconds']:.0f} s ({ladder['built']})\n")
            parts.append("| rung | Elo | 95% interval | games |\n|---|---|---|---|")
            for rung in reversed(ladder["rungs"]):
                parts.append(f"| `{rung['player']}` | {rung['elo']:+.0f} | [{rung['low']:+.0f}, {rung['high']:+.0f}] "
                             f"| {rung['games']} |")
            parts.append("")
    return "\n".join(parts)
