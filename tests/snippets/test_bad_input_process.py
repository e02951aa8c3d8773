"""What every reader script a page tells readers to run does as a process (issue 41, review
2026-12-reliability-3 section 3): Ctrl-C (a real SIGINT where the contract is the exit status) exits 130 with
one line, a Python without torch is one line, and a non-ASCII folder on an ASCII console prints no traceback.
Each row as in test_bad_input.py (tests/bad_input.py runs them).
"""

from __future__ import annotations

import shutil

import pytest

from bad_input import (
    ANY_TORCH,
    BENCH,
    REPORT,
    SCRIPTS,
    TRAIN,
    Row,
    Workspace,
    check_row,
    interrupt,
    link,
    no_torch,
    nothing_written,
    saved_epoch,
)
from guide_harness import DOCS, SNIPPETS

# test_generated_bad_input.py's scripts: the zip's, less the door itself
GENERATED_SCRIPTS = {p.stem for p in SNIPPETS.glob("*.py")} - {"script_guard"}

# any_torch: these rows test the scripts' own handling of a signal, a Python without torch and an ASCII console;
# the torch calls they pass through (loading data, an epoch, a checkpoint) run on both torch versions in
# test_train_mnist.py, test_mnist_data.py, test_report.py and test_verify_training.py.
pytestmark = pytest.mark.any_torch

ROWS = [
    Row(
        "mnist_data: Ctrl-C",
        "mnist_data",
        ["--dataset", "fashion-mnist", "--data-dir", "{real}"],
        130,
        "interrupted",
        interrupt("mnist_data", "load_dataset"),
        marks=(ANY_TORCH,),
    ),
    Row(
        "check_mnist_files: non-ASCII folder, ASCII console",
        "check_mnist_files",
        ["--data-dir", "{tmp}/\u6570\u636e \u00dcn\u00ef"],
        1,
        "missing",
        how="process",
        marks=(ANY_TORCH,),  # the script's own path printing; torch is imported, never used
    ),
    Row(
        "check_mnist_files: Ctrl-C",
        "check_mnist_files",
        ["--dataset", "fashion-mnist", "--data-dir", "{real}"],
        130,
        "interrupted",
        interrupt("check_mnist_files", "check_files"),
        marks=(ANY_TORCH,),
    ),
    Row(
        "train_mnist: non-ASCII folders, ASCII console",
        "train_mnist",
        [
            *TRAIN,
            "--data-dir",
            "{tmp}/\u6570\u636e \u00dcn\u00ef",
            "--checkpoint",
            "{tmp}/\u68c0\u67e5\u70b9/lenet.pt",
            "--epochs",
            "1",
        ],
        0,
        setup=lambda ws: shutil.copytree(ws.real, ws.tmp / "\u6570\u636e \u00dcn\u00ef", copy_function=link),
        how="process",
    ),
    Row(
        "train_mnist: Ctrl-C before epoch 1",
        "train_mnist",
        [*TRAIN, "--data-dir", "{real}", "--epochs", "1"],
        130,
        "nothing",
        interrupt("train_mnist", "prepare"),
        marks=(ANY_TORCH,),
    ),
    Row(
        "train_mnist: Ctrl-C in epoch 2",
        "train_mnist",
        # 120 batches of 50 an epoch: SIGINT at 25 % of epoch 2 lands long before its end
        [*TRAIN, "--data-dir", "{real}", "--epochs", "3", "--limit-train", "6000", "--batch-size", "50"],
        130,
        "--resume",
        how="ctrl-c",
        wait_for="epoch 2/3  25%",
        after=saved_epoch(1),
    ),
    Row(
        "report: Ctrl-C in the training check",
        "report",
        [*REPORT, "--data-dir", "{real}", "--steps", "100000000"],
        130,
        "interrupted",
        how="ctrl-c",
        wait_for="2/3 the training check",
        after=nothing_written("run-report.json"),
    ),
    Row(
        "verify_training: Ctrl-C",
        "verify_training",
        ["--device", "cpu", "--steps", "100000000"],
        130,
        "interrupted",
        how="ctrl-c",
        wait_for="Training",
    ),
    Row(
        "verify_directml: Ctrl-C",
        "verify_directml",
        [],
        130,
        "interrupted",
        interrupt("verify_directml", "verify_directml"),
        marks=(ANY_TORCH,),
    ),
    Row("doctor: Ctrl-C", "doctor", [], 130, "interrupted", interrupt("doctor", "examine"), marks=(ANY_TORCH,)),
    Row(
        "choose_device: Ctrl-C",
        "choose_device",
        [],
        130,
        "interrupted",
        interrupt("choose_device", "choose_device"),
        marks=(ANY_TORCH,),
    ),
    Row(
        "benchmark_devices: Ctrl-C",
        "benchmark_devices",
        [*BENCH, "--data-dir", "{real}", "--limit-train", "60000", "--epochs", "50"],
        130,
        "interrupted",
        how="ctrl-c",
        wait_for="timing cpu",
    ),
    Row(
        "benchmark_data_loading: Ctrl-C",
        "benchmark_data_loading",
        [*BENCH, "--data-dir", "{real}", "--limit-train", "60000"],
        130,
        "interrupted",
        how="ctrl-c",
        wait_for="device:",
    ),
    # The doctor's own diagnosis of a Python without torch; every other script's answer (script_guard.start) is
    # generated in test_generated_bad_input.py (test_generated_import_faults) and run as a real process in
    # test_script_guard.py.
    *no_torch("doctor"),
]


@pytest.mark.parametrize("row", [row.param for row in ROWS])
def test_bad_input(row: Row, fashion_mnist_root, trained, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    check_row(row, Workspace(tmp_path, fashion_mnist_root, trained, monkeypatch), capsys)


def test_every_script_a_page_runs_has_its_rows():
    """Each reader script that a page tells readers to run is here with Ctrl-C (a real SIGINT), and the doctor with a
    Python without torch; a torch that does not load, for every script, is generated (test_generated_bad_input.py)."""
    told = {
        name
        for page in DOCS.rglob("*.md")
        for name in [*SCRIPTS, "lenet", "train_mnist_notebook"]
        if f"python {name}.py" in page.read_text(encoding="utf-8")
    }
    assert told == set(SCRIPTS), told ^ set(SCRIPTS)
    for script in SCRIPTS:
        kinds = {row.id.partition(": ")[2] for row in ROWS if row.script == script}
        assert script != "doctor" or "no torch in this Python" in kinds, script
        assert script in GENERATED_SCRIPTS, script
        assert any(kind.startswith("Ctrl-C") for kind in kinds), script
