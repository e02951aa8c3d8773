"""Tests for snippets/troubleshooting/float32_data.py: NumPy float64 becomes float32, integers stay."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from guide_harness import load_snippet, run_snippet

float32_data = load_snippet("troubleshooting/float32_data")


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_floating_point_arrays_become_float32(dtype):
    array = np.linspace(0, 1, 5, dtype=dtype)
    tensor = float32_data.to_float32_tensor(array)
    assert tensor.dtype == torch.float32
    assert torch.allclose(tensor, torch.linspace(0, 1, 5), atol=1e-3)


def test_integer_arrays_keep_their_dtype_and_lists_work():
    assert float32_data.to_float32_tensor(np.arange(3)).dtype == torch.int64
    assert float32_data.to_float32_tensor([0.5, 1.5]).dtype == torch.float32  # a plain list is float64 in NumPy


def test_script_converts_and_computes(tmp_path):
    result = run_snippet("troubleshooting/float32_data.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "NumPy features: float64 -> tensor torch.float32" in result.stdout
    assert "as torch.float32" in result.stdout


@pytest.mark.directml
def test_float32_data_runs_on_directml():
    import torch_directml

    device = torch_directml.device()
    x = float32_data.to_float32_tensor(np.random.default_rng(0).normal(size=(4, 4))).to(device)
    assert x.device.type == "privateuseone"
    assert (x @ x).dtype == torch.float32
