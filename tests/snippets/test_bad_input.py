"""Bad input to the reader scripts whose refusal the generated cases (test_generated_bad_input.py,
test_generated_faults.py) do not pin down (issue 41, review 2026-12-reliability-3 section 3): the words of
the line, a refusal before any work, the earlier checkpoint byte for byte as it was. Each row: the exit
status, one "error:" line on stderr that names the problem, no traceback (tests/bad_input.py runs them).
Ctrl-C and a non-ASCII folder are in test_bad_input_process.py.
"""

from __future__ import annotations

import pytest
from torchvision import datasets

from bad_input import (
    BENCH,
    EMPTY_IMAGES,
    IMAGES,
    REPORT,
    TRAIN,
    Row,
    Workspace,
    both,
    check_row,
    checkpoint,
    data,
    edited,
    four_missing,
    notebook_settings,
    nothing_made,
    repaired,
    repairing_downloader,
    wrong_shapes,
)

ROWS = [
    Row(
        "mnist_data: a folder for the images file",
        "mnist_data",
        ["--dataset", "fashion-mnist", "--data-dir", "{data}"],
        1,
        "not found",
        data(**{IMAGES: None}),
    ),
    Row(
        "mnist_data: --download repairs an empty file",
        "mnist_data",
        ["--dataset", "fashion-mnist", "--data-dir", "{data}", "--download"],
        0,
        setup=both(EMPTY_IMAGES, repairing_downloader),
        after=repaired,
    ),
    Row(
        "check_mnist_files: no data folder",
        "check_mnist_files",
        ["--data-dir", "{tmp}/none"],
        1,
        ("4 of 4 files missing or damaged", "train-images-idx3-ubyte.gz", *datasets.MNIST.mirrors),
        after=four_missing,
    ),
    Row(
        "train_mnist: no data folder",
        "train_mnist",
        [*TRAIN, "--epochs", "1", "--data-dir", "{tmp}/none"],
        1,
        ("fashion-mnist not found in", "--download"),
        no_work=True,
        after=nothing_made,
    ),
    Row(
        "train_mnist: checkpoint exists, no --resume",
        "train_mnist",
        [*TRAIN, "--data-dir", "{real}", "--epochs", "2"],
        1,
        "already exists: add --resume",
        checkpoint(),
        kept=True,
        no_work=True,
    ),
    Row(
        "train_mnist: wrong weight shapes",
        "train_mnist",
        [*TRAIN, "--data-dir", "{real}", "--epochs", "2", "--resume"],
        1,
        "does not fit this model",
        checkpoint(edited(wrong_shapes)),
        kept=True,
        no_work=True,
    ),
    Row(
        "train_mnist: read-only checkpoint folder, new run",
        "train_mnist",
        [*TRAIN, "--data-dir", "{real}", "--epochs", "1", "--checkpoint", "{tmp}/locked/lenet.pt"],
        1,
        "locked",
        lambda ws: (ws.tmp / "locked").mkdir(),
        read_only="{tmp}/locked",
        no_work=True,
    ),
    Row(
        "report: --out in a read-only folder",
        "report",
        [*REPORT, "--data-dir", "{real}", "--out", "{tmp}/locked/r.json"],
        1,
        "cannot write",
        lambda ws: (ws.tmp / "locked").mkdir(),
        read_only="{tmp}/locked",
        no_work=True,
    ),
    Row(
        "benchmark_devices: --json in no folder",
        "benchmark_devices",
        [*BENCH, "--data-dir", "{real}", "--json", "{tmp}/none/b.json"],
        1,
        "b.json",
        no_work=True,
    ),
    Row(
        "benchmark_data_loading: --json in no folder",
        "benchmark_data_loading",
        [*BENCH, "--data-dir", "{real}", "--json", "{tmp}/none/b.json"],
        1,
        "b.json",
        no_work=True,
    ),
    Row(
        "train_mnist_notebook: no data folder",
        "train_mnist_notebook",
        ["--data-dir", "{tmp}/none", "--no-download"],
        1,
        ("mnist not found", "--download"),
        setup=notebook_settings,
        no_work=True,
    ),
]


@pytest.mark.parametrize("row", [row.param for row in ROWS])
def test_bad_input(row: Row, fashion_mnist_root, trained, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    check_row(row, Workspace(tmp_path, fashion_mnist_root, trained, monkeypatch), capsys)
