"""The harness of the bad-input table (tests/snippets/test_bad_input.py) and what the snippets' tests share
(the quick training run, the trained checkpoint, the data's folder, links): a row is one bad input to one reader
script, the exit status it must give, the one line on stderr that starts with "error:" (and names what went
wrong), no traceback, and the earlier work intact: a reader who meets a traceback reads it as the guide's bug
and gives up, and one who loses an hour of training to a typo does too.

A row runs the script's main() in the test's process (an exception that leaves main() is what a reader would
see as a traceback), or the script as a reader does: Ctrl-C (a real SIGINT) and a non-ASCII folder on an ASCII
console.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import torch

from generated_cases import Outcome, run_main
from guide_harness import SNIPPETS, clean_env, load_snippet, run_snippet

RAW = ("FashionMNIST", "raw")
IMAGES = "train-images-idx3-ubyte"
# A quick training run on the CPU: 500 images, one batch of 100 at a time.
TRAIN = (
    "--dataset fashion-mnist --data-dir {data} --limit-train 500 --limit-test 200 --batch-size 100 "
    "--device cpu --checkpoint {ck}"
).split()
REPORT = "--dataset fashion-mnist --data-dir {data} --device cpu --epochs 1 --steps 10 --limit-train 500".split()
BENCH = "--dataset fashion-mnist --data-dir {data} --device cpu --limit-train 500".split()


@dataclass
class Workspace:
    tmp: Path
    real: Path  # the real Fashion-MNIST root (read only)
    monkeypatch: pytest.MonkeyPatch

    @property
    def ck(self) -> Path:
        return self.tmp / "checkpoints" / "lenet.pt"

    def fill(self, value: str) -> str:
        return value.format(data=self.tmp / "data", ck=self.ck, tmp=self.tmp, real=self.real)


# ---- what the rows set up --------------------------------------------------------------------------------


def link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)  # a hard link: no copy of 47 MB; writing a new file never touches it
    except OSError:
        shutil.copy(source, target)


def link_folder(source: Path, target: Path) -> None:
    """``target`` showing ``source``'s files: a symbolic link, or where Windows allows none (no developer mode),
    a folder of hard links (copies across drives)."""
    try:
        target.symlink_to(source, target_is_directory=True)
    except OSError:
        shutil.copytree(source, target, copy_function=lambda s, t: link(Path(s), Path(t)))


def interrupt(module: str, function: str):
    """Ctrl-C while ``module.function`` runs."""

    def press(*args, **kwargs):
        raise KeyboardInterrupt

    def setup(ws: Workspace) -> None:
        ws.monkeypatch.setattr(load_snippet(module), function, press)

    return setup


# ---- the table -------------------------------------------------------------------------------------------


@dataclass
class Row:
    id: str
    script: str
    args: list[str]
    code: int
    needle: str = ""  # in the stderr line
    setup: Callable[[Workspace], None] | None = None
    how: str = "main"  # "main" (in this process), "process", "ctrl-c"
    wait_for: str = ""  # ctrl-c: the stdout line after which SIGINT is sent
    after: Callable[[Workspace, Outcome], None] | None = None

    @property
    def param(self):
        return pytest.param(self, id=self.id)


def saved_epoch(number: int):
    def after(ws: Workspace, outcome: Outcome) -> None:
        assert torch.load(ws.ck, weights_only=True)["epoch"] == number
        assert not list(ws.ck.parent.glob(ws.ck.name + ".*.tmp"))

    return after


def nothing_written(name: str):
    def after(ws: Workspace, outcome: Outcome) -> None:
        assert not (ws.tmp / name).exists()

    return after


# ---- running a row ---------------------------------------------------------------------------------------


def as_process(script: str, args: list[str], cwd: Path, **env: str) -> Outcome:
    result = run_snippet(f"{script}.py", *args, cwd=cwd, timeout=300, **env)
    return Outcome(result.returncode, result.stdout, result.stderr)


def default_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(argv: list[str], cwd: Path, **env: str) -> subprocess.Popen:
    """``python ARGV`` as a reader starts it from a console, its output piped here."""
    return subprocess.Popen(
        [sys.executable, *argv],
        cwd=cwd,
        env=clean_env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C's default for the script: a run started in the background (.ci/run's second run, `cmd &`)
        # ignores SIGINT, and a Python started so never raises KeyboardInterrupt.
        preexec_fn=default_ctrl_c if hasattr(os, "fork") else None,  # Windows: SIGINT tests skip (no console group)
    )


def with_ctrl_c(script: str, args: list[str], cwd: Path, wait_for: str) -> Outcome:
    """Start the script as a reader does, press Ctrl-C (SIGINT) once ``wait_for`` is printed."""
    process = start([str(SNIPPETS / f"{script}.py"), *args], cwd, PYTHONIOENCODING="ascii")
    seen = []
    try:
        for line in process.stdout:
            seen.append(line)
            if wait_for in line:
                process.send_signal(signal.SIGINT)
                break
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert any(wait_for in line for line in seen), "".join(seen) + err
    return Outcome(process.returncode, "".join(seen) + out, err)


def trained_checkpoint(data_root: Path, folder: Path) -> Path:
    """A checkpoint after epoch 1 of TRAIN on the real data, in ``folder``."""
    path = folder / "lenet.pt"
    args = [arg.format(data=data_root, ck=path) for arg in TRAIN]
    assert load_snippet("train_mnist").main([*args, "--epochs", "1"]) == 0
    return path


def run_row(row: Row, ws: Workspace) -> Outcome:
    args = [ws.fill(arg) for arg in row.args]
    if row.how == "ctrl-c":
        if os.name == "nt":
            pytest.skip("SIGINT to a child needs a console group on Windows; the POSIX legs run this row")
        return with_ctrl_c(row.script, args, ws.tmp, row.wait_for)
    if row.how == "process":
        return as_process(row.script, args, ws.tmp)
    return run_main(row.script, args)  # main() through its door, script_guard.exit_status, in this process


def check_row(row: Row, ws: Workspace) -> None:
    """Set the row up, run it in its folder, and hold it to the contract."""
    ws.monkeypatch.chdir(ws.tmp)
    ws.monkeypatch.delenv("TORCH_DEVICE", raising=False)
    if row.setup:
        row.setup(ws)
    outcome = run_row(row, ws)
    shown = f"exit {outcome.code}\n--- stdout\n{outcome.out[-3000:]}\n--- stderr\n{outcome.err[-3000:]}"
    assert "Traceback" not in outcome.err, shown
    assert outcome.code == row.code, shown
    lines = [line for line in outcome.err.splitlines() if line.strip()]
    if row.code == 0:
        assert not lines, shown
    else:
        assert len(lines) == 1 and lines[0].startswith("error: "), shown
        assert row.needle in lines[0], shown
        assert lines[0].isascii(), shown  # a GBK or cp1252 console shows it
    if row.after:
        row.after(ws, outcome)
