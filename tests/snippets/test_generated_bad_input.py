"""Generated bad input for every script of the readers' zip (issue 47): command lines and TORCH_DEVICE derived
from each script's own argparse parser (its options, types, choices and nargs), at least 200 cases per script;
damaged data files and checkpoints. Each case holds the script to the contract of tests/generated_cases.py: exit
0, 1, 2 or 130, at most one line on stderr, never a traceback, never lost work, never a wrong success.

Hypothesis runs derandomized: the same cases each run, so a failure repeats, and it prints its case.
The fault harness (Ctrl-C, torch that does not load, full disks, read-only targets, stdout, two runs) is
test_generated_faults.py.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from bad_input import RAW, TRAIN, link
from fetch_fashion_mnist import FILES
from generated_cases import (
    EXAMPLES,
    QUICK,
    SCRIPTS,
    SHORT,
    command_lines,
    contract,
    environment,
    few,
    furnish,
    in_place,
    judge,
    parser_of,
    run_main,
)

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
        if script == "train_mnist":  # the tables' quick run, on the damaged data
            argv = [arg.format(data=work / "d", ck=work / "ck" / "x.pt") for arg in TRAIN] + ["--epochs", "1"]
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
    value = torch.load(trained, weights_only=True)
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
