"""Tests for snippets/migration/optimizer_order.py: why the optimizer must be built after model.to(dml).

On the CPU the mechanism is shown with the 'meta' device, which Module.to() treats like DirectML's
privateuseone device (neither has a "compatible shallow-copy type" with CPU tensors in torch 2.4.1).
On the GPU runner the DirectML-marked test shows the consequence itself: no training.
"""

from __future__ import annotations

import pytest
import torch
from torch import nn

from guide_harness import DOCS, load_snippet, run_snippet

optimizer_order = load_snippet("migration/optimizer_order")

META = torch.device("meta")


def test_to_meta_replaces_the_parameters_the_optimizer_holds():
    model = nn.Linear(4, 2)
    weight, bias = model.weight, model.bias
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(META)
    # The model now computes with new Parameter objects on the meta device ...
    assert model.weight is not weight and model.bias is not bias
    assert model.weight.device == META
    # ... while the optimizer still holds the old ones, on the CPU.
    held = optimizer.param_groups[0]["params"]
    assert held[0] is weight and held[1] is bias
    assert all(p.device.type == "cpu" for p in held)
    assert not optimizer_order.optimizer_holds_model_parameters(model, optimizer)


def test_a_dense_move_keeps_the_same_parameters():
    """The contrast: a change that stays dense CPU (here float32 -> float64) keeps the Parameter objects."""
    model = nn.Linear(4, 2)
    weight = model.weight
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    model.to(torch.float64)
    assert model.weight is weight
    assert optimizer_order.optimizer_holds_model_parameters(model, optimizer)


@pytest.mark.parametrize("optimizer_first, holds", [(True, False), (False, True)])
def test_build_in_each_order_on_meta(optimizer_first, holds):
    model, optimizer = optimizer_order.build(META, optimizer_first)
    assert optimizer_order.optimizer_holds_model_parameters(model, optimizer) is holds


def test_script_shows_the_mechanism(tmp_path):
    result = run_snippet("migration/optimizer_order.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "optimizer built BEFORE model.to(device): optimizer holds the model's parameters: NO" in result.stdout
    assert "optimizer built AFTER model.to(device): optimizer holds the model's parameters: yes" in result.stdout
    # The migration page quotes this output: every line but the torch version must be there verbatim.
    page = (DOCS / "migration.md").read_text(encoding="utf-8")
    for line in result.stdout.splitlines():
        if not line.startswith("torch "):
            assert line in page, f"docs/migration.md does not quote: {line}"


@pytest.mark.directml
def test_optimizer_built_before_to_dml_leaves_the_weights_unchanged():
    import torch_directml

    device = torch_directml.device()
    torch.manual_seed(0)
    model, optimizer = optimizer_order.build(device, optimizer_first=True)
    assert not optimizer_order.optimizer_holds_model_parameters(model, optimizer)
    before = model.weight.detach().cpu().clone()
    assert not optimizer_order.train_step(model, optimizer, device)
    assert torch.equal(model.weight.detach().cpu(), before)


@pytest.mark.directml
def test_optimizer_built_after_to_dml_trains():
    import torch_directml

    device = torch_directml.device()
    torch.manual_seed(0)
    model, optimizer = optimizer_order.build(device, optimizer_first=False)
    assert optimizer_order.optimizer_holds_model_parameters(model, optimizer)
    assert optimizer_order.train_step(model, optimizer, device)
