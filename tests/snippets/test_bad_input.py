"""What every reader script a page tells readers to run does when it is interrupted or run as a process (issue
41, review 2026-12-reliability-3 section 3): Ctrl-C (a real SIGINT where the contract is the exit status) exits
130 with one line, and a non-ASCII folder on an ASCII console prints no traceback (tests/bad_input.py runs the
rows). The generated cases hold every script to the contract (test_generated_bad_input.py,
test_generated_faults.py); the words of each refusal are in the script's own tests.
"""

from __future__ import annotations

import shutil

import pytest

from bad_input import (
    BENCH,
    REPORT,
    TRAIN,
    Row,
    Workspace,
    check_row,
    interrupt,
    link,
    nothing_written,
    saved_epoch,
)
from guide_harness import DOCS, SNIPPETS

# Ctrl-C while the script's own work runs (KeyboardInterrupt from that function, in this process):
# script: (the function, the arguments, what the line names)
INTERRUPTED = {
    "mnist_data": ("load_dataset", ["--dataset", "fashion-mnist", "--data-dir", "{real}"], "interrupted"),
    "check_mnist_files": ("check_files", ["--dataset", "fashion-mnist", "--data-dir", "{real}"], "interrupted"),
    "train_mnist": ("prepare", [*TRAIN, "--data-dir", "{real}", "--epochs", "1"], "nothing"),  # before epoch 1
    "verify_directml": ("verify_directml", [], "interrupted"),
    "doctor": ("examine", [], "interrupted"),
    "choose_device": ("choose_device", [], "interrupted"),
}

PROCESS_ROWS = [
    *(
        Row(f"{script}: Ctrl-C in {function}()", script, args, 130, needle, interrupt(script, function))
        for script, (function, args, needle) in INTERRUPTED.items()
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
]


# any_torch: these rows test the scripts' own handling of a signal and an ASCII console; the torch calls they
# pass through (loading data, an epoch, a checkpoint) run on both torch versions in test_train_mnist.py,
# test_mnist_data.py, test_report.py and test_verify_training.py.
@pytest.mark.any_torch
@pytest.mark.parametrize("row", [row.param for row in PROCESS_ROWS])
def test_bad_input_process(row: Row, fashion_mnist_root, tmp_path, monkeypatch):
    check_row(row, Workspace(tmp_path, fashion_mnist_root, monkeypatch))


@pytest.mark.any_torch
def test_every_script_a_page_runs_has_its_rows():
    """Each script of the readers' zip that a page tells readers to run is here with Ctrl-C; a torch that does not
    load, for every script, is generated (test_generated_faults.py), and the doctor's own diagnosis of it is
    test_doctor.py's."""
    pages = " ".join(page.read_text(encoding="utf-8") for page in DOCS.rglob("*.md"))
    told = {path.stem for path in SNIPPETS.glob("*.py") if f"python {path.stem}.py" in pages}
    assert {"train_mnist", "doctor", "report"} <= told, told  # the pages' wording is still found
    for script in told:
        assert any(row.script == script and ": Ctrl-C" in row.id for row in PROCESS_ROWS), script
