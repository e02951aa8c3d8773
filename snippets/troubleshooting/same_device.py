"""Find the tensor that is not on the DirectML device before torch-directml
fails on it.

When one operation gets a DirectML tensor and a CPU tensor, torch-directml
stops with "... INTERNAL ASSERT FAILED at ...DMLTensor.cpp ... unbox expects
Dml at::Tensor as inputs" (microsoft/DirectML#397, #442), without saying
which tensor it was. This lists, by name, every parameter, buffer and input
that is on another device, so you know what to move.

    python same_device.py
"""

# --8<-- [start:check]
from __future__ import annotations

import torch
from torch import nn


def tensors_off_device(
    model: nn.Module, inputs: dict[str, torch.Tensor], device: torch.device
) -> list[str]:
    """Names of the model's parameters and buffers and of the inputs that
    are not on ``device``.
    """
    wrong = []
    named = [
        *model.named_parameters(),
        *model.named_buffers(),
        *inputs.items(),
    ]
    for name, tensor in named:
        if tensor.device.type != device.type or (
            tensor.device.index or 0
        ) != (device.index or 0):
            wrong.append(f"{name} is on {tensor.device}, not {device}")
    return wrong


# --8<-- [end:check]


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
    if device is None:
        device = torch.device("meta")
        print(
            "torch-directml is not available: "
            "showing the check with the 'meta' device"
        )
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3)).to(device)
    images = torch.randn(2, 4).to(device)
    # forgotten: still on the CPU, as the LongTensor in #442
    labels = torch.tensor([0, 2])
    problems = tensors_off_device(
        model, {"images": images, "labels": labels}, device
    )
    for problem in problems:
        print(f"  {problem}")
    print(f"{len(problems)} tensor(s) to move with .to(device)")
    labels = labels.to(device)
    left = tensors_off_device(
        model, {"images": images, "labels": labels}, device
    )
    print(
        f"after labels.to(device): {len(left)} tensor(s) on another device"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
