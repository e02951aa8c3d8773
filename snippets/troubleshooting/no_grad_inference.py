"""Run a model for prediction under torch.no_grad(), not
torch.inference_mode(), on DirectML.

With torch-directml, torch.inference_mode() fails with "RuntimeError: Cannot
set version_counter for inference tensor" (microsoft/DirectML#602);
torch.no_grad() also skips building the autograd graph and works.

    python no_grad_inference.py
"""

# --8<-- [start:predict]
from __future__ import annotations

import torch
from torch import nn


def predict(model: nn.Module, inputs: torch.Tensor) -> torch.Tensor:
    """Class indices for ``inputs``, computed without autograd, returned on
    the CPU.
    """
    model.eval()  # dropout off, batch norm uses its running statistics
    # not torch.inference_mode(): it fails on DirectML
    with torch.no_grad():
        logits = model(inputs)
    return logits.argmax(dim=1).cpu()


# --8<-- [end:predict]


def load_directml():
    """torch_directml if it is installed and sees a GPU, else None."""
    try:
        import torch_directml
    except ImportError:
        return None
    return torch_directml if torch_directml.is_available() else None


def main() -> int:
    dml = load_directml()
    if dml is None:
        device = torch.device("cpu")
        print(
            "torch-directml is not available: "
            "showing the same code on the CPU"
        )
    else:
        device = dml.device()
        print(f"DirectML device: {device}")

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    inputs = torch.randn(5, 4)
    expected = predict(model, inputs)  # on the CPU, as a reference
    actual = predict(model.to(device), inputs.to(device))
    assert torch.equal(actual, expected), (
        f"{device} predicted {actual.tolist()}, the CPU {expected.tolist()}"
    )
    print(
        f"predictions on {device}: {actual.tolist()} (same as on the CPU)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
