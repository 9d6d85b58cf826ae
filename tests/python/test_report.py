"""`boardlab report`: run folders grouped by config into mean ± interval rows, with plots; and the results README,
which must equal what its generator makes from the committed manifest, metrics, preface and notes."""

import json
import shutil

import pytest

import boardlab
from boardlab import report, results
from boardlab.errors import CliError
from boardlab.stats import mean_interval
from conftest import CONFIG, REPO, SOURCE_GAMES, TINY_TRAINING

RESULTS = REPO / "experiments" / "results"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Three 4-step runs evaluated at steps 2 and 4: seeds 1 and 2 of one batch size, seed 1 of another."""
    root = tmp_path_factory.mktemp("report")
    tiny = [item for item in TINY_TRAINING if not item.startswith(("training.batch_size=", "evaluation.every_steps="))]
    made = []
    for name, batch, seed in (("a1", 16, 1), ("a2", 16, 2), ("b1", 24, 1)):
        boardlab.train(CONFIG, [*tiny, "run.max_steps=4", "evaluation.every_steps=2", f"training.batch_size={batch}",
                                f"seed={seed}"], out=root / name, log=lambda line: None)
        made.append(root / name)
    return made


def test_runs_group_by_config_without_the_seed(runs):
    figures = [report.read_run(path) for path in runs]
    assert [f.seed for f in figures] == [1, 2, 1]
    assert all(f.steps == 4 and f.game == "virus_war" and "seed" not in f.config for f in figures)
    assert all([p[0] for p in f.curve] == [2, 4] and f.curve_kind == "Elo" for f in figures)
    assert all(f.evaluation == "in-run evaluation at step 4, 2 games" and set(f.scores) == {"random"} for f in figures)
    groups = report.group_by_config(figures)
    assert [(g.label, [r.path.name for r in g.runs]) for g in groups] == [
        ("training.batch_size=16", ["a1", "a2"]), ("training.batch_size=24", ["b1"])]
    summary = groups[0].summary()["vs random (%)"]
    expected = mean_interval([figures[0].scores["random"], figures[1].scores["random"]])
    assert (summary.n, summary.mean, summary.half) == (2, pytest.approx(expected.mean), pytest.approx(expected.half))
    assert groups[1].summary()["vs random (%)"].half is None  # one seed: no interval


def test_report_writes_tables_and_a_plot_per_group(runs, run_cli, tmp_path):
    out = tmp_path / "out"
    result = run_cli("report", *map(str, runs), "--out", str(out))
    assert result.returncode == 0, result.stderr
    markdown = (out / "report.md").read_text()
    assert result.stdout.startswith(markdown)
    summary_rows = [line for line in markdown.split("## Every run")[0].splitlines() if line.startswith("| training")]
    assert [row.split(" | ")[:2] for row in summary_rows] == [["| training.batch_size=16", "2"],
                                                              ["| training.batch_size=24", "1"]]
    assert " (n=2) | " in summary_rows[0] and " ± " in summary_rows[0] and " ± " not in summary_rows[1]
    data = json.loads((out / "report.json").read_text())
    assert [len(c["runs"]) for c in data["configurations"]] == [2, 1]
    plots = sorted(p.name for p in (out / "plots").iterdir())
    assert plots == ["training.batch_size=16.png", "training.batch_size=24.png"]
    assert all((out / "plots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in plots)
    assert "![training.batch_size=16](plots/training.batch_size=16.png)" in markdown


def test_report_refuses_what_is_not_a_run_in_one_line(run_cli, tmp_path, runs):
    cases = [
        (["report", str(tmp_path)], f"'{tmp_path}' is neither a run folder (no config.yaml) nor a sweep folder "
                                    "(no plan.json)"),
        (["report", str(tmp_path / "gone")], f"'{tmp_path / 'gone'}' does not exist"),
        (["report"], "name at least one run or sweep folder (or --results DIR)"),
        (["report", str(runs[0]), "--check"], "--check applies to --results"),
        (["report", "--results", str(tmp_path)], f"'{tmp_path}' holds no runs.yaml: not a results folder"),
    ]
    for args, message in cases:
        result = run_cli(*args)
        assert (result.returncode, result.stderr) == (2, f"boardlab report: error: {message}\n"), args
    (tmp_path / "config.yaml").write_text("- not a config\n")
    result = run_cli("report", str(tmp_path))
    assert result.returncode == 2 and "is not a boardlab config (no game)" in result.stderr


@pytest.fixture
def source_ladders(monkeypatch):
    """The source tree's ladders, which the results README shows (the tests' own games folder is empty)."""
    monkeypatch.setenv("BOARDLAB_GAMES_DIR", str(SOURCE_GAMES))


def test_the_results_readme_is_what_its_generator_makes(run_cli, source_ladders):
    """README.md is generated: change runs.yaml, preface.md, notes/ or a metrics file, then run
    `boardlab report --results experiments/results` and commit the result."""
    assert (RESULTS / "README.md").read_text() == results.generate(RESULTS)
    check = run_cli("report", "--results", str(RESULTS), "--check")
    assert (check.returncode, check.stdout) == (0, f"{RESULTS / 'README.md'} is up to date\n")


def test_the_results_readme_groups_seeds_into_a_mean_row():
    text = (RESULTS / "README.md").read_text()
    # The seven runs of Virus War's reuse-tree default against uct:200, as runs.yaml lists them.
    assert "|  | *mean ± 95% of 7 runs* |  |  |  | – | 97.8% ± 3.6 (n=7) | 94.9% ± 4.6 (n=7) |" in text


def test_the_manifest_is_checked(tmp_path, run_cli, source_ladders):
    folder = tmp_path / "results"
    shutil.copytree(RESULTS, folder)
    (folder / "README.md").write_text("edited by hand\n")
    stale = run_cli("report", "--results", str(folder), "--check")
    assert stale.returncode == 1 and "is stale" in stale.stdout
    assert run_cli("report", "--results", str(folder)).returncode == 0
    assert (folder / "README.md").read_text() == (RESULTS / "README.md").read_text()

    shutil.copy(folder / "virus_war_15min_A.metrics.csv", folder / "virus_war_15min_Z.metrics.csv")
    with pytest.raises(CliError, match="'virus_war_15min_Z.metrics.csv' is in .* but no run of runs.yaml names it"):
        results.generate(folder)
    (folder / "virus_war_15min_Z.metrics.csv").unlink()
    manifest = (folder / "runs.yaml").read_text()
    (folder / "runs.yaml").write_text(manifest.replace("        - run: A\n", "        - run: A\n          colour: red\n", 1))
    with pytest.raises(CliError, match="section 'Virus War', a run: unknown key 'colour'"):
        results.generate(folder)
    (folder / "runs.yaml").write_text(manifest.replace("scores: {uct:200: 23.5}", "scores: {uct:200: high}", 1))
    with pytest.raises(CliError, match="run 'Virus War: A', evaluation 1: the score against uct:200 is 'high', not a "
                                       "percentage"):
        results.generate(folder)
    (folder / "runs.yaml").write_text(manifest.replace("virus_war_15min_A.metrics.csv", "missing.metrics.csv", 1))
    with pytest.raises(CliError, match="its metrics file 'missing.metrics.csv' does not exist"):
        results.generate(folder)
