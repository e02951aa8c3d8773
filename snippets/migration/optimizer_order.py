"""Build the optimizer after model.to(device): on DirectML the other order
trains nothing.

In torch 2.4.1, Module.to() keeps the model's Parameter objects (and changes
their data in place) only when the old and the new tensor have "compatible
shallow-copy types"; c10/core/TensorImpl.h grants that to dense CPU, CUDA,
MPS, HIP, XPU and HPU tensors. DirectML's device type, privateuseone, is not
among them, so model.to(dml) puts NEW Parameter objects into the model. An
optimizer built before still holds the old CPU ones: optimizer.step()
updates tensors the model no longer uses.

This script shows it on your DirectML GPU, or, without one, on PyTorch's
"meta" device, which is not in that list either and so takes the same path.

    python optimizer_order.py
"""

# --8<-- [start:check]
from __future__ import annotations

import torch
from torch import nn


def optimizer_holds_model_parameters(
    model: nn.Module, optimizer: torch.optim.Optimizer
) -> bool:
    """True if the optimizer updates the very Parameter objects the model
    computes with.
    """
    in_optimizer = {
        id(p) for group in optimizer.param_groups for p in group["params"]
    }
    return all(id(p) in in_optimizer for p in model.parameters())


def build(
    device: torch.device, optimizer_first: bool
) -> tuple[nn.Module, torch.optim.Optimizer]:
    """A small model and its SGD optimizer, the optimizer built before or
    after model.to(device).
    """
    model = nn.Linear(4, 2)
    if optimizer_first:
        # wrong order
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model.to(device)
    else:
        model.to(device)
        # right order
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    return model, optimizer


# --8<-- [end:check]


def train_step(
    model: nn.Module, optimizer: torch.optim.Optimizer, device: torch.device
) -> bool:
    """One SGD step on random data; True if the model's weights changed."""
    before = model.weight.detach().cpu().clone()
    inputs = torch.randn(8, 4).to(device)
    loss = model(inputs).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return not torch.equal(model.weight.detach().cpu(), before)


def directml_device() -> torch.device | None:
    """torch_directml.device() if torch-directml is installed and sees a
    GPU, else None.
    """
    try:
        import torch_directml
    except ImportError:
        return None
    return (
        torch_directml.device() if torch_directml.is_available() else None
    )


def main() -> int:
    device = directml_device()
    on_directml = device is not None
    if not on_directml:
        device = torch.device("meta")
        print(
            "torch-directml is not available: "
            "showing the same mechanism on the 'meta' device"
        )
    print(f"torch {torch.__version__}, device {device}")
    orders = (
        (True, "optimizer built BEFORE model.to(device)"),
        (False, "optimizer built AFTER model.to(device)"),
    )
    for optimizer_first, label in orders:
        torch.manual_seed(0)
        model, optimizer = build(device, optimizer_first)
        holds = optimizer_holds_model_parameters(model, optimizer)
        holds_text = "yes" if holds else "NO"
        line = (
            f"{label}: optimizer holds the model's parameters: {holds_text}"
        )
        # meta tensors have no values, so a step can only be checked on a
        # real device
        if on_directml:
            changed = train_step(model, optimizer, device)
            changed_text = "yes" if changed else "NO"
            line += f"; one step changed the weights: {changed_text}"
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
