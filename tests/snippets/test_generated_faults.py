"""The fault harness of the generated bad-input tests (issue 47): torch (or torchvision) failing to import in each
of its forms and Ctrl-C while it imports, for every script of the zip; Ctrl-C at any printed line of a training
run; a full disk before the start, during the save or at the final write; read-only targets; stdout that cannot
take what is printed (cp1252, GBK, ASCII, a closed pipe, a full device); two runs on one checkpoint; a loss that
diverges; --resume with other settings. The contract is tests/generated_cases.py's.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import importlib
import io
import os
import shutil
from pathlib import Path

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from bad_input import TRAIN, link_folder
from generated_cases import (
    SCRIPTS,
    contract,
    few,
    in_place,
    judge,
    run_as_program,
    run_main,
)
from guide_harness import load_snippet

# ---- 3. the fault harness ---------------------------------------------------------------------------------

FAILED_IMPORTS = [
    ModuleNotFoundError("No module named 'torch'", name="torch"),
    OSError(
        22,
        "[WinError 126] The specified module could not be found. Error loading "
        '"C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
    ),
    ImportError("DLL load failed while importing _C: The specified procedure could not be found."),
    RuntimeError("Failed to load torch: generic"),
    KeyboardInterrupt(),
]


@pytest.mark.parametrize("script", SCRIPTS)
def test_generated_import_faults(script):
    """torch (or torchvision) fails to import in each of its forms, or Ctrl-C lands while it imports."""
    real_import_module, real_import = importlib.import_module, builtins.__import__

    @few(12)
    @given(fault=st.sampled_from(FAILED_IMPORTS), nth=st.integers(1, 2))
    def case(fault, nth):
        seen = []  # torch, then torchvision: the fault comes with the first import of the nth of them

        def maybe_fail(name):
            top = name.split(".")[0]
            if top in ("torch", "torchvision") and top not in seen:
                seen.append(top)
                if len(seen) == nth:
                    raise fault

        def failing_import_module(name, package=None):
            maybe_fail(name)
            return real_import_module(name, package)

        def failing_import(name, globals=None, locals=None, fromlist=(), level=0):
            if level == 0:  # `import torch`, `from torchvision import datasets`
                maybe_fail(name)
            return real_import(name, globals, locals, fromlist, level)

        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(importlib, "import_module", failing_import_module)
            mp.setattr(builtins, "__import__", failing_import)
            outcome = run_as_program(script, ["--help"])
        contract(script, outcome)
        if len(seen) >= nth:  # the fault happened
            wanted = 130 if isinstance(fault, KeyboardInterrupt) else 1
            judge("exit status", script, outcome.code == wanted, outcome, f"not {wanted} after {fault!r}")

    case()


def test_ctrl_c_at_any_moment_of_training(place, trained, tmp_path_factory):
    """Ctrl-C at the n-th line printed (any moment of the run): 130 or done, and the checkpoint whole."""
    work = tmp_path_factory.mktemp("ctrl-c")
    ck = work / "lenet.pt"
    real_print = builtins.print

    @few(10)
    @given(nth=st.integers(1, 12))
    def case(nth):
        shutil.copy(trained, ck)
        printed = []

        def pressed(*args, **kwargs):
            printed.append(1)
            if len(printed) == nth:
                raise KeyboardInterrupt
            return real_print(*args, **kwargs)

        argv = [arg.format(data=place / "real", ck=ck) for arg in TRAIN] + ["--epochs", "2", "--resume"]
        with in_place(work, {"TORCH_DEVICE": None}) as mp:
            mp.setattr(builtins, "print", pressed)
            outcome = run_main("train_mnist", argv)
        contract("train_mnist", outcome)
        judge("exit status", "train_mnist", outcome.code in (0, 130), outcome, "neither done nor interrupted")
        epoch = torch.load(ck, weights_only=True)["epoch"]  # loads: never half a file
        judge("lost work", "train_mnist", epoch >= 1, outcome, "epoch 1 lost")

    case()


def full_disk(mp: pytest.MonkeyPatch, where: str) -> None:
    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if where == "fsync":
        mp.setattr(os, "fsync", no_space)
    elif where == "write_text":
        mp.setattr(Path, "write_text", no_space)
    else:  # full before the start: nothing free
        usage = shutil.disk_usage(".")
        mp.setattr(shutil, "disk_usage", lambda path: usage._replace(free=0))
        mp.setattr(os, "fsync", no_space)  # and the save itself fails as a full disk does
        mp.setattr(Path, "write_text", no_space)


def read_only(mp: pytest.MonkeyPatch, target: Path) -> None:
    """``target`` refuses to be written (a read-only file, Controlled folder access), even for root."""
    real_open = builtins.open

    def guarded_open(file, mode="r", *args, **kwargs):
        if Path(os.fspath(file)).resolve() == target.resolve() and set(mode) & set("wax+"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return real_open(file, mode, *args, **kwargs)

    mp.setattr(builtins, "open", guarded_open)
    real_replace = os.replace

    def refused_replace(source, destination):
        if Path(destination).resolve() == target.resolve():
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(destination))
        return real_replace(source, destination)

    mp.setattr(os, "replace", refused_replace)


OUTPUTS = {
    # script: (its arguments, the output file's name)
    "train_mnist": ("{train} --epochs 2 --resume", "ck.pt"),
    "doctor": ("--json {out}", "out.json"),
    "report": (
        "--dataset fashion-mnist --data-dir {real} --device cpu --epochs 1 --steps 10 --limit-train 300 --out {out}",
        "out.json",
    ),
    "benchmark_devices": (
        "--dataset fashion-mnist --data-dir {real} --device cpu --limit-train 200 --epochs 1 --warmup-steps 1 --json {out}",
        "out.json",
    ),
    "benchmark_data_loading": (
        "--dataset fashion-mnist --data-dir {real} --device cpu --limit-train 200 --batch-size 100 --json {out}",
        "out.json",
    ),
}


def test_generated_unwritable_outputs(place, trained, tmp_path_factory):
    """A full disk (before the start, during the save or the final write) or a read-only target: one line,
    the earlier checkpoint intact, a read-only target refused before any work, and a finished report never lost
    (written, or printed)."""
    work = tmp_path_factory.mktemp("outputs")

    @few(40)  # each script, fault and existing-or-not once
    @given(
        script=st.sampled_from(sorted(OUTPUTS)),
        fault=st.sampled_from(["fsync", "write_text", "before", "read-only"]),
        exists=st.booleans(),
    )
    def case(script, fault, exists):
        for path in work.iterdir():
            shutil.rmtree(path) if path.is_dir() else path.unlink()
        args, name = OUTPUTS[script]
        out = work / name
        if script == "train_mnist":
            shutil.copy(trained, out)
        elif exists:
            out.write_text("an earlier file\n")
        before = out.read_bytes() if out.exists() else None
        train = " ".join(TRAIN).format(data=place / "real", ck=out)
        argv = args.format(train=train, out=out, real=place / "real").split()
        with in_place(work, {"TORCH_DEVICE": None}) as mp:
            read_only(mp, out) if fault == "read-only" else full_disk(mp, fault)
            outcome = run_main(script, argv)
        contract(script, outcome)
        if outcome.code == 0:
            return
        if fault == "read-only":  # cannot_write finds it at the start: no minutes of work lost at the end
            worked = any(word in outcome.out for word in (" loss ", "1/3", "timing", "one epoch"))
            judge("lost work", script, not worked, outcome, "a read-only target refused only after the work")
        if script == "train_mnist":
            judge("lost work", script, out.read_bytes() == before, outcome, "the checkpoint changed")
            judge("lost work", script, not list(work.glob("*.tmp")), outcome, "a temporary file left")
        elif script == "report":  # minutes of work: written or printed
            judge(
                "lost work",
                script,
                '"schema"' in outcome.out or "training check" not in outcome.out,
                outcome,
                "a finished report lost",
            )

    case()


class Pipe(io.TextIOWrapper):
    """stdout that fails like a closed pipe or a full device after ``room`` characters, or has ``encoding``."""

    def __init__(self, encoding: str = "utf-8", room: int | None = None, error: type[OSError] = BrokenPipeError):
        super().__init__(io.BytesIO(), encoding=encoding, errors="strict", write_through=True)
        self.room, self.error, self.raw_bytes = room, error, b""

    def write(self, text):
        if self.room is not None:
            if self.room <= 0:
                raise self.error(errno.EPIPE if self.error is BrokenPipeError else errno.ENOSPC, "no more")
            self.room -= len(text)
        count = super().write(text)
        self.raw_bytes = self.buffer.getvalue()
        return count


STDOUT_CASES = {
    "check_mnist_files": "--data-dir {named}",
    "mnist_data": "--dataset fashion-mnist --data-dir {named}",
    "doctor": "--json {named}/r\u00e9port.json",
    "choose_device": "--device cpu",
    "lenet": None,
    "verify_training": "--device cpu --steps 10",
}


def test_generated_stdout_that_cannot_take_it(place, tmp_path_factory):
    """cp1252, GBK and ASCII consoles with non-ASCII names printed, a closed pipe, a full device: the work
    goes on; at most one line."""
    work = tmp_path_factory.mktemp("stdout")
    named = work / "\u6570\u636e \u00fcn\u00ef"
    named.mkdir()
    link_folder(place / "real" / "FashionMNIST", named / "FashionMNIST")
    (named / "MNIST").mkdir()

    @few(30)
    @given(
        script=st.sampled_from(sorted(STDOUT_CASES)),
        encoding=st.sampled_from(["cp1252", "gbk", "ascii", "utf-8"]),
        room=st.one_of(st.none(), st.integers(0, 300)),
        error=st.sampled_from([BrokenPipeError, OSError]),
    )
    def case(script, encoding, room, error):
        args = STDOUT_CASES[script]
        argv = None if args is None else [arg.format(named=named) for arg in args.split()]  # {named} holds a space
        with in_place(work, {"TORCH_DEVICE": None}):
            outcome = run_main(script, argv, stdout=Pipe(encoding, room, error))
        contract(script, outcome)
        if script == "doctor":
            judge(
                "lost work", script, (named / "r\u00e9port.json").is_file(), outcome, "the doctor's report not written"
            )

    case()


def resumed(place, ck: Path, *extra: str):
    """train_mnist --resume to epoch 2 from ``ck``: held to the contract, and ``ck`` left as it was."""
    before = ck.read_bytes()
    argv = [arg.format(data=place / "real", ck=ck) for arg in TRAIN] + ["--epochs", "2", "--resume", *extra]
    outcome = run_main("train_mnist", argv)
    contract("train_mnist", outcome)
    judge("lost work", "train_mnist", ck.read_bytes() == before, outcome, "the checkpoint changed")
    return outcome


def test_two_runs_on_one_checkpoint(place, trained, tmp_path):
    """A second run while another trains into the same checkpoint: one line, and the first run's checkpoint and
    its temporary file left alone."""
    train_mnist = load_snippet("train_mnist")
    ck = tmp_path / "ck" / "lenet.pt"
    ck.parent.mkdir()
    shutil.copy(trained, ck)
    with pytest.MonkeyPatch.context() as mp:  # the other run's own temporary file, half written
        mp.setattr(os, "getpid", lambda: 4242)
        theirs = train_mnist.temporary_path(ck)
    theirs.write_bytes(b"the other run is saving epoch 2")
    with contextlib.ExitStack() as stack:
        with pytest.MonkeyPatch.context() as mp:  # the other run holds the checkpoint's lock, as while it trains
            mp.setattr(os, "getpid", lambda: 4242)
            stack.enter_context(train_mnist.only_run_on(ck))
        outcome = resumed(place, ck)
    judge("lost work", "train_mnist", theirs.exists(), outcome, "the other run's temporary file deleted")
    judge("wrong success", "train_mnist", outcome.code == 1, outcome, "a second run trained alongside the first")


def test_a_diverging_loss_is_an_error(place, trained, tmp_path):
    """--lr so high the loss becomes inf or nan: an error, and the last good checkpoint kept. The checkpoint
    records that --lr (its settings, and its optimizer's, which --resume restores), so that --resume goes on to
    epoch 2 instead of refusing another --lr."""
    ck = tmp_path / "lenet.pt"
    value = torch.load(trained, weights_only=True)
    for group in value["optimizer"]["param_groups"]:
        group["lr"] = 1e30
    torch.save({**value, "settings": {**value["settings"], "lr": 1e30}}, ck)
    outcome = resumed(place, ck, "--lr", "1e30")
    diverged = outcome.code == 1 and "training diverged" in outcome.err
    judge("wrong success", "train_mnist", diverged, outcome, "a diverged loss saved with exit 0")


@pytest.mark.parametrize(
    "option, value", [("--batch-size", "50"), ("--seed", "3"), ("--lr", "0.01"), ("--limit-train", "400")]
)
def test_resume_with_other_settings_says_which(option, value, place, trained, tmp_path):
    ck = tmp_path / "lenet.pt"
    shutil.copy(trained, ck)
    outcome = resumed(place, ck, option, value)
    refused = outcome.code == 1 and option in outcome.err
    judge("wrong success", "train_mnist", refused, outcome, f"resumed with another {option}")
