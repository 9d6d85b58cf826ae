"""`mpirun -np 3 boardlab train` on one machine: games from every actor rank reach the learner, networks reach every actor, resumes under other rank counts, and a killed rank."""

import csv
import importlib.util
import os
import pathlib
import re
import subprocess
import threading
import time

import pytest

# The Python suite's build paths and tiny-run overrides (its conftest, loaded under another name).
_spec = importlib.util.spec_from_file_location(
    "python_suite_conftest", pathlib.Path(__file__).resolve().parents[1] / "python" / "conftest.py"
)
suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(suite)

# CI runs as root; this machine has 2 cores and the tests start 3 ranks.
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--mca", "btl_vader_single_copy_mechanism", "none"]
TINY = [*suite.TINY_TRAINING, "training.publish_every_steps=2", "checkpoint.every_steps=5"]


def sets(overrides):
    return [arg for item in overrides for arg in ("--set", item)]


def train(ranks, *args, timeout=120):
    command = [*(MPIRUN + ["-np", str(ranks)] if ranks else []), str(suite.LAUNCHER), "train", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def metrics(run):
    with open(run / "metrics.csv", newline="") as f:
        return list(csv.DictReader(f))


def latest_step(run):
    steps = [int(m.group(1)) for p in (run / "checkpoints").glob("step_*.pt") if (m := re.match(r"step_(\d+)\.pt", p.name))]
    return max(steps, default=-1)


def test_games_from_every_actor_reach_the_learner_and_networks_every_actor(tmp_path):
    run = tmp_path / "run"
    # 40 steps of 16 samples need more positions than one rank's first 4 games (~760): the
    # learner holds the actors when one rank's games arrive, and only steps on.
    result = train(3, "--config", suite.CONFIG, "--out", str(run), *sets([*TINY, "run.max_steps=40"]))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "self-play on 2 actor ranks" in (run / "log.txt").read_text()
    rows = metrics(run)
    last = rows[-1]
    assert int(last["step"]) == 40
    for rank in (1, 2):
        # Every actor's games reached the replay...
        assert int(last[f"actor{rank}_games"]) > 0, (rank, last)
        assert any(row[f"actor{rank}_network_age"] != "" for row in rows)
        # ...and it played with more than the first network: at 2 steps a broadcast, 40 steps send 21.
        stopped = re.search(rf"actor rank {rank} stopped after (\d+) games, \d+ positions, (\d+) network versions", result.stderr)
        assert stopped, result.stderr[-3000:]
        assert int(stopped.group(2)) > 1
    assert int(last["games"]) == int(last["actor1_games"]) + int(last["actor2_games"])
    games_file = (run / "games" / "selfplay.txt").read_text().splitlines()
    assert len(games_file) == int(last["games"])


def test_a_run_resumes_under_another_rank_count_and_without_mpi(tmp_path):
    run = tmp_path / "run"
    first = train(3, "--config", suite.CONFIG, "--out", str(run), *sets([*TINY, "run.max_steps=10"]))
    assert first.returncode == 0, first.stderr[-3000:]
    assert latest_step(run) == 10
    second = train(2, "--resume", str(run), *sets(["run.max_steps=16"]))
    assert second.returncode == 0, second.stderr[-3000:]
    assert "resuming" in second.stderr and "at step 10" in second.stderr
    assert latest_step(run) == 16
    third = train(0, "--resume", str(run), "--set", "run.max_steps=20")
    assert third.returncode == 0, third.stderr[-3000:]
    assert latest_step(run) == 20
    steps = [int(row["step"]) for row in metrics(run)]
    assert steps == sorted(steps) and steps[-1] == 20
    # Columns of the three-rank session stay (actor2's), the single process writes none.
    assert "actor2_games" in metrics(run)[0]


def test_two_learner_ranks_train_in_step_and_the_run_resumes_in_one_process(tmp_path):
    run = tmp_path / "run"
    # Ranks 0 and 1 learn, rank 2 plays. A second learner whose network ended differently
    # from rank 0's would fail the job (rank 0 compares their hashes at the stop).
    result = train(3, "--config", suite.CONFIG, "--out", str(run), *sets([*TINY, "run.max_steps=20", "distributed.learners=2"]))
    assert result.returncode == 0, result.stderr[-3000:]
    log = (run / "log.txt").read_text()
    assert "self-play on 1 actor ranks" in log and "with 1 more learner ranks" in log, log[-2000:]
    follower = re.search(r"learner rank 1 stopped at step 20 after (\d+) steps with (\d+) games added", result.stderr)
    assert follower, result.stderr[-3000:]
    assert int(follower.group(1)) == 20
    last = metrics(run)[-1]
    assert int(last["step"]) == 20 and int(last["actor2_games"]) == int(last["games"])
    # Rank 1's replay mirrored rank 0's: every game the actor sent reached both.
    assert int(follower.group(2)) == int(last["games"])
    resumed = train(0, "--resume", str(run), "--set", "run.max_steps=24")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "this process is the only rank: it trains alone" in resumed.stderr
    assert latest_step(run) == 24


def test_a_job_with_no_rank_left_to_play_is_refused_by_name(tmp_path):
    result = train(2, "--config", suite.CONFIG, "--out", str(tmp_path / "run"), *sets([*TINY, "distributed.learners=2"]))
    assert result.returncode != 0
    assert "distributed.learners is 2, but the job has 2 ranks: at least one more must play (mpirun -np 3" in result.stderr


def rank_pid(job_pid, rank):
    """The pid of the job's process of MPI rank `rank` (Open MPI names it in each process's
    environment), found among the descendants of mpirun's pid, or None before it has started."""
    parents, ranks = {}, {}
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:  # it ended while we looked
            continue
        parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
        for variable in environ:
            if variable.startswith(b"OMPI_COMM_WORLD_RANK="):
                ranks[int(entry.name)] = int(variable.split(b"=", 1)[1])
    for pid in (pid for pid, r in ranks.items() if r == rank):
        ancestor = pid
        while ancestor in parents and ancestor > 1:
            if ancestor == job_pid:
                return pid
            ancestor = parents[ancestor]
    return None


@pytest.mark.parametrize("victim", [2, 0])
def test_a_killed_rank_ends_the_job_naming_it_and_the_run_resumes(tmp_path, victim):
    run = tmp_path / "run"
    command = [*MPIRUN, "-np", "3", str(suite.LAUNCHER), "train", "--config", suite.CONFIG, "--out", str(run),
               *sets([*TINY, "run.max_steps=100000", "run.log_every_seconds=1"])]
    job = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # The job's output is drained on a thread, so waiting for the checkpoints never blocks on a read.
    output = []
    reader = threading.Thread(target=lambda: output.extend(job.stdout), daemon=True)
    reader.start()
    try:
        # Rank 0 writes checkpoints only while the actor ranks play; a loaded machine only makes it slower.
        deadline = time.monotonic() + 600
        while latest_step(run) < 5 and job.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert latest_step(run) >= 5, "".join(output)[-3000:]
        # The learner is the process holding the run folder's lock.
        pid = rank_pid(job.pid, victim) if victim else int((run / "lock").read_text().split()[0])
        assert pid, f"no process of rank {victim} under mpirun (pid {job.pid})"
        os.kill(pid, 9)
        job.wait(timeout=60)
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()
        reader.join(timeout=10)
    text = "".join(output)
    assert job.returncode != 0
    assert re.search(rf"rank {victim}\b.*(exited on signal 9|Killed)", text), text[-3000:]
    # The folder reads as its last checkpoint's moment: a plain process continues it.
    before = latest_step(run)
    resumed = train(0, "--resume", str(run), "--set", f"run.max_steps={before + 3}")
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert f"at step {before}" in resumed.stderr
    assert latest_step(run) == before + 3
