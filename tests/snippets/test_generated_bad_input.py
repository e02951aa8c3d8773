"""Generated bad input for every script of the readers' zip (issue 47): cases derived from each script's own
argparse parser (its options, types, choices and nargs), damaged data files and checkpoints, and a fault
harness (Ctrl-C at any moment, a torch that does not load, a full disk, read-only targets, stdout that cannot
take what is printed, two runs on one checkpoint). Each case runs the script in this process through its door
(script_guard.exit_status, as `python script.py ARGS` does; runpy for what happens while it imports) and holds
it to the contract: exit 0, 1, 2 or 130, at most one line on stderr, never a traceback, never lost work, never
a wrong success.

Hypothesis runs derandomized (the same cases each run, so a failure repeats); a failure prints its case.
GENERATED_COUNT=FILE counts the failures per class instead of stopping at the first (the note's figures).
"""

from __future__ import annotations

import argparse
import builtins
import collections
import contextlib
import errno
import importlib
import io
import json
import os
import runpy
import shutil
import signal
import sys
import traceback
from pathlib import Path
from typing import NamedTuple

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bad_input import RAW, TRAIN, link
from fetch_fashion_mnist import FILES
from guide_harness import SNIPPETS, load_snippet

# The zip's scripts (docs/hooks/guide/gpu_pages.py SCRIPTS: snippets/*.py), less the door itself.
SCRIPTS = sorted(p.stem for p in SNIPPETS.glob("*.py") if p.stem != "script_guard")
CODES = {0, 1, 2, 130}
COUNT_FILE = os.environ.get("GENERATED_COUNT", "")
FAILURES: collections.Counter = collections.Counter()
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


def guarded(main, argv):
    """The script's run as its `if __name__ == "__main__"` does it: through the door when there is one, else
    (the scripts before the door) main() with SystemExit as Python reports it."""
    try:
        door = importlib.import_module("script_guard")
    except ImportError:
        door = None
    if door is not None:
        return door.exit_status(main, argv)
    try:
        return main() if argv is None else main(argv)
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            return 1
        return stop.code or 0


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
    with contextlib.suppress(Exception):
        stream.flush()
    raw = getattr(stream, "raw_bytes", None) or getattr(getattr(stream, "buffer", None), "getvalue", bytes)()
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)


def run_main(script: str, argv: list[str] | None, stdout=None) -> Outcome:
    module = load_snippet(script)
    with captured(stdout) as (out, err):
        try:
            code = guarded(module.main, argv)
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
    """Count (GENERATED_COUNT) or fail a broken promise of class ``kind``."""
    if ok:
        return
    if COUNT_FILE:
        test = os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[-1].split("[")[0].split(" ")[0]
        FAILURES[f"{kind} | {test} | {script}"] += 1
        return
    shown = (
        ""
        if outcome is None
        else f"exit {outcome.code}\n--- stdout\n{outcome.out[-2000:]}\n--- stderr\n{outcome.err[-3000:]}"
    )
    pytest.fail(f"{kind}: {why}\n{shown}")


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


@pytest.fixture(scope="module", autouse=True)
def counts():
    yield
    if COUNT_FILE:
        Path(COUNT_FILE).write_text(json.dumps(dict(sorted(FAILURES.items())), indent=1) + "\n", encoding="utf-8")


# ---- a workspace: folders and files the cases point at ----------------------------------------------------


@pytest.fixture(scope="module")
def place(tmp_path_factory, fashion_mnist_root) -> Path:
    for script in SCRIPTS:  # each imported once, here
        load_snippet(script)
    """The folder the cases run in (their working directory): broken data, a file where a folder should be,
    an existing folder, and the real data (``real``, never written)."""
    root = tmp_path_factory.mktemp("generated")
    (root / "real").symlink_to(fashion_mnist_root)
    furnish(root)
    return root


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
            guarded(module.main, []) if "argv" in module.main.__code__.co_varnames else module.main()
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
        for key in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):  # no download reaches a network
            mp.setenv(key, "http://127.0.0.1:9")
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


# ---- 1. the command line and the environment, from each script's parser -----------------------------------


@pytest.mark.parametrize("script", SCRIPTS)
def test_generated_command_lines(script, place):
    parser = parser_of(script)
    ran = []

    @QUICK
    @given(data=st.data())
    def case(data):
        ran.append(1)
        argv = data.draw(command_lines(parser), label="argv")
        env = environment(data.draw)
        data.draw(st.just(env), label="env")
        furnish(place)
        with in_place(place, env):
            outcome = run_main(script, [*SHORT.get(script, []), *argv] if parser else None)
        contract(script, outcome)

    case()
    assert len(ran) >= EXAMPLES, f"{len(ran)} cases, not {EXAMPLES}"


# ---- 2. damaged data files and checkpoints ----------------------------------------------------------------


def idx(magic: int, dims: list[int], size: int, body: bytes) -> bytes:
    header = b"".join(value.to_bytes(4, "big") for value in [magic, *dims])
    return (header + body)[:size].ljust(size, b"\x00")


@st.composite
def damaged_files(draw):
    """One of the four files damaged: truncated, its header's numbers changed, labels out of range."""
    name = draw(st.sampled_from(sorted(FILES)))
    size = FILES[name][1]
    images = "images" in name
    count = (size - 16) // 784 if images else size - 8
    how = draw(st.sampled_from(["truncated", "header", "labels"] if not images else ["truncated", "header"]))
    if how == "truncated":
        return name, ("truncated", draw(st.integers(0, 64)))
    if images:
        dims = draw(
            st.sampled_from([[count, 28, 28], [count, 28, 29], [count + 1, 28, 28], [count, 784, 1], [0, 0, 0]])
        )
        magic = draw(st.sampled_from([2051, 2049, 2051, 0]))
        return name, ("header", magic, dims)
    magic = draw(st.sampled_from([2049, 2049, 2051]))
    dims = [draw(st.sampled_from([count, count, count - 1, 2**31]))]
    top = draw(st.sampled_from([9, 10, 255]))
    return name, ("labels", magic, dims, top, draw(st.integers(0, 2**16)))


def write_damaged(raw: Path, real: Path, name: str, how) -> bool:
    """Write the data set with ``name`` damaged as ``how`` says; True when the result is still good data."""
    for each in FILES:
        if each != name:
            link(real / each, raw / each)
    size = FILES[name][1]
    target = raw / name
    if how[0] == "truncated":
        target.write_bytes((real / name).read_bytes()[: how[1]])
        return False
    if how[0] == "header":
        _, magic, dims = how
        with open(target, "wb") as file:  # right size, a header of these numbers; sparse: no 47 MB written
            file.write(idx(magic, dims, 16, b""))
            file.truncate(size)
        return magic == 2051 and dims == [(size - 16) // 784, 28, 28]
    _, magic, dims, top, seed = how
    labels = torch.randint(0, top + 1, (size - 8,), generator=torch.Generator().manual_seed(seed), dtype=torch.uint8)
    target.write_bytes(idx(magic, dims, size, labels.numpy().tobytes()))
    return magic == 2049 and dims == [size - 8] and int(labels.max()) <= 9


@pytest.mark.parametrize("script", ["mnist_data", "check_mnist_files", "train_mnist"])
def test_generated_damaged_data(script, place, tmp_path_factory):
    work = tmp_path_factory.mktemp(f"data-{script}")
    real = place / "real" / Path(*RAW)

    @few(25)
    @given(damaged=damaged_files())
    def case(damaged):
        name, how = damaged
        shutil.rmtree(work / "d", ignore_errors=True)
        raw = work / "d" / Path(*RAW)
        raw.mkdir(parents=True)
        good = write_damaged(raw, real, name, how)
        argv = ["--dataset", "fashion-mnist", "--data-dir", str(work / "d")]
        if script == "train_mnist":
            argv += [
                "--device",
                "cpu",
                "--epochs",
                "1",
                "--limit-train",
                "100",
                "--limit-test",
                "50",
                "--batch-size",
                "50",
            ]
            argv += ["--checkpoint", str(work / "ck" / "x.pt")]
            shutil.rmtree(work / "ck", ignore_errors=True)
        with in_place(work, {"TORCH_DEVICE": None}):
            outcome = run_main(script, argv)
        contract(script, outcome)
        if script != "check_mnist_files":  # it only reports what it finds
            judge("wrong success", script, good or outcome.code != 0, outcome, f"{name} damaged ({how[0]}) but exit 0")

    case()


def test_fashion_mnist_files_are_not_trained_as_mnist(place, tmp_path):
    """The same names and sizes under MNIST/raw: only their content tells (the wrong success of review s8)."""
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for name in FILES:
        link(place / "real" / Path(*RAW) / name, raw / name)
    for script in ("mnist_data", "train_mnist"):
        argv = ["--dataset", "mnist", "--data-dir", str(tmp_path)]
        if script == "train_mnist":
            argv += ["--device", "cpu", "--epochs", "1", "--limit-train", "100", "--limit-test", "50"]
            argv += ["--checkpoint", str(tmp_path / "ck.pt")]
        outcome = run_main(script, argv)
        contract(script, outcome)
        judge(
            "wrong success", script, outcome.code == 1 and "Fashion-MNIST" in outcome.err, outcome, "trained as MNIST"
        )


def trained_value(trained: Path) -> dict:
    return torch.load(trained, weights_only=True)


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.integers(0, 3), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@st.composite
def damaged_checkpoints(draw, good: bytes, value: dict):
    how = draw(st.sampled_from(["truncated", "garbled", "field", "history entry", "not a dict"]))
    if how == "truncated":
        return draw(st.integers(0, len(good) - 1)).__index__(), None
    if how == "garbled":
        at = draw(st.integers(0, len(good) - 1))
        return None, good[:at] + draw(st.binary(min_size=1, max_size=8)) + good[at + 8 :]
    changed = {key: item for key, item in value.items()}
    if how == "field":
        changed[draw(st.sampled_from(sorted(changed)))] = draw(JUNK)
    elif how == "history entry":
        entry = dict(changed["history"][0])
        entry[draw(st.sampled_from(["epoch", "loss", "accuracy", "seconds"]))] = draw(JUNK)
        changed["history"] = [entry]
    else:
        changed = draw(JUNK)
    buffer = io.BytesIO()
    torch.save(changed, buffer)
    return None, buffer.getvalue()


def test_generated_damaged_checkpoints(place, trained, tmp_path_factory):
    """--resume from a checkpoint damaged or with fields of other types: one line, and the file untouched."""
    work = tmp_path_factory.mktemp("checkpoints")
    good = trained.read_bytes()
    value = trained_value(trained)
    ck = work / "ck" / "lenet.pt"
    real = place / "real"

    @few(60)
    @given(damage=damaged_checkpoints(good, value))
    def case(damage):
        cut, content = damage
        shutil.rmtree(ck.parent, ignore_errors=True)
        ck.parent.mkdir()
        ck.write_bytes(good[:cut] if content is None else content)
        before = ck.read_bytes()
        argv = [arg.format(data=real, ck=ck) for arg in TRAIN] + ["--epochs", "1", "--resume"]
        with in_place(work, {"TORCH_DEVICE": None}):
            outcome = run_main("train_mnist", argv)
        contract("train_mnist", outcome)
        judge("lost work", "train_mnist", ck.read_bytes() == before, outcome, "the checkpoint changed")

    case()


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
}


def test_generated_unwritable_outputs(place, trained, tmp_path_factory):
    """A full disk (before the start, during the save or the final write) or a read-only target: one line,
    the earlier checkpoint intact, and a finished report never lost (written, or printed)."""
    work = tmp_path_factory.mktemp("outputs")

    @few(24)
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
    (named / "FashionMNIST").symlink_to(place / "real" / "FashionMNIST", target_is_directory=True)
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
    holding = getattr(train_mnist, "only_run_on", None)
    before = ck.read_bytes()
    with contextlib.ExitStack() as stack:
        if holding is not None:  # the other run holds the checkpoint's lock, as it does while it trains
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(os, "getpid", lambda: 4242)
                stack.enter_context(holding(ck))
        argv = [arg.format(data=place / "real", ck=ck) for arg in TRAIN] + ["--epochs", "2", "--resume"]
        outcome = run_main("train_mnist", argv)
    contract("train_mnist", outcome)
    judge("lost work", "train_mnist", theirs.exists(), outcome, "the other run's temporary file deleted")
    judge("lost work", "train_mnist", ck.read_bytes() == before, outcome, "the other run's checkpoint overwritten")
    judge("wrong success", "train_mnist", outcome.code == 1, outcome, "a second run trained alongside the first")


def test_a_diverging_loss_is_an_error(place, trained, tmp_path):
    """--lr so high the loss becomes inf or nan: an error, and the last good checkpoint kept."""
    ck = tmp_path / "lenet.pt"
    shutil.copy(trained, ck)
    before = ck.read_bytes()
    argv = [arg.format(data=place / "real", ck=ck) for arg in TRAIN] + ["--epochs", "2", "--resume", "--lr", "1e30"]
    outcome = run_main("train_mnist", argv)
    contract("train_mnist", outcome)
    judge("wrong success", "train_mnist", outcome.code == 1, outcome, "a diverged loss saved with exit 0")
    judge("lost work", "train_mnist", ck.read_bytes() == before, outcome, "the last good checkpoint replaced")


@pytest.mark.parametrize("option, value", [("--batch-size", "50"), ("--seed", "3"), ("--lr", "0.01")])
def test_resume_with_other_settings_says_which(option, value, place, trained, tmp_path):
    ck = tmp_path / "lenet.pt"
    shutil.copy(trained, ck)
    argv = [arg.format(data=place / "real", ck=ck) for arg in TRAIN] + ["--epochs", "2", "--resume", option, value]
    outcome = run_main("train_mnist", argv)
    contract("train_mnist", outcome)
    judge(
        "wrong success",
        "train_mnist",
        outcome.code == 1 and option in outcome.err,
        outcome,
        f"resumed with another {option}",
    )
