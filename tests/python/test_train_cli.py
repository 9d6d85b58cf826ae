"""`boardlab train`, `evaluate`, `play` and `bench` with trained networks, run as a user would through the launcher."""

import json
import os
import pathlib
import random
import re
import shutil
import signal
import subprocess
import time

import pytest
import resource

import boardlab
from conftest import CONFIG, LAUNCHER, REPO, TINY_TRAINING

TINY = TINY_TRAINING
SECTIONS = ["network", "search", "self_play", "inference", "replay", "training", "checkpoint", "evaluation", "run"]


def sets(overrides):
    return [arg for item in overrides for arg in ("--set", item)]


def checkpoint_info(path):
    from boardlab import _boardlab_nn  # LibTorch loads only for the tests that read checkpoints

    return _boardlab_nn.checkpoint_info(str(path))


def cuda_available():
    from boardlab import _boardlab_nn

    return _boardlab_nn.cuda_available()


def keys_of(yaml_text):
    """The dotted keys of a two-level config as to_yaml writes it."""
    keys, section = set(), None
    for line in yaml_text.splitlines():
        match = re.match(r"^( *)([a-z_]+):", line)
        if not match:
            continue
        if match.group(1):
            keys.add(f"{section}.{match.group(2)}")
        elif re.match(r"^[a-z_]+:\s*(#.*)?$", line):
            section = match.group(2)
        else:
            keys.add(match.group(2))
    return keys


def newest_step(checkpoints):
    names = os.listdir(checkpoints) if checkpoints.is_dir() else []
    return max((int(m.group(1)) for m in map(re.compile(r"^step_(\d+)\.pt$").match, names) if m), default=-1)


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """One finished 4-step run shared by the tests that need a run folder or a checkpoint."""
    run = tmp_path_factory.mktemp("train") / "run"
    result = subprocess.run(
        [str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run), *sets([*TINY, "run.max_steps=4"])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return run, result


def test_print_config_has_every_section_and_key(run_cli):
    result = run_cli("train", "--print-config")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text.startswith("game: virus_war")
    for section in SECTIONS:
        assert re.search(rf"^{section}:$", text, re.M), section
    assert {"seed", "network.blocks", "search.simultaneous_selection", "training.batch_size", "evaluation.opponents",
            "run.max_steps"} <= keys_of(text)
    # Every line of a key has its comment.
    assert all(" # " in line for line in text.splitlines() if re.match(r"^ *[a-z_]+: \S", line))
    # The shipped config lists only what differs from the defaults, and points here for the rest.
    shipped = pathlib.Path(CONFIG).read_text()
    assert keys_of(shipped) <= keys_of(text)
    assert len(keys_of(shipped)) < len(keys_of(text))
    assert "boardlab train --print-config" in shipped


def test_print_config_resolves_a_config_its_overrides_and_a_run_folder(tiny_run, run_cli):
    result = run_cli("train", "--config", CONFIG, "--set", "training.batch_size=48", "--print-config")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^  batch_size: 48 +# ", result.stdout, re.M)
    assert re.search(r"^  algorithm: puct +# ", result.stdout, re.M)  # from the shipped config
    defaults = run_cli("train", "--print-config").stdout
    assert re.search(r"^  algorithm: gumbel +# ", defaults, re.M)
    run, _ = tiny_run
    resumed = run_cli("train", "--resume", str(run), "--print-config")
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == (run / "config.yaml").read_text()
    refused = run_cli("train", "--set", "training.batch_size=48", "--print-config")
    assert refused.returncode != 0 and "--set changes a config" in refused.stderr
    broken = run_cli("train", "--config", CONFIG, "--set", "training.batch_size=-1", "--print-config")
    assert broken.returncode != 0 and "batch_size" in broken.stderr


def test_run_folder_config_lists_every_key(tiny_run, run_cli):
    run, _ = tiny_run
    printed = run_cli("train", "--print-config").stdout
    assert keys_of((run / "config.yaml").read_text()) == keys_of(printed)


def test_train_finishes_with_a_table_and_a_run_folder(tiny_run):
    run, result = tiny_run
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"run folder: {run}" in out
    assert re.search(r"^4 steps, \d+ games, \d+ positions in", out, re.M)
    assert f"latest checkpoint: {run}/checkpoints/latest.pt" in out
    table = out.split("final evaluation:\n", 1)[1]
    # wins, draws, losses, score, and the score in the first and in the second seat
    assert re.search(r"^net@4 +vs random +\d+ +\d+ +\d+ +[\d.]+% +([\d.]+%|-) +([\d.]+%|-)$", table, re.M), table
    assert "95% interval" in table
    assert "training virus_war(strict=false)" in result.stderr  # progress goes to stderr
    for part in ("config.yaml", "checkpoints/step_000000004.replay", "metrics.csv", "log.txt", "games/selfplay.txt"):
        assert (run / part).is_file(), part
    evaluation = json.loads((run / "evaluation" / "step_000000004.json").read_text())
    assert [p["name"] for p in evaluation["players"]] == ["net@4", "random"]
    info = checkpoint_info(run / "checkpoints" / "latest.pt")
    assert info["step"] == 4 and info["game"] == "virus_war(strict=false)"
    assert (info["blocks"], info["channels"]) == (1, 8)


def test_evaluate_a_checkpoint_against_random(tiny_run, run_cli):
    run, _ = tiny_run
    latest = run / "checkpoints" / "latest.pt"
    result = run_cli("evaluate", "--checkpoint", str(latest), "--against", "random", "--games", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("virus_war(strict=false): 2 games in ")
    assert re.search(rf"^agent:{re.escape(str(latest))} +vs random +\d+ +\d+ +\d+ ", result.stdout, re.M), result.stdout


def test_agent_specs_take_options_and_quoted_paths(tiny_run, run_cli, tmp_path):
    run, _ = tiny_run
    # A path with a comma and parentheses, typed quoted.
    odd = tmp_path / "my,run (1)"
    odd.mkdir()
    shutil.copy(run / "checkpoints" / "latest.pt", odd / "latest.pt")
    agent = f"agent:'{odd}/latest.pt'(simulations=2)"
    result = run_cli("evaluate", "--game", "virus_war", "--players", f"{agent},random", "--games", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert re.search(rf"^{re.escape(agent)} +vs random ", result.stdout, re.M), result.stdout
    result = run_cli("play", "virus_war", "--players", f"random,{agent}", "--seed", "1")
    assert result.returncode == 0, result.stderr
    # --checkpoint spells the agent with the same syntax, quoting the path.
    result = run_cli("evaluate", "--checkpoint", str(odd / "latest.pt"), "--simulations", "2", "--against", "random",
                     "--games", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert re.search(rf"^{re.escape(agent)} +vs random ", result.stdout, re.M), result.stdout
    assert boardlab.load_agent(odd / "latest.pt", simulations=2).spec == agent
    result = run_cli("evaluate", "--game", "virus_war", "--players",
                     f"agent:{run}/checkpoints/latest.pt,simulations=2,random", "--games", "2", "--quiet")
    assert result.returncode == 2
    assert f"write 'agent:{run}/checkpoints/latest.pt(simulations=2),random'" in result.stderr, result.stderr


def test_evaluation_opponents_use_the_spec_syntax():
    from boardlab import _boardlab_nn

    good = _boardlab_nn.config_yaml(CONFIG, ['evaluation.opponents=[random, "mcts(simulations=8,algorithm=puct)"]'])
    assert "mcts(simulations=8,algorithm=puct)" in good
    with pytest.raises(ValueError, match=r"write 'mcts\(simulations=8,algorithm=puct\)'"):
        _boardlab_nn.config_yaml(CONFIG, ['evaluation.opponents=[random, "mcts:simulations=8,algorithm=puct"]'])
    # A YAML flow list splits at every comma: the message says to quote the spec.
    with pytest.raises(ValueError, match=r"quote a spec that has commas"):
        _boardlab_nn.config_yaml(CONFIG, ["evaluation.opponents=[random, mcts(simulations=8,algorithm=puct)]"])


def test_play_against_a_trained_agent(tiny_run, run_cli):
    run, _ = tiny_run
    result = run_cli("play", "virus_war", "--players", f"random,agent:{run}/checkpoints/latest.pt", "--seed", "1")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^Result: (X wins|O wins|draw) \(", result.stdout, re.M), result.stdout
    record = re.search(r"^Record: (.*)$", result.stdout, re.M).group(1)
    assert boardlab.load_game("virus_war").load_record(record).is_terminal()


def test_an_agent_refuses_pickling_and_copying_with_a_type_error(tiny_run):
    import copy
    import pickle

    run, _ = tiny_run
    agent = boardlab.load_agent(run / "checkpoints" / "latest.pt", simulations=2)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        with pytest.raises(TypeError, match="cannot pickle or copy boardlab.Agent: .*Agent\\(checkpoint, simulations\\)"):
            pickle.dumps(agent, protocol=protocol)
    for how in (copy.copy, copy.deepcopy):
        with pytest.raises(TypeError, match="cannot pickle or copy boardlab.Agent"):
            how(agent)


def test_agent_integer_arguments_out_of_range_are_value_errors(tiny_run):
    run, _ = tiny_run
    latest = run / "checkpoints" / "latest.pt"
    with pytest.raises(ValueError, match=r"^Agent: simulations must be 1\.\.2147483647, got 2147483648$"):
        boardlab.load_agent(latest, simulations=2**31)
    with pytest.raises(ValueError, match=r"^Agent: seed must be 0\.\.2\*\*64-1, got -1$"):
        boardlab.load_agent(latest, seed=-1)
    agent = boardlab.load_agent(latest, simulations=2)
    state = agent.game().new_initial_state()
    for call in (agent.act, agent.policy, agent.value):
        with pytest.raises(ValueError, match=r"^agent: player 4294967296 is not a seat 0\.\.1"):
            call(state, 2**32)


def test_resume_continues_the_run(tiny_run, run_cli):
    run, _ = tiny_run
    before = checkpoint_info(run / "checkpoints" / "latest.pt")
    result = run_cli("train", "--resume", str(run), "--set", "run.max_steps=6")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^6 steps, \d+ games", result.stdout, re.M), result.stdout
    assert "resuming virus_war(strict=false)" in result.stderr and "at step 4" in result.stderr
    after = checkpoint_info(run / "checkpoints" / "latest.pt")
    assert after["step"] == 6
    # Training runs next to self-play: the two steps may come before a new game ends.
    assert after["games"] >= before["games"]
    steps = [int(line.split(",")[0]) for line in (run / "metrics.csv").read_text().splitlines()[1:]]
    assert steps == sorted(steps) and steps[-1] == 6


def test_bad_config_is_one_line_with_file_and_line(run_cli, tmp_path):
    config = tmp_path / "bad.yaml"
    config.write_text("game: virus_war\ntraining:\n  batch_sise: 64\n")
    result = run_cli("train", "--config", str(config), "--out", str(tmp_path / "run"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"boardlab train: error: {config}:3: unknown key 'training.batch_sise'; did you mean 'training.batch_size'?\n"
    )
    assert not (tmp_path / "run").exists()
    result = run_cli("train", "--config", CONFIG, "--out", str(tmp_path / "run"), "--set", "network.blocks=many")
    assert result.returncode == 2
    assert result.stderr == "boardlab train: error: --set network.blocks=many: expected an integer, got 'many'\n"


def test_missing_checkpoint_is_one_line_naming_it(run_cli, tmp_path):
    missing = tmp_path / "missing.pt"
    result = run_cli("evaluate", "--checkpoint", str(missing), "--against", "random", "--games", "2", "--quiet")
    assert result.returncode == 2
    assert result.stderr == f"boardlab evaluate: error: checkpoint '{missing}' does not exist\n"


def test_evaluate_round_robin_writes_its_files(run_cli, tmp_path):
    out = tmp_path / "eval"
    result = run_cli(
        "evaluate", "--game", "virus_war", "--players", "random,uct:20", "--games", "4", "--quiet", "--out", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^random +vs uct:20 +\d+ +\d+ +\d+ ", result.stdout, re.M), result.stdout
    results = json.loads((out / "results.json").read_text())
    assert results["games"] == 4
    assert [p["name"] for p in results["players"]] == ["random", "uct:20"]
    elo = (out / "elo.csv").read_text().splitlines()
    assert elo[0] == "player,elo,stderr,low,high" and len(elo) == 3
    pairings = (out / "pairings.csv").read_text().splitlines()
    assert pairings[0] == "a,b,wins,draws,losses,score" and len(pairings) == 2
    wins, draws, losses = (int(x) for x in pairings[1].split(",")[2:5])
    assert wins + draws + losses == 4
    games = (out / "games.txt").read_text().splitlines()
    assert len(games) == 4
    game = boardlab.load_game("virus_war")
    for line in games:
        match = re.match(r"^\[(random,uct:20|uct:20,random)\] \[(\S+)\] (.*)$", line)
        assert match, line
        assert game.load_record(match.group(3)).is_terminal()


def test_bench_search_json(run_cli):
    result = run_cli("bench", "virus_war", "--search", "--seconds", "0.2", "--json")
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert stats["game"] == "virus_war(strict=false)"
    assert set(stats["search"]) == {"search_alone_1_game", "search_alone_64_games", "uct_800"}
    for entry in stats["search"].values():
        assert entry["simulations_per_second"] > 0


def test_bench_network_json(run_cli):
    result = run_cli(
        "bench", "virus_war", "--nn", "--seconds", "1", "--config", CONFIG, "--set", "network.channels=8", "--json"
    )
    assert result.returncode == 0, result.stderr
    network = json.loads(result.stdout)["network"]
    assert network["game"] == "virus_war(strict=false)"
    assert network["channels"] == 8
    assert network["device"] == ("cuda" if cuda_available() else "cpu")  # network.device: auto
    assert network["evaluations_per_second"] > 0
    assert network["selfplay_simulations_per_second"] > 0
    assert network["ratio"] == pytest.approx(
        network["selfplay_simulations_per_second"] / network["evaluations_per_second"]
    )
    assert not network["with_training"]
    # Every game opens from one position: the evaluation cache answers it after the first time.
    assert 0 < network["reused_share"] < 1
    # Per CPU second of the measuring threads: the ratio is that times the cores each half got.
    assert 0 < network["raw_cores"] <= os.cpu_count() + 0.1
    assert 0 < network["selfplay_cores"] <= os.cpu_count() + 0.1
    assert network["cpu_ratio"] == pytest.approx(
        network["selfplay_simulations_per_cpu_second"] / network["evaluations_per_cpu_second"]
    )
    assert network["ratio"] == pytest.approx(
        network["cpu_ratio"] * network["selfplay_cores"] / network["raw_cores"], rel=1e-6
    )
    # The same, as in a training run: a learner stepped on the other core all the while.
    trained = json.loads(result.stdout)["network_with_training"]
    assert trained["with_training"]
    assert trained["training_steps_per_second"] > 0
    assert trained["selfplay_simulations_per_second"] > 0


def test_bench_network_without_the_evaluation_cache(run_cli):
    result = run_cli(
        "bench", "virus_war", "--nn", "--seconds", "1", "--config", CONFIG,
        "--set", "network.channels=8", "--set", "search.cache_positions=0", "--json",
    )
    assert result.returncode == 0, result.stderr
    for half in ("network", "network_with_training"):
        network = json.loads(result.stdout)[half]
        assert network["reused_share"] == 0
        assert network["selfplay_evaluations_per_second"] > 0


def test_network_device_is_a_key_and_cuda_where_there_is_none_stops_at_once(run_cli):
    printed = run_cli("train", "--print-config").stdout
    network = printed.split("\nnetwork:\n", 1)[1].split("\nsearch:\n", 1)[0]
    assert re.search(r"^  device: auto +# where the network runs: auto \(cuda when", network, re.M), network
    result = run_cli("bench", "virus_war", "--nn", "--seconds", "1", "--config", CONFIG,
                     "--set", "network.channels=8", "--set", "network.device=cuda", "--json")
    if cuda_available():
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["network"]["device"] == "cuda"
    else:
        assert result.returncode != 0
        assert "network.device: cuda, but this LibTorch was built without CUDA" in result.stderr
        assert "Traceback" not in result.stderr


def test_bench_network_on_a_simultaneous_game(run_cli):
    """Squares' rounds have no single mover: the bench's positions are seen by each seat in turn."""
    result = run_cli(
        "bench", "squares", "--nn", "--seconds", "1", "--config", str(REPO / "configs" / "squares.yaml"),
        "--set", "network.channels=4", "--set", "network.blocks=0", "--json",
    )
    assert result.returncode == 0, result.stderr
    network = json.loads(result.stdout)["network"]
    assert network["game"] == "squares"
    assert network["evaluations_per_second"] > 0
    assert network["selfplay_simulations_per_second"] > 0


def test_killed_run_resumes_from_its_latest_checkpoint(tmp_path):
    """SIGKILL at a random moment of a run that checkpoints every step: latest.pt is whole and the run resumes."""
    run = tmp_path / "run"
    process = subprocess.Popen(
        [str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run),
         *sets([*TINY, "checkpoint.every_steps=1", "run.max_steps=100000"])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    checkpoints = run / "checkpoints"
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and process.poll() is None and newest_step(checkpoints) < 3:
            time.sleep(0.02)
        assert process.poll() is None, process.stderr.read()
        time.sleep(random.uniform(0, 0.2))  # somewhere in a cycle: self-play, training or a checkpoint write
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stderr.close()
    assert process.returncode == -signal.SIGKILL

    # The step file is the commit point and latest.pt a link made after it: a kill between the
    # two leaves latest.pt one checkpoint behind, and the run resumes from the newest step file.
    info = checkpoint_info(checkpoints / f"step_{newest_step(checkpoints):09d}.pt")
    assert info["step"] >= 3
    assert checkpoint_info(checkpoints / "latest.pt")["step"] in (info["step"], info["step"] - 1)
    target = info["step"] + 2
    result = subprocess.run(
        [str(LAUNCHER), "train", "--resume", str(run), "--set", f"run.max_steps={target}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert f"at step {info['step']}" in result.stderr
    final = checkpoint_info(checkpoints / "latest.pt")
    assert final["step"] == target
    # One consistent moment: every counted game in games/selfplay.txt once, no temporary
    # file of the killed writer, metrics rows in step order.
    assert len((run / "games" / "selfplay.txt").read_text().splitlines()) == final["games"]
    assert not [p for p in run.rglob("*") if ".tmp." in p.name]
    steps = [int(line.split(",")[0]) for line in (run / "metrics.csv").read_text().splitlines()[1:]]
    assert steps == sorted(steps) and steps[-1] == target


def wait_for(predicate, process, seconds=90):
    """Polls until `predicate` holds; the deadline only guards against a hang."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None and not predicate():
        time.sleep(0.02)
    assert process.poll() is None, process.stderr.read()
    assert predicate()


def test_a_run_folder_in_use_is_refused_naming_the_holder(tmp_path):
    """Two trainings on one folder: the second refuses at once; the lock dies with kill -9."""
    run = tmp_path / "run"
    holder = subprocess.Popen(
        [str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run), *sets([*TINY, "run.max_steps=100000"])],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: (run / "config.yaml").is_file(), holder)
        for args in (["--resume", str(run)], ["--config", CONFIG, "--out", str(run)]):
            result = subprocess.run([str(LAUNCHER), "train", *args], capture_output=True, text=True, timeout=120)
            assert result.returncode == 2, result.stderr
            assert result.stderr == (
                f"boardlab train: error: run folder '{run}' is in use by another training (pid {holder.pid}); "
                "wait for it to end or stop it, or choose another folder\n"
            )
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        holder.stderr.close()
    # No stale lock after kill -9: the run resumes, from its last checkpoint (from step 0 if it
    # died before its first one; on a busy machine the holder may have written several).
    latest = run / "checkpoints" / "latest.pt"
    before = checkpoint_info(latest)["step"] if latest.is_file() else 0
    result = subprocess.run(
        [str(LAUNCHER), "train", "--resume", str(run), "--set", f"run.max_steps={before + 2}"], capture_output=True,
        text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert checkpoint_info(latest)["step"] == before + 2


def test_a_full_disk_is_one_line_and_keeps_the_previous_checkpoint(tmp_path):
    """Files limited below a checkpoint's size (RLIMIT_FSIZE: writes fail as on a full disk). Half the size, not
    one byte less: a later checkpoint of the same run can be smaller by some bytes (LibTorch's archive
    pickles its module metadata under other mangled names), and it fitted; the replay, logs and metrics
    all stay far below half."""
    run = tmp_path / "run"
    first = subprocess.run(
        [str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run), *sets([*TINY, "run.max_steps=2"])],
        capture_output=True, text=True, timeout=120,
    )
    assert first.returncode == 0, first.stderr
    limit = (run / "checkpoints" / "step_000000002.pt").stat().st_size // 2
    assert (run / "checkpoints" / "step_000000002.replay").stat().st_size < limit

    def full_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a signal, like ENOSPC
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))

    result = subprocess.run(
        [str(LAUNCHER), "train", "--resume", str(run), "--set", "run.max_steps=4"],
        capture_output=True, text=True, timeout=120, preexec_fn=full_disk,
    )
    assert result.returncode == 1, result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith(f"boardlab train: error: ") and f"cannot write '{run}/" in last, result.stderr
    assert last.endswith("': File too large"), result.stderr
    assert "Traceback" not in result.stderr
    assert checkpoint_info(run / "checkpoints" / "latest.pt")["step"] == 2
    assert not [p for p in run.rglob("*") if ".tmp." in p.name]


def test_an_empty_opponent_list_is_refused_before_the_run(run_cli, tmp_path):
    result = run_cli("train", "--config", CONFIG, "--out", str(tmp_path / "run"), "--set", "evaluation.opponents=[]")
    assert result.returncode == 2
    assert result.stderr == (
        "boardlab train: error: --set evaluation.opponents=[]: expected a list of at least 1 item, got an empty list\n"
    )
    assert not (tmp_path / "run").exists()


def test_configs_that_are_not_configs_are_refused_in_one_line(run_cli, tmp_path):
    # An empty config (or comments only) started a full default run; /dev/zero was read
    # without end; --out naming a file said "cannot create it: Not a directory".
    empty = tmp_path / "empty.yaml"
    empty.write_text("# to be filled in\n")
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    cases = [
        (["--config", str(empty), "--out", str(tmp_path / "r1")], 2, "names no game: a config says at least which game"),
        (["--config", "/dev/zero", "--out", str(tmp_path / "r2")], 2, "it is not a regular file"),
        (["--config", CONFIG, "--out", str(a_file)], 2, f"run folder '{a_file}' is a file, not a folder"),
    ]
    for args, code, message in cases:
        result = run_cli("train", *args)
        assert result.returncode == code, result.stderr
        assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr
    assert not (tmp_path / "r1").exists() and not (tmp_path / "r2").exists()


def test_a_run_too_large_for_the_machine_is_refused_with_the_figure(run_cli, tmp_path):
    # Sizes the schema allows failed on a 13.4 GB allocation after two minutes.
    result = run_cli(
        "train", "--config", CONFIG, "--out", str(tmp_path / "big"),
        "--set", "network.channels=512", "--set", "training.batch_size=65536",
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert "training virus_war(strict=false) needs about " in result.stderr
    assert "GB available (MemAvailable in /proc/meminfo)" in result.stderr
    assert not (tmp_path / "big").exists()
