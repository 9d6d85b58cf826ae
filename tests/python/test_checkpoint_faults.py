"""Corrupt and crafted checkpoints: flipped bytes, NaN weights, metadata that lies about the tensors, a checkpoint from before checksums."""

import os
import pathlib
import resource
import shutil
import subprocess
import zipfile

import pytest
import torch

import boardlab
from conftest import CONFIG, LAUNCHER, TINY_TRAINING

# Written by the build before checksums (commit 821959b): a 1x4 Virus War network with its
# optimizer state, no "checksum" key. It must keep loading; without a checksum, crafted
# copies of it reach the metadata checks.
WITHOUT_CHECKSUM = pathlib.Path(__file__).parent / "data" / "checkpoint_without_checksum.pt"


def info(path):
    from boardlab import _boardlab_nn

    return _boardlab_nn.checkpoint_info(str(path))


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A checkpoint written by this build (with its checksum)."""
    run = tmp_path_factory.mktemp("faults") / "run"
    sets = [arg for item in [*TINY_TRAINING, "run.max_steps=1"] for arg in ("--set", item)]
    result = subprocess.run(
        [str(LAUNCHER), "train", "--config", CONFIG, "--out", str(run), *sets], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return run / "checkpoints" / "latest.pt"


def edited(source, target, change):
    """A copy of `source` with `change(module)` applied, saved as TorchScript (as the checkpoint is)."""
    module = torch.jit.load(str(source))
    with torch.no_grad():
        change(module)
    torch.jit.save(module, str(target))
    return target


def flip_tensor_bytes(source, target):
    """A copy of `source` with 16 bytes flipped in the middle of its largest tensor's data."""
    shutil.copy(source, target)
    with zipfile.ZipFile(source) as archive:
        record = max((i for i in archive.infolist() if "/data/" in i.filename), key=lambda i: i.file_size)
    with open(target, "r+b") as file:
        file.seek(record.header_offset)
        header = file.read(30)
        name_length, extra_length = int.from_bytes(header[26:28], "little"), int.from_bytes(header[28:30], "little")
        start = record.header_offset + 30 + name_length + extra_length + record.file_size // 2
        file.seek(start)
        data = bytes(b ^ 0x5A for b in file.read(16))
        file.seek(start)
        file.write(data)
    return target


def test_a_checkpoint_without_a_checksum_still_loads():
    loaded = info(WITHOUT_CHECKSUM)
    assert loaded["game"] == "virus_war(strict=false)" and loaded["channels"] == 4 and loaded["step"] == 1


def test_flipped_bytes_in_tensor_data_are_refused(saved, tmp_path):
    assert info(saved)["step"] == 1
    corrupt = flip_tensor_bytes(saved, tmp_path / "flipped.pt")
    with pytest.raises(ValueError, match=r"flipped\.pt': checksum mismatch: the file is corrupt"):
        info(corrupt)
    # The same file as a player, and on the command line: one line, exit code 2.
    with pytest.raises(ValueError, match="checksum mismatch"):
        boardlab.make_bot(f"agent:{corrupt}", "virus_war")
    result = subprocess.run(
        [str(LAUNCHER), "evaluate", "--checkpoint", str(corrupt), "--against", "random", "--games", "2", "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "checksum mismatch: the file is corrupt" in result.stderr


def test_metadata_changed_under_a_checksum_is_refused(saved, tmp_path):
    # Relabelled to a variant with the same shapes: only the checksum can tell.
    relabelled = edited(saved, tmp_path / "strict.pt", lambda m: setattr(m, "game", "virus_war(strict=true)"))
    with pytest.raises(ValueError, match="checksum mismatch"):
        info(relabelled)


def test_nan_weights_stop_the_search_with_the_network_named(tmp_path):
    def poison(module):
        for p in module.model.parameters():
            p.fill_(float("nan"))

    nan = edited(WITHOUT_CHECKSUM, tmp_path / "nan.pt", poison)
    game = boardlab.load_game("virus_war")
    state = game.new_initial_state()
    for spec in (f"agent:{nan}", f"agent:{nan}(simulations=8,algorithm=puct)"):
        bot = boardlab.make_bot(spec, game)
        with pytest.raises(ValueError, match=rf"network output is not finite \(policy logits of checkpoint '{nan}'"):
            bot.act(state)
    # Infinite logits alone are refused too.
    inf = edited(WITHOUT_CHECKSUM, tmp_path / "inf.pt", lambda m: m.model.policy_fc.bias.__setitem__(3, float("inf")))
    with pytest.raises(ValueError, match="network output is not finite"):
        boardlab.make_bot(f"agent:{inf}", game).act(state)


@pytest.mark.parametrize(
    "change, message",
    [
        # 100000 channels allocated 360 GB before anything was checked.
        (
            lambda m: setattr(m, "network_channels", 100000),
            "'network_channels' is 100000, outside network.channels's range 1..512",
        ),
        # A size within range that is not the tensors' loaded silently, tensors resized.
        (
            lambda m: setattr(m, "network_channels", 16),
            r"tensor 'model\.blocks\.0\.bn1\.bias' has shape \[4\], the network its metadata describes "
            r"\(virus_war\(strict=false\), 1 blocks of 16 channels, on this version's 10x10x10 observation and "
            r"101 actions\) has \[16\]",
        ),
        (lambda m: setattr(m, "network_blocks", 2), r"tensor 'model\.blocks\.1\.\S+' is missing"),
        (lambda m: setattr(m, "network_blocks", 0), r"tensor 'model\.blocks\.0\.\S+' of shape .* is not part of"),
        (lambda m: setattr(m, "game", "morabaraba"), "checkpoint '.*game.pt'.*morabaraba"),
        (lambda m: setattr(m, "game", "chess"), r"checkpoint '.*game.pt': its game: unknown game 'chess'"),
        (
            lambda m: setattr(m, "rng_states", torch.zeros(3, 5, dtype=torch.int64)),
            r"'rng_states' is a Long tensor of shape \[3, 5\], expected a Long \(int64\) tensor of shape \[streams, 4\]",
        ),
        (
            lambda m: setattr(m, "rng_states", torch.zeros(3, 4, dtype=torch.float32)),
            r"'rng_states' is a Float tensor of shape \[3, 4\]",
        ),
    ],
)
def test_crafted_metadata_is_refused_naming_the_key_and_both_values(tmp_path, change, message):
    crafted = edited(WITHOUT_CHECKSUM, tmp_path / "game.pt", change)
    with pytest.raises(ValueError, match=message):
        info(crafted)


NOT_REGULAR = "it is not a regular file (a device, FIFO or socket)"


def run_capped(*args):
    """The launcher with its address space capped at 4 GiB and a timeout: a loader reading /dev/zero to its
    end or waiting on a FIFO for a writer, as this one once did, fails the test instead of filling the
    machine's memory (it reached 24 GB) or hanging."""

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    return subprocess.run([str(LAUNCHER), *args], capture_output=True, text=True, timeout=60, preexec_fn=cap)


@pytest.mark.parametrize("named_by", ["--checkpoint", "--player"])
def test_a_device_a_fifo_a_folder_or_a_huge_file_as_checkpoint_is_one_line_at_once(tmp_path, named_by):
    fifo = tmp_path / "fifo.pt"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.pt"
    with open(huge, "wb") as file:
        file.truncate((4 << 30) + 1)  # sparse: refused by its size, before a byte is read
    cases = [
        ("/dev/zero", f"cannot read checkpoint '/dev/zero': {NOT_REGULAR}"),
        (str(fifo), f"cannot read checkpoint '{fifo}': {NOT_REGULAR}"),
        (str(tmp_path), f"cannot read checkpoint '{tmp_path}': it is a folder"),
        (str(huge), f"checkpoint '{huge}' is larger than 4 GiB: not a checkpoint"),
    ]
    for path, message in cases:
        player = ["--checkpoint", path] if named_by == "--checkpoint" else ["--player", f"agent:{path}", "--game", "virus_war"]
        result = run_capped("evaluate", *player, "--against", "random", "--games", "1")
        assert (result.returncode, result.stderr) == (2, f"boardlab evaluate: error: {message}\n")


def test_load_agent_lets_the_loader_name_what_is_wrong(tmp_path):
    with pytest.raises(ValueError, match=f"^cannot read checkpoint '{tmp_path}': it is a folder$"):
        boardlab.load_agent(tmp_path)
    with pytest.raises(ValueError, match=f"^checkpoint '{tmp_path / 'missing.pt'}' does not exist$"):
        boardlab.load_agent(tmp_path / "missing.pt")
