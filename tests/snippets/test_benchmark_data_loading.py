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


def test_worker_processes_start_once_in_the_warm_up_not_in_each_timed_pass(fashion_mnist_root):
    """Windows spawns DataLoader workers (seconds each); started per pass, they would land in the timed epoch.

    The script's warm-up takes a few batches, then times passes over the same loader: every pass must
    reuse the warm-up's worker processes.
    """
    import torchvision

    from guide_harness import load_snippet

    transforms_loader = load_snippet("benchmark_data_loading").transforms_loader

    loader = transforms_loader(torchvision.datasets.FashionMNIST, fashion_mnist_root, batch_size=50, seed=0,
                               num_workers=1, limit=200)
    warm_up = iter(loader)
    next(warm_up)  # the warm-up stops after a few batches, as the script's does
    workers = [worker.pid for worker in warm_up._workers]
    for _ in range(2):  # the timed passes
        timed_pass = iter(loader)
        assert sum(len(labels) for _, labels in timed_pass) == 200
        assert [worker.pid for worker in timed_pass._workers] == workers, "new worker processes were started"
    assert all(worker.is_alive() for worker in timed_pass._workers)


def test_runs_with_worker_processes(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "benchmark_data_loading.py", "--dataset", "fashion-mnist", "--data-dir", str(fashion_mnist_root),
        "--device", "cpu", "--limit-train", "600", "--batch-size", "100", "--num-workers", "1", cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "600 training images, batch 100, 1 DataLoader workers" in result.stdout
    assert re.search(r"^ratio: preloaded tensors trained \d+\.\d\dx", result.stdout, re.M), result.stdout
