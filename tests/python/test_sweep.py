"""`boardlab sweep`: the statistics, the grid and its errors, a tiny sweep that finishes, skips on rerun, resumes a
started run, splits across ranks, and rates on a stored ladder."""

import json
import math
import os
import subprocess

import pytest

import boardlab
from boardlab import sweep
from boardlab.errors import CliError
from boardlab.stats import mean_interval, t_quantile
from conftest import CONFIG, LAUNCHER, TINY_TRAINING

# Four training steps and a final evaluation of 2 games a pairing: a job takes a few seconds.
TINY = [*TINY_TRAINING, "run.max_steps=4"]


def sets(items):
    return [arg for item in items for arg in ("--set", item)]


def tiny_but(*keys):
    """TINY less the keys a grid sets (a key may not be both a --set and a --grid key)."""
    return [item for item in TINY if item.partition("=")[0] not in keys]


def run_sweep(*args, env=None, timeout=240):
    gridded = [arg.partition("=")[0] for flag, arg in zip(args, args[1:]) if flag == "--grid"]
    return subprocess.run([str(LAUNCHER), "sweep", "--config", CONFIG, *sets(tiny_but(*gridded)), "--eval-games", "2",
                           *args], capture_output=True, text=True, timeout=timeout, env=env)


# --- statistics ---------------------------------------------------------------------------------------------------

def test_t_quantiles_match_the_tables():
    # Student t, 97.5th percentile (two-sided 95%), as printed in every statistics table.
    for df, expected in ((1, 12.7062), (2, 4.3027), (3, 3.1824), (4, 2.7764), (9, 2.2622), (30, 2.0423)):
        assert t_quantile(0.975, df) == pytest.approx(expected, abs=5e-5)
    assert t_quantile(0.025, 5) == pytest.approx(-t_quantile(0.975, 5))
    assert t_quantile(0.975, 10**6) == pytest.approx(1.95996, abs=1e-4)


def test_mean_interval_on_known_numbers():
    # The seven Virus War runs of R1-R7 against uct:200.
    scores = [90, 100, 99.5, 100, 95, 100, 100]
    interval = mean_interval(scores)
    mean = sum(scores) / 7
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / 6)
    assert interval.n == 7 and interval.mean == pytest.approx(97.785714, abs=1e-6)
    assert interval.half == pytest.approx(2.446912 * sd / math.sqrt(7), rel=1e-5)
    assert interval.half == pytest.approx(3.60034, abs=1e-5)  # scipy.stats.t.ppf(0.975, 6) * s / sqrt(7)
    assert interval.text(1, unit="%") == "97.8% ± 3.6 (n=7)"
    # Three values: mean 2, s = 1, half = t(0.975, 2) / √3.
    assert mean_interval([1, 2, 3]).half == pytest.approx(4.302653 / math.sqrt(3), rel=1e-6)
    one = mean_interval([42])
    assert (one.n, one.mean, one.half, one.low) == (1, 42, None, None) and one.text(0) == "42 (n=1)"
    assert mean_interval([5, 5, 5]).half == 0
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])


# --- the grid, the plan and its errors ----------------------------------------------------------------------------

def test_grid_values_split_at_top_level_commas():
    assert sweep.split_top_level('a, [b, c],"d,e",mcts(x=1,y=2)') == ["a", "[b, c]", '"d,e"', "mcts(x=1,y=2)"]
    assert sweep.parse_grid(["search.simulations=8,16", "evaluation.opponents=[random],[random, uct:8]"]) == [
        ("search.simulations", ["8", "16"]), ("evaluation.opponents", ["[random]", "[random, uct:8]"])]
    for bad, message in ((["search.simulations"], "expected key.path=value"),
                         (["seed=1,2"], "the seeds come from --seeds"),
                         (["search.simulations=8,,16"], "an empty value"),
                         (["search.simulations=8,8"], "listed twice"),
                         (["search.simulations=8", "search.simulations=16"], "given twice")):
        with pytest.raises(CliError, match=message):
            sweep.parse_grid(bad)


def test_the_plan_crosses_configurations_with_seeds_and_labels_them():
    grid = sweep.parse_grid(["search.simulations=4,8", "training.batch_size=16,24"])
    plan = sweep.make_plan(CONFIG, grid, tiny_but("search.simulations", "training.batch_size"), seeds=2, first_seed=5)
    assert plan.labels() == ["search.simulations=4,training.batch_size=16", "search.simulations=4,training.batch_size=24",
                             "search.simulations=8,training.batch_size=16", "search.simulations=8,training.batch_size=24"]
    assert [(job.index, job.seed) for job in plan.jobs[:5]] == [(0, 5), (1, 5), (2, 5), (3, 5), (4, 6)]
    assert plan.jobs[0].folder == "search.simulations=4,training.batch_size=16/seed5"
    # The second seed starts one configuration further, so every K-th job is a mix of configurations.
    assert [job.label for job in plan.jobs[4:6]] == plan.labels()[1:3]
    assert all(len({job.label for job in sweep.jobs_of_rank(plan, rank, 4)}) == 2 for rank in range(4))
    assert sweep.folder_of("evaluation.opponents=[random, uct:8]") == "evaluation.opponents=_random,_uct_8_"


@pytest.mark.parametrize("ranks", [1, 2, 3, 5])
def test_ranks_split_the_jobs_disjointly_and_cover_them(ranks):
    plan = sweep.make_plan(CONFIG, sweep.parse_grid(["search.simulations=4,8,16"]), tiny_but("search.simulations"),
                           seeds=3)
    shares = [sweep.jobs_of_rank(plan, rank, ranks) for rank in range(ranks)]
    indices = [job.index for share in shares for job in share]
    assert sorted(indices) == list(range(9)) and len(set(indices)) == 9


def test_the_rank_comes_from_flags_or_the_launcher():
    assert sweep.rank_of(None, None, {}) == (0, 1)
    assert sweep.rank_of(2, 3, {}) == (2, 3)
    assert sweep.rank_of(None, None, {"OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "4"}) == (1, 4)
    assert sweep.rank_of(None, None, {"SLURM_PROCID": "3", "SLURM_NTASKS": "8"}) == (3, 8)
    with pytest.raises(CliError, match="together"):
        sweep.rank_of(1, None, {})
    with pytest.raises(CliError, match="rank 4 of 4"):
        sweep.rank_of(4, 4, {})


def test_bad_sweeps_are_refused_in_one_line(run_cli, tmp_path):
    out = str(tmp_path / "s")
    cases = [
        (["--grid", "search.simulatons=4,8"], "--grid search.simulatons=4: unknown key 'search.simulatons'; did you mean "
                                              "'search.simulations'?"),
        (["--grid", "search.simulations=4,many"], "--grid search.simulations=many: expected an integer, got 'many'"),
        (["--grid", "search.simulations"], "--grid 'search.simulations': expected key.path=value,value,..."),
        (["--set", "seed=3"], "--set seed=...: the seeds come from --seeds and --first-seed"),
        (["--rank", "1"], "give --rank and --ranks together"),
        (["--set", "training.batch_size=-1"], "--set training.batch_size=-1: expected an integer in [1, 65536], got -1"),
    ]
    for extra, message in cases:
        result = run_cli("sweep", "--config", CONFIG, "--out", out, *extra)
        assert (result.returncode, result.stderr) == (2, f"boardlab sweep: error: {message}\n"), extra
    result = run_cli("sweep", "--config", "no/such.yaml", "--out", out)
    assert result.returncode == 2 and "config file 'no/such.yaml' does not exist" in result.stderr
    result = run_cli("sweep", "--collect", str(tmp_path))
    assert (result.returncode, result.stderr) == (2, f"boardlab sweep: error: '{tmp_path}' is not a sweep folder "
                                                     "(no plan.json)\n")
    assert not os.path.exists(out)  # nothing was started


# --- a tiny sweep, end to end ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def tiny_sweep(tmp_path_factory):
    """2 batch sizes × 2 seeds, the first job's run started by hand beforehand (as a killed sweep leaves it)."""
    out = tmp_path_factory.mktemp("sweep") / "s"
    started = out / "training.batch_size=16" / "seed1"
    boardlab.train(CONFIG, [*tiny_but("training.batch_size"), "training.batch_size=16", "seed=1"], out=started,
                   log=lambda line: None)
    first = run_sweep("--grid", "training.batch_size=16,24", "--seeds", "2", "--against", "random", "--out", str(out))
    return out, first


def test_a_sweep_trains_evaluates_and_tabulates_every_job(tiny_sweep):
    out, result = tiny_sweep
    assert result.returncode == 0, result.stderr
    assert "sweep: 2 configurations × 2 seeds = 4 jobs" in result.stderr
    assert "resuming training.batch_size=16/seed1" in result.stderr  # a started run is resumed, not restarted
    data = json.loads((out / "sweep.json").read_text())
    assert [c["label"] for c in data["configurations"]] == ["training.batch_size=16", "training.batch_size=24"]
    for configuration in data["configurations"]:
        runs = configuration["runs"]
        assert [r["seed"] for r in runs] == [1, 2] and configuration["planned"] == 2
        assert all(r["steps"] == 4 and r["evaluation"].startswith("final checkpoint") for r in runs)
        # The summary is mean_interval of the seeds' own scores.
        scores = [r["scores"]["random"] for r in runs]
        summary = configuration["summary"]["vs random (%)"]
        expected = mean_interval(scores)
        assert (summary["n"], summary["mean"]) == (2, pytest.approx(expected.mean))
        assert summary["half"] == pytest.approx(expected.half)
    markdown = (out / "sweep.md").read_text()
    assert markdown == result.stdout
    assert "Student t, n − 1 degrees of freedom" in markdown
    rows = [line for line in markdown.splitlines() if line.startswith("| training.batch_size=")]
    assert len(rows) == 2 + 4  # a row per configuration, then a row per run
    assert rows[0].startswith("| training.batch_size=16 | 2 of 2 | ")
    for state in out.glob("*/seed*/sweep_job.json"):
        job = json.loads(state.read_text())
        assert job["trained"]["steps"] == 4 and set(job["evaluation"]["scores"]) == {"random"}


def test_a_rerun_skips_finished_jobs_and_collect_rebuilds_the_tables(tiny_sweep, run_cli):
    out, first = tiny_sweep
    again = run_sweep("--grid", "training.batch_size=16,24", "--seeds", "2", "--against", "random", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert again.stderr.count("done, skipped") == 4 and "training" not in again.stderr.replace("training.batch", "")
    assert again.stdout == first.stdout
    collected = run_cli("sweep", "--collect", str(out))
    assert collected.returncode == 0 and collected.stdout == first.stdout
    # Another --set would mix incomparable runs in one folder.
    other = run_sweep("--grid", "training.batch_size=16,24", "--seeds", "2", "--out", str(out))
    assert other.returncode == 2 and "holds a sweep with other against: 'random' then, 'none' now" in other.stderr


def test_report_reads_a_sweep_folder_as_its_runs(tiny_sweep, run_cli):
    out, _ = tiny_sweep
    result = run_cli("report", str(out))
    assert result.returncode == 0, result.stderr
    assert "# Report of 4 runs" in result.stdout
    assert "| training.batch_size=16 | 2 | " in result.stdout and "| training.batch_size=24 | 2 | " in result.stdout


def test_ranks_share_a_sweep_and_collect_joins_them(tmp_path, run_cli):
    out = tmp_path / "ranked"
    # Rank 1 of 2 from mpirun's environment: its run must train alone, not join an MPI job.
    env = {**os.environ, "OMPI_COMM_WORLD_RANK": "1", "OMPI_COMM_WORLD_SIZE": "2"}
    rank1 = run_sweep("--seeds", "2", "--out", str(out), env=env)
    assert rank1.returncode == 0, rank1.stderr
    assert "rank 1 of 2 runs 1 of them" in rank1.stderr and "boardlab sweep --collect" in rank1.stderr
    assert not (out / "sweep.md").exists()
    assert [p.parent.name for p in out.glob("base/*/sweep_job.json")] == ["seed2"]
    partial = run_cli("sweep", "--collect", str(out))
    assert "| base | 1 of 2 | " in partial.stdout
    rank0 = run_sweep("--seeds", "2", "--out", str(out), "--rank", "0", "--ranks", "2")
    assert rank0.returncode == 0, rank0.stderr
    assert sorted(p.parent.name for p in out.glob("base/*/sweep_job.json")) == ["seed1", "seed2"]
    full = run_cli("sweep", "--collect", str(out))
    assert "| base | 2 of 2 | " in full.stdout


def test_a_game_with_a_ladder_is_rated_on_it(tmp_path, monkeypatch):
    from boardlab.ladder import build_ladder

    monkeypatch.setenv("BOARDLAB_GAMES_DIR", str(tmp_path / "games"))
    ladder = build_ladder("virus_war", ["random", "uct:4"], games=2)["ladder"]
    boardlab._boardlab.store_ladder(boardlab._boardlab.ladder_file("virus_war"), ladder)
    out = tmp_path / "laddered"
    result = run_sweep("--seeds", "2", "--out", str(out), env={**os.environ})
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "sweep.json").read_text())
    runs = data["configurations"][0]["runs"]
    assert all(r["ladder"] and r["ladder"]["low"] <= r["ladder"]["elo"] <= r["ladder"]["high"] for r in runs)
    assert all(set(r["scores"]) == {"random", "uct:4"} for r in runs)  # the rungs, no --against
    summary = data["configurations"][0]["summary"]["ladder Elo"]
    assert summary["n"] == 2 and summary["mean"] == pytest.approx(sum(r["ladder"]["elo"] for r in runs) / 2)
    assert "ladder Elo" in (out / "sweep.md").read_text()
