"""Tests for snippets/benchmark_data_loading.py: both recipes run, the table and the ratio are printed."""

from __future__ import annotations

import re

from guide_harness import assert_one_line_error, run_snippet


def test_times_both_recipes_and_prints_the_ratio(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "benchmark_data_loading.py", "--dataset", "fashion-mnist", "--data-dir", str(fashion_mnist_root),
        "--device", "cpu", "--limit-train", "1500", "--batch-size", "100", cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "1500 training images, batch 100, 0 DataLoader workers" in result.stdout
    seconds = {
        name: float(value)
        for name, value in re.findall(r"^(DataLoader \+ per-image transforms|  of which: the DataLoader pass alone|"
                                      r"preloaded tensors on the device) +(\d+\.\d\d)$", result.stdout, re.M)
    }
    assert len(seconds) == 3, result.stdout
    assert all(value > 0 for value in seconds.values())
    ratio = re.search(r"^ratio: preloaded tensors trained (\d+\.\d\d)x as fast as the DataLoader recipe on cpu$",
                      result.stdout, re.M)
    assert ratio, result.stdout
    expected = seconds["DataLoader + per-image transforms"] / seconds["preloaded tensors on the device"]
    assert abs(float(ratio.group(1)) - expected) < 0.05 * expected + 0.02


def test_missing_dataset_is_one_line(tmp_path):
    result = run_snippet("benchmark_data_loading.py", "--data-dir", str(tmp_path / "empty"), "--device", "cpu",
                         cwd=tmp_path)
    assert_one_line_error(result, "mnist not found", "--download")


def test_unknown_device_is_one_line(tmp_path):
    assert_one_line_error(run_snippet("benchmark_data_loading.py", "--device", "tpu", cwd=tmp_path), "unknown device")


def test_bad_arguments_are_one_line(tmp_path):
    assert_one_line_error(run_snippet("benchmark_data_loading.py", "--batch-size", "0", cwd=tmp_path),
                          "--batch-size", "must be 1 or more")
    assert_one_line_error(run_snippet("benchmark_data_loading.py", "--num-workers", "-1", cwd=tmp_path),
                          "--num-workers", "must be 0 or more")
