"""The harness of the generated bad-input tests (tests/snippets/test_generated_bad_input.py and
test_generated_faults.py, issue 47): how a case runs a script (through its door, script_guard.exit_status, as
`python script.py ARGS` does; runpy for what happens while it imports), the contract it is held to (exit 0, 1,
2 or 130, at most one line on stderr, never a traceback), the folder the cases run in, and what the cases are
made of (each script's own argparse parser).

GENERATED_EXAMPLES=N changes the number of cases per script (200).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import runpy
import shutil
import signal
import sys
import traceback
from pathlib import Path
from typing import NamedTuple

import pytest
import torch
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from fetch_fashion_mnist import FILES
from guide_harness import SNIPPETS, load_snippet

# Every script of the zip a reader runs: those with a main guard (script_guard.py and gpu_identity.py are modules)
MAIN_GUARD = re.compile(r'^if __name__ == "__main__":', re.M)  # at the top level, not in a docstring
SCRIPTS = sorted(p.stem for p in SNIPPETS.glob("*.py") if MAIN_GUARD.search(p.read_text(encoding="utf-8")))
CODES = {0, 1, 2, 130}
# Dead proxies: a script that tried the network anyway would fail at once instead of downloading.
NO_NETWORK = dict.fromkeys(("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"), "http://127.0.0.1:9")
EXAMPLES = int(os.environ.get("GENERATED_EXAMPLES", "200"))  # per script, for the cases from the parsers

QUICK = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same cases every run: a failure repeats
    suppress_health_check=list(HealthCheck),
    database=None,
)


def few(count: int):
    return settings(QUICK, max_examples=count)


class Outcome(NamedTuple):
    code: int | None  # None: an exception left the script, a traceback for the reader
    out: str
    err: str


# ---- running a script -------------------------------------------------------------------------------------


@contextlib.contextmanager
def captured(stdout=None):
    out, err = stdout or io.StringIO(), io.StringIO()
    handler = signal.getsignal(signal.SIGINT)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdout", out)
        mp.setattr(sys, "stderr", err)
        try:
            yield out, err
        finally:
            signal.signal(signal.SIGINT, handler)


def text_of(stream) -> str:
    if isinstance(stream, io.StringIO):
        return stream.getvalue()
    return stream.raw_bytes.decode("utf-8", "replace")  # test_generated_faults.Pipe: the bytes it took


def run_main(script: str, argv: list[str] | None, stdout=None) -> Outcome:
    module = load_snippet(script)
    with captured(stdout) as (out, err):
        try:
            code = load_snippet("script_guard").exit_status(module.main, argv)  # as its __main__ guard runs it
        except BaseException:  # noqa: BLE001 - what the reader would see as a traceback
            return Outcome(None, text_of(out), err.getvalue() + traceback.format_exc())
    return Outcome(code, text_of(out), err.getvalue())


def run_as_program(script: str, argv: list[str]) -> Outcome:
    """`python script.py ARGV` in this process: the module's own top runs again (its imports, its guard)."""
    path = str(SNIPPETS / f"{script}.py")
    with captured() as (out, err), pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "argv", [path, *argv])
        try:
            runpy.run_path(path, run_name="__main__")
            code = 0
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) or stop.code is None else 1
            if isinstance(stop.code, str):
                print(stop.code, file=sys.stderr)
            code = code or 0
        except BaseException:  # noqa: BLE001
            return Outcome(None, out.getvalue(), err.getvalue() + traceback.format_exc())
    return Outcome(code, out.getvalue(), err.getvalue())


def judge(kind: str, script: str, ok: bool, outcome: Outcome | None = None, why: str = "") -> None:
    """Fail a broken promise of class ``kind``."""
    if ok:
        return
    shown = (
        ""
        if outcome is None
        else f"exit {outcome.code}\n--- stdout\n{outcome.out[-2000:]}\n--- stderr\n{outcome.err[-3000:]}"
    )
    pytest.fail(f"{kind} ({script}): {why}\n{shown}")


def contract(script: str, outcome: Outcome) -> None:
    """Exit 0, 1, 2 or 130, at most one line on stderr (an "error:" line when the exit is not 0), no traceback."""
    lines = [line for line in outcome.err.splitlines() if line.strip()]
    judge("traceback", script, outcome.code is not None and "Traceback" not in outcome.err, outcome, "a traceback")
    if outcome.code is None:
        return
    judge("exit status", script, outcome.code in CODES, outcome, f"exit {outcome.code}")
    judge("lines", script, len(lines) <= 1, outcome, f"{len(lines)} lines on stderr")
    if outcome.code != 0 and lines:
        judge(
            "lines", script, lines[0].startswith("error: ") and lines[0].isascii(), outcome, "not an ASCII error line"
        )


# ---- a workspace: folders and files the cases point at ----------------------------------------------------


def layout(root: Path) -> list[tuple[str, int]]:
    return sorted(
        (str(path), path.stat().st_size if path.is_file() else -1)
        for path in root.rglob("*")
        if "real" not in path.parts[len(root.parts) :][:1]
    )


FURNISHED: dict[Path, list] = {}


def furnish(root: Path) -> None:
    """The same folder before each case: what a case wrote (a --download, an output) is gone."""
    if FURNISHED.get(root) == layout(root):
        return  # as it was made: nothing to do (most cases write nothing)
    for path in root.iterdir():
        if path.name != "real":
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    (root / "empty").mkdir()
    (root / "a-folder").mkdir()
    (root / "a-file").write_text("not a folder")
    for folder in ("MNIST", "FashionMNIST"):  # every file there, but truncated
        raw = root / "broken" / folder / "raw"
        raw.mkdir(parents=True)
        for name in FILES:
            (raw / name).write_bytes(b"\x00\x00\x08\x03" + b"\x00" * 100)
    FURNISHED[root] = layout(root)


# Paths: relative to the case's folder, each one a way an output or a data folder can be unusable.
PATHS = [
    "",
    ".",
    "..",
    "empty",
    "a-folder",
    "a-file",
    "a-file/below.json",
    "no/such/folder/x.pt",
    "broken",
    "out.json",
    "ck.pt",
    "\u540d\u524d \u00fc.json",
    "x" * 300,
]
DEVICES = [
    "cpu",
    "dml",
    "dml:1",
    "cuda",
    "cuda:7",
    "xpu",
    "xpu:0",
    "cpu:0",
    "dml:\u00b2",
    "cuda:\u0663",
    "DML : 0",
    "",
    "gpu",
]
INTEGERS = [str(2**64), str(2**63), str(-(2**70)), "1e3", "\u0663", "\u00b2", " 7", "0x10", "1_0", "", "-0", "nan"]
FLOATS = ["1e309", "-1e309", "nan", "inf", "-0", "0x1p3", "1e-320", "\uff11", "1e6"]


def parser_of(script: str) -> argparse.ArgumentParser | None:
    """The script's own parser, caught as main() calls parse_args (None: the script takes no options)."""

    class Caught(Exception):
        pass

    def catch(self, *args, **kwargs):
        raise Caught(self)

    module = load_snippet(script)
    with pytest.MonkeyPatch.context() as mp, captured():
        mp.setattr(argparse.ArgumentParser, "parse_args", catch)
        try:
            door = load_snippet("script_guard")
            door.exit_status(module.main, []) if "argv" in module.main.__code__.co_varnames else module.main()
        except Caught as caught:
            return caught.args[0]
        except BaseException:  # noqa: BLE001 - lenet: no parser; it ran
            return None
    return None


def values(action: argparse.Action):
    """Values for one option, from its own definition: choices, type, or a path or device word."""
    if action.choices:
        return st.one_of(st.sampled_from(sorted(map(str, action.choices))), st.text(max_size=8))
    kind = action.type
    name = getattr(kind, "__name__", "")
    if kind is Path:
        return st.sampled_from(PATHS)
    if kind is float or "float" in name:
        return st.one_of(st.floats().map(repr), st.sampled_from(FLOATS), st.text(max_size=6))
    if kind is int or "int" in name or "seed" in name:
        # valid numbers stay small: a generated run must not train for long
        return st.one_of(st.integers(-3, 12).map(str), st.sampled_from(INTEGERS), st.text(max_size=6))
    return st.one_of(st.sampled_from(DEVICES), st.text(max_size=12))


@st.composite
def command_lines(draw, parser: argparse.ArgumentParser | None) -> list[str]:
    if parser is None:
        return []
    argv: list[str] = []
    options = [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]
    for action in draw(st.lists(st.sampled_from(options), max_size=5)) if options else []:
        argv.append(draw(st.sampled_from(action.option_strings)))
        if action.nargs != 0:
            argv.append(draw(values(action)))
    if draw(st.integers(0, 9)) == 0:  # a stray word or option
        argv.insert(draw(st.integers(0, len(argv))), draw(st.sampled_from(["--bogus", "x", "-", "--", "--help"])))
    return argv


def environment(draw) -> dict[str, str | None]:
    device = draw(st.one_of(st.none(), st.sampled_from(DEVICES), st.text(max_size=8)))
    return {"TORCH_DEVICE": device}


@contextlib.contextmanager
def in_place(place: Path, env: dict[str, str | None]):
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(place)
        for key, value in NO_NETWORK.items():
            mp.setenv(key, value)
        for key, value in env.items():
            if value is None or "\x00" in value:
                mp.delenv(key, raising=False)
            else:
                mp.setenv(key, value)
        quiet_doctor(mp)
        check = sys.modules["verify_training"]  # 2 steps for each of its --steps: the same code, in less time
        real_train = check.train
        mp.setattr(
            check, "train", lambda model, data, device, steps, bf16=False: real_train(model, data, device, 2, bf16)
        )
        notebook = sys.modules["train_mnist_notebook"]  # its settings: a module-level dict the options change
        mp.setattr(notebook, "settings", dict(notebook.settings))
        yield mp


def quiet_doctor(mp: pytest.MonkeyPatch) -> None:
    """The doctor's probe imports torch in a child Python (seconds): a canned answer instead."""
    doctor = sys.modules["doctor"]
    mp.setattr(doctor, "start_probe", lambda: None)
    mp.setattr(
        doctor,
        "probe_result",
        lambda child, timeout=600: {"imported": True, "version": torch.__version__, "devices": []},
    )


# Arguments put first (the generated ones come after and win): no generated run trains for long.
SHORT = {"verify_training": ["--steps", "10"]}
