"""ELU built from operations DirectML runs itself, so the CPU fallback
cannot break what follows.

torch-directml 0.2.5 registers no DirectML kernel for aten::elu (its native
library has exp.out, clamp_max.out and relu, but no elu), so ELU falls back
to the CPU; in microsoft/DirectML#701 the BatchNorm layer's backward pass
failed after it with "RuntimeError: Function NativeBatchNormBackward0
returned an invalid gradient at index 1 ...". The same function from simpler
operations:

    ELU(x) = x                    for x > 0
           = alpha * (exp(x) - 1) for x <= 0
           = relu(x) + alpha * (exp(min(x, 0)) - 1)
             (one formula, no overflow in exp)

    python elu_without_fallback.py
"""

# --8<-- [start:elu]
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class ELU(nn.Module):
    """Drop-in for nn.ELU that avoids aten::elu, which falls back to the CPU
    on DirectML.
    """

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # clamp first: exp() of a large positive x would overflow, and its
        # gradient with it
        return F.relu(x) + self.alpha * (
            torch.exp(torch.clamp(x, max=0.0)) - 1.0
        )


# --8<-- [end:elu]


def main() -> int:
    torch.manual_seed(0)
    x = torch.randn(1000, requires_grad=True) * 5
    ours, reference = ELU(alpha=0.7)(x), F.elu(x, alpha=0.7)
    gradient_ours = torch.autograd.grad(ours.sum(), x)[0]
    gradient_reference = torch.autograd.grad(reference.sum(), x)[0]
    same_values = torch.allclose(ours, reference, atol=1e-6)
    same_gradients = torch.allclose(
        gradient_ours, gradient_reference, atol=1e-6
    )
    print(
        f"same values as F.elu: {same_values}; same gradients: "
        f"{same_gradients}"
    )
    return 0 if same_values and same_gradients else 1


if __name__ == "__main__":
    raise SystemExit(main())
