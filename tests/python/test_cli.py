"""The `boardlab` command, run as a user would through the build's launcher."""

import json
import os
import re
import subprocess

import pytest

import boardlab
from conftest import LAUNCHER


def test_games_lists_games_with_parameters(run_cli):
    result = run_cli("games")
    assert result.returncode == 0, result.stderr
    assert "virus_war: Virus War" in result.stdout
    assert re.search(r"strict=false\s+bool\s+computer rules", result.stdout)
    assert "sequential, deterministic, perfect information, zero-sum" in result.stdout
    assert "presets: strict=true" in result.stdout


def test_games_json(run_cli):
    result = run_cli("games", "--json")
    assert result.returncode == 0, result.stderr
    listed = json.loads(result.stdout)
    for spec in listed:
        assert spec.pop("kind") == str(boardlab.load_game(spec["name"]).type())
    assert listed == boardlab.game_specs()


def test_perft_counts(run_cli):
    for args in (["virus_war", "5", "--param", "strict=true"], ["virus_war(strict=true)", "5"]):
        result = run_cli("perft", *args)
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert lines[0] == "virus_war(strict=true)"
        counts = [int(line.split()[1].replace(",", "")) for line in lines[2:]]
        assert counts == [1, 3, 15, 15, 45]


def test_bench_json(run_cli):
    result = run_cli("bench", "virus_war", "--seconds", "0.3", "--json")
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert stats["game"] == "virus_war(strict=false)"
    assert stats["games"] >= 1 and stats["seconds"] >= 0.3
    assert stats["actions_per_second"] > 0 and stats["games_per_second"] > 0
    assert stats["mean_game_length"] == stats["actions"] / stats["games"]


def test_bench_times_hidden_state_samples_of_a_hidden_information_game(run_cli):
    for game in ("stratego", "stratego(variant=barrage)"):
        result = run_cli("bench", game, "--seconds", "0.2", "--json")
        assert result.returncode == 0, result.stderr
        stats = json.loads(result.stdout)
        assert stats["games"] >= 1 and stats["actions_per_second"] > 0
        sample = stats["hidden_sample"]
        assert sample["samples"] >= 1 and sample["microseconds_per_sample"] > 0
    assert "hidden-state sample" in run_cli("bench", "stratego(variant=barrage)", "--seconds", "0.1").stdout
    assert "hidden_sample" not in json.loads(run_cli("bench", "virus_war", "--seconds", "0.1", "--json").stdout)


def test_bench_text(run_cli):
    result = run_cli("bench", "virus_war(strict=true)", "--seconds", "0.2")
    assert result.returncode == 0, result.stderr
    assert "actions/s" in result.stdout and "games/s" in result.stdout


def test_play_random_against_random(run_cli):
    result = run_cli("play", "virus_war", "--players", "random,random", "--seed", "1")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[0] == "virus_war(strict=false): X random, O random; seed 1"
    assert re.search(r"^X: a1-\S+$", out, re.M)
    assert re.search(r"^Result: (X wins|O wins|draw) \(", out, re.M)
    record = re.search(r"^Record: (.*)$", out, re.M).group(1)
    final = boardlab.load_game("virus_war").load_record(record)
    assert final.is_terminal()
    assert run_cli("play", "virus_war", "--players", "random,random", "--seed", "1").stdout == out


def test_bench_counts_rounds_of_a_simultaneous_game(run_cli):
    result = run_cli("bench", "squares", "--seconds", "0.2", "--json")
    assert result.returncode == 0, result.stderr
    stats = json.loads(result.stdout)
    assert stats["rounds"] * 2 == stats["actions"]  # a round is one action per player
    assert stats["rounds_per_second"] == pytest.approx(stats["rounds"] / stats["seconds"])
    text = run_cli("bench", "squares", "--seconds", "0.1").stdout
    assert re.search(r"^  [\d,]+ rounds/s \([\d,]+ simultaneous rounds, [\d.]+ per game\)$", text, re.M), text
    assert "rounds/s" not in run_cli("bench", "virus_war", "--seconds", "0.1").stdout


def test_play_squares_random_and_human(run_cli):
    result = run_cli("play", "squares", "--players", "random,random", "--seed", "1")
    assert result.returncode == 0, result.stderr
    record = re.search(r"^Record: (.*)$", result.stdout, re.M).group(1)
    assert record.endswith("pass/pass")
    assert boardlab.load_game("squares").load_record(record).is_terminal()
    result = run_cli("play", "squares", "--players", "human,random", "--seed", "2", input="3c5\n2a1\n2d4\n2c3\nquit\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'3c5' is not a Squares action: the side must be 2, 4, 6, 8 or 10; try again" in out
    assert re.search(r"^Red/Blue: 2a1/\S+$", out.replace("Red> ", ""), re.M)
    assert "'2d4' is not a legal move for you here" in out
    assert re.search(r"^Red/Blue: 2c3/\S+$", out.replace("Red> ", ""), re.M)
    assert "Game abandoned (quit)" in out


def test_play_human_recovers_from_a_bad_move(run_cli):
    result = run_cli("play", "virus_war", "--players", "human,random", "--seed", "2", input="b5\na1-b2-c3\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "illegal action b5: X has not entered yet" in out
    assert "X to move, sub-move 1 of 3" in out  # the board is drawn before the move
    assert "\nX: a1-b2-c3\n" in out.replace("X> ", "")
    assert re.search(r"^O: k10-\S+$", out, re.M)
    assert "Game abandoned (end of input) after 6 move(s)." in out
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("stdin_encoding", ["utf-8:strict", "utf-8:surrogateescape", None])
def test_play_human_is_asked_again_after_invalid_utf8_and_nul(stdin_encoding):
    # A strict reader raised UnicodeDecodeError, a surrogate-escaping one a TypeError from the
    # binding: both ended the game with a traceback. A NUL cut the message short.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    if stdin_encoding:
        env["PYTHONIOENCODING"] = stdin_encoding
    result = subprocess.run(
        [str(LAUNCHER), "play", "virus_war", "--players", "human,random", "--seed", "2"],
        input=b"a\xff1\n\xc3\na1\x00b\na1-b2-c3\nquit\n",
        capture_output=True,
        timeout=60,
        env=env,
    )
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    assert "'a\\xff1' is not UTF-8 text (bytes \\xff); try again" in out
    assert "'\\xc3' is not UTF-8 text (bytes \\xc3); try again" in out
    assert "'a1\\x00b' is not a Virus War action: expected a cell" in out
    assert "\nX: a1-b2-c3\n" in out.replace("X> ", "")
    assert "Game abandoned (quit)" in out


def test_play_human_one_sub_move_at_a_time(run_cli):
    result = run_cli("play", "virus_war", "--players", "human,random", "--seed", "2", input="a1\nb2\nc3\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "X to move, sub-move 3 of 3" in result.stdout
    assert "X: a1-b2-c3" in result.stdout
    assert "Game abandoned (quit)" in result.stdout


def test_play_human_as_second_player(run_cli):
    result = run_cli("play", "virus_war(strict=true)", "--players", "random,human", "--seed", "3", input="k10-k9 i10\n")
    assert result.returncode == 0, result.stderr
    assert "O: k10-k9-i10" in result.stdout


def test_python_dash_m_runs_the_same_command(run_cli):
    import subprocess
    import sys

    from conftest import PYTHON_DIR

    result = subprocess.run(
        [sys.executable, "-m", "boardlab", "perft", "virus_war", "2"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(PYTHON_DIR)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "virus_war(strict=false)" in result.stdout


def _assert_usage_error(result, message):
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert message in lines[0]


def test_bad_input_is_one_line_and_exit_code_2(run_cli):
    _assert_usage_error(run_cli("perft", "chess", "2"), "unknown game 'chess' (known games: virus_war")
    _assert_usage_error(run_cli("play", "nope", "--players", "random,random"), "unknown game 'nope'")
    _assert_usage_error(run_cli("perft", "virus_war", "2", "--param", "strict=maybe"), "expects bool, got 'maybe'")
    _assert_usage_error(run_cli("perft", "virus_war", "2", "--param", "size=3"), "no parameter 'size'")
    _assert_usage_error(run_cli("perft", "virus_war", "2", "--param", "strict"), "not of the form key=value")
    _assert_usage_error(
        run_cli("perft", "virus_war(strict=true)", "2", "--param", "strict=false"), "parameter 'strict' given twice"
    )
    _assert_usage_error(run_cli("perft", "virus_war", "0"), "argument depth: must be an integer from 1 to 2,147,483,647, got 0")
    _assert_usage_error(run_cli("bench", "virus_war", "--seconds", "-1"), "must be 0 or more")
    _assert_usage_error(run_cli("play", "virus_war", "--players", "random"), "names 1 player(s), the game has 2")
    _assert_usage_error(run_cli("play", "virus_war", "--players", "random,alphazero"), "unknown player kind")
    _assert_usage_error(run_cli("play", "virus_war", "--players", "random,random:3"), "takes no argument")


def test_integer_flags_state_their_range_in_one_line(run_cli):
    # Past C int (or a seed's 64 bits), each was a pybind11 TypeError with a signature dump.
    big, huge = "2147483648", str(10**23)
    pairs = "--game", "virus_war", "--players", "random,random"
    cases = [
        (("evaluate", *pairs, "--games", big), "argument --games: must be an integer from 1 to 1,000,000, got 2147483648"),
        (("evaluate", *pairs, "--games", "1000001"), "argument --games: must be an integer from 1 to 1,000,000"),
        (("evaluate", *pairs, "--seed", huge), "argument --seed: must be an integer from 0 to 18,446,744,073,709,551,615"),
        (("evaluate", *pairs, "--threads", big), "argument --threads: must be an integer from 0 to 1,024, got 2147483648"),
        (("evaluate", *pairs, "--opening", big), "argument --opening: must be an integer from 0 to 2,147,483,647"),
        (("evaluate", *pairs, "--simulations", big), "argument --simulations: must be an integer from 1 to 2,147,483,647"),
        (("evaluate", *pairs, "--games", "many"), "argument --games: expected an integer from 1 to 1,000,000, got 'many'"),
        (("bench", "virus_war", "--search", "--concurrent", big), "argument --concurrent: must be an integer from 1 to 100,000"),
        (("bench", "virus_war", "--search", "--simulations", big), "argument --simulations: must be an integer from 1 to"),
        (("bench", "virus_war", "--seed", huge), "argument --seed: must be an integer from 0 to"),
        (("bench", "virus_war", "--min-games", big), "argument --min-games: must be an integer from 0 to 2,147,483,647"),
        (("play", "virus_war", "--players", "random,random", "--seed", huge), "argument --seed: must be an integer"),
        (("perft", "virus_war", big), "argument depth: must be an integer from 1 to 2,147,483,647"),
        (("perft", "virus_war", "9" * 5000), "argument depth: expected an integer from 1 to 2,147,483,647, got '9999"),
    ]
    for args, message in cases:
        _assert_usage_error(run_cli(*args), message)
    # The largest seed is a seed.
    result = run_cli("play", "virus_war", "--players", "random,random", "--seed", str(2**64 - 1))
    assert result.returncode == 0, result.stderr


def test_bench_refuses_a_game_override_that_contradicts_the_game_named(run_cli):
    # It measured morabaraba while reporting virus_war.
    _assert_usage_error(
        run_cli("bench", "virus_war", "--nn", "--config", "configs/morabaraba.yaml", "--set", "game=morabaraba"),
        "--set game=morabaraba: bench measures the game it names (virus_war(strict=false)); name the game once",
    )


@pytest.mark.parametrize(
    "args, shown",
    [
        (["train", "--set", "training.batch_size=\udcff"], "'training.batch_size=\\xff'"),
        (["train", "--out", "runs/\udcff"], "'runs/\\xff'"),
        (["perft", "virus_war\udcff", "2"], "'virus_war\\xff'"),
        (["evaluate", "--game", "virus_war", "--players", "random,\udcff"], "'random,\\xff'"),
        (["play", "virus_war", "--players", "\udcff"], "'\\xff'"),
    ],
)
def test_an_argument_that_is_not_utf8_text_is_named_in_one_line(run_cli, args, shown):
    # The byte \xff reaches Python as '\udcff', which no C++ function can take: pybind11 printed its
    # signature dump. Every argument is checked before any is used.
    result = run_cli(*args, timeout=60)
    assert (result.returncode, result.stderr, result.stdout) == (
        2,
        f"boardlab: error: argument {shown}: not UTF-8 text (it holds the undecodable byte \\xff)\n",
        "",
    )


def test_a_config_error_quoting_a_byte_that_is_not_utf8_is_shown_whole(run_cli, tmp_path):
    # yaml-cpp quotes the byte it stopped at; the message used to reach Python empty.
    config = tmp_path / "bad.yaml"
    config.write_bytes(b'training:\n  batch_size: "\\\xff"\n')
    result = run_cli("train", "--config", str(config), "--out", str(tmp_path / "run"), timeout=60)
    assert (result.returncode, result.stderr) == (
        2,
        f"boardlab train: error: {config}:2: YAML syntax error: unknown escape character: \\xff\n",
    )
