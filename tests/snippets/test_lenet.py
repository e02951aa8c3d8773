"""Tests for snippets/lenet.py: the LeNet-5 shapes and its size (that it learns: test_train_mnist.py)."""

from __future__ import annotations

import torch

from guide_harness import load_snippet, run_snippet

lenet = load_snippet("lenet")

# conv1 6*(25+1) + conv2 16*(6*25+1) + fc 400*120+120 + 120*84+84 + 84*10+10
LENET5_PARAMETERS = 156 + 2416 + 48120 + 10164 + 850


def test_script_prints_the_model(tmp_path):
    result = run_snippet("lenet.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "output shape for a batch of 2: (2, 10)" in result.stdout
    assert f"parameters: {LENET5_PARAMETERS:,}" in result.stdout
    assert "Conv2d(1, 6, kernel_size=(5, 5)" in result.stdout


def test_shapes_and_parameters():
    model = lenet.LeNet()
    assert model.features(torch.zeros(3, 1, 28, 28)).shape == (3, 16, 5, 5)
    assert model(torch.zeros(3, 1, 28, 28)).shape == (3, 10)
    assert sum(p.numel() for p in model.parameters()) == LENET5_PARAMETERS
    assert all(p.dtype == torch.float32 for p in model.parameters())
