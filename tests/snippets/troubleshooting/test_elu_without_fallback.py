"""Tests for snippets/troubleshooting/elu_without_fallback.py: the same values and gradients as nn.ELU."""

from __future__ import annotations

import warnings

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from guide_harness import load_snippet, run_snippet

elu_without_fallback = load_snippet("troubleshooting/elu_without_fallback")


@pytest.mark.parametrize("alpha", [1.0, 0.3, 2.5])
def test_values_and_gradients_match_nn_elu(alpha):
    torch.manual_seed(1)
    x = (torch.randn(4096) * 20).requires_grad_()  # includes large values: exp() must not overflow
    ours = elu_without_fallback.ELU(alpha)(x)
    reference = F.elu(x, alpha=alpha)
    assert torch.allclose(ours, reference, atol=1e-5)
    (gradient,) = torch.autograd.grad(ours.sum(), x)
    (reference_gradient,) = torch.autograd.grad(reference.sum(), x)
    assert torch.isfinite(gradient).all()
    assert torch.allclose(gradient, reference_gradient, atol=1e-5)


def test_it_calls_no_elu_operator():
    """The point of the class: aten::elu (the op that falls back on DirectML) never runs."""
    from torch.profiler import ProfilerActivity, profile

    x = torch.randn(64, requires_grad=True)
    with profile(activities=[ProfilerActivity.CPU]) as run:
        elu_without_fallback.ELU()(x).sum().backward()
    names = {event.name for event in run.events()}
    assert not any(name.startswith("aten::elu") for name in names), sorted(names)  # not aten::relu
    with profile(activities=[ProfilerActivity.CPU]) as run:
        F.elu(x).sum().backward()
    assert any(event.name.startswith("aten::elu") for event in run.events())  # the profiler would have seen it


def test_script_compares_with_f_elu(tmp_path):
    result = run_snippet("troubleshooting/elu_without_fallback.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "same values as F.elu: True; same gradients: True" in result.stdout


@pytest.mark.directml
def test_batchnorm_with_this_elu_trains_on_directml_without_fallback():
    import torch_directml

    device = torch_directml.device()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), elu_without_fallback.ELU(), nn.Linear(16, 1)).to(device)
    inputs = torch.randn(32, 8).to(device)
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model(inputs).pow(2).mean().backward()
    finally:
        torch.set_warn_always(False)
    fallbacks = [str(w.message) for w in caught if "fall back to run on the CPU" in str(w.message)]
    assert not fallbacks, fallbacks
    assert all(torch.isfinite(p.grad.cpu()).all() for p in model.parameters())
