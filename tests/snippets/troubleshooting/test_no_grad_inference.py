"""Tests for snippets/troubleshooting/no_grad_inference.py: predictions without autograd, on the CPU."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from guide_harness import load_snippet, run_snippet

no_grad_inference = load_snippet("troubleshooting/no_grad_inference")


def test_predict_returns_cpu_class_indices_without_a_graph():
    model = nn.Linear(2, 2)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[1.0, 0.0], [0.0, 1.0]]))
        model.bias.zero_()
    model.train()
    predictions = no_grad_inference.predict(model, torch.tensor([[3.0, 1.0], [0.0, 2.0]]))
    assert predictions.tolist() == [0, 1]
    assert predictions.device.type == "cpu"
    assert not predictions.requires_grad
    assert not model.training  # predict() switched the model to eval mode


def test_script_matches_the_cpu(tmp_path):
    result = run_snippet("troubleshooting/no_grad_inference.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "(same as on the CPU)" in result.stdout


@pytest.mark.directml
def test_predict_runs_on_directml():
    import torch_directml

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    inputs = torch.randn(6, 4)
    expected = no_grad_inference.predict(model, inputs)
    device = torch_directml.device()
    assert torch.equal(no_grad_inference.predict(model.to(device), inputs.to(device)), expected)
