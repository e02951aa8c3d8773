"""Tests for snippets/train_mnist_notebook.py run as a script (the notebook itself: tests/guide/test_notebook.py)."""

from __future__ import annotations

import re

from guide_harness import assert_one_line_error, run_snippet


def test_script_trains_and_reports_each_epoch(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "train_mnist_notebook.py",
        "--dataset",
        "fashion-mnist",
        "--data-dir",
        str(fashion_mnist_root),
        "--no-download",
        "--epochs",
        "2",
        "--limit-train",
        "4000",
        "--limit-test",
        "1000",
        cwd=tmp_path,
        TORCH_DEVICE="cpu",
    )
    assert result.returncode == 0, result.stderr
    accuracies = [float(a) for a in re.findall(r"^epoch \d/2 .*test accuracy (\d\.\d+)$", result.stdout, re.M)]
    assert len(accuracies) == 2
    assert accuracies[-1] > 0.55, accuracies  # chance is 0.10


def test_no_data_folder_without_download_is_one_line(tmp_path):
    result = run_snippet(
        "train_mnist_notebook.py",
        "--data-dir",
        str(tmp_path / "none"),
        "--no-download",
        cwd=tmp_path,
        TORCH_DEVICE="cpu",
    )
    assert_one_line_error(result, "mnist not found", "--download")
    assert " loss " not in result.stdout
