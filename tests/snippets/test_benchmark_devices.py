"""Tests for snippets/benchmark_devices.py: a fair side-by-side timing, and one clear line without a GPU.

No timing is asserted (this is not a speed test); the tests check the method and the report.
"""

from __future__ import annotations

import re

import pytest
import torch

from guide_harness import assert_one_line_error, load_snippet, run_snippet

benchmark_devices = load_snippet("benchmark_devices")

TINY = ("--dataset", "fashion-mnist", "--epochs", "2", "--limit-train", "640", "--warmup-steps", "2")


def test_cpu_against_itself_prints_the_ratio(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "benchmark_devices.py", *TINY, "--data-dir", str(fashion_mnist_root), "--device", "cpu", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "comparing the CPU with itself" in out
    assert re.search(r"^    2 +\d+\.\d\d +\d+\.\d\d$", out, re.M), out  # a row per epoch, both devices
    ratio = re.search(r"^ratio: cpu trained (\d+\.\d\d)x as fast as the CPU \(", out, re.M)
    assert ratio, out
    assert float(ratio.group(1)) > 0
    # Same data, seed and initial weights: the two runs learn exactly the same thing.
    accuracies = re.search(r"^test accuracy: cpu (\S+), cpu (\S+)$", out, re.M)
    assert accuracies and accuracies.group(1) == accuracies.group(2), out


def test_without_a_gpu_it_says_so(fashion_mnist_root, tmp_path, capsys, monkeypatch):
    args = (*TINY, "--data-dir", str(fashion_mnist_root))
    if benchmark_devices.choose_device()[0].type != "cpu":
        pytest.skip("this machine has a GPU")
    refused = run_snippet("benchmark_devices.py", *args, cwd=tmp_path)
    assert_one_line_error(refused, "no GPU to compare with the CPU", "--allow-cpu-only")
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    assert benchmark_devices.main([*args, "--allow-cpu-only"]) == 0
    out = capsys.readouterr().out
    assert "no accelerator found" in out and "only the CPU is timed" in out
    assert "ratio:" not in out


def test_timed_run_waits_and_uses_the_same_start(monkeypatch):
    calls = []
    real = benchmark_devices.synchronize
    # the warm-up's own wait, and train_mnist.timed_epoch's around each timed epoch
    for module in (benchmark_devices, load_snippet("train_mnist")):
        monkeypatch.setattr(module, "synchronize", lambda d, m: (calls.append(d), real(d, m)))
    data = (torch.randn(96, 1, 28, 28), torch.arange(96) % 10, torch.randn(20, 1, 28, 28), torch.arange(20) % 10)
    first = benchmark_devices.timed_run(torch.device("cpu"), data, 2, 32, 1e-3, 0, warmup_steps=1)
    second = benchmark_devices.timed_run(torch.device("cpu"), data, 2, 32, 1e-3, 0, warmup_steps=3)
    assert len(first[0]) == 2 and all(s > 0 for s in first[0])
    assert first[1] == second[1]  # the warm-up does not change what is trained
    assert len(calls) == 2 * (1 + 2 * 2)  # after warm-up, and before and after every epoch


@pytest.mark.directml
def test_directml_against_cpu(fashion_mnist_root, tmp_path):
    result = run_snippet(
        "benchmark_devices.py", *TINY, "--data-dir", str(fashion_mnist_root), "--device", "dml", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert re.search(r"^ratio: privateuseone:0 trained \d+\.\d\dx as fast as the CPU", result.stdout, re.M)
