"""The device line of current PyTorch tutorials, on every torch.

Tutorials written for PyTorch 2.6 and later choose the device with
torch.accelerator:

    device = (torch.accelerator.current_accelerator().type
              if torch.accelerator.is_available() else "cpu")

The torch that torch-directml requires is older than 2.6 and has no
torch.accelerator, so that line stops with
"AttributeError: module 'torch' has no attribute 'accelerator'".
Put choose_device() from this guide's choose_device.py (keep that file
beside this one) in its place: it finds DirectML, Intel XPU, CUDA or ROCm,
else the CPU, on every torch.

    python tutorial_device.py
"""

from __future__ import annotations

import torch

try:
    from choose_device import choose_device
except ImportError as error:
    raise SystemExit(
        f"error: {error}: save choose_device.py from this guide's scripts "
        "beside this file"
    ) from None


def has_accelerator_api() -> bool:
    """True on torch 2.6 and later, where torch.accelerator exists."""
    return hasattr(torch, "accelerator")


def main() -> int:
    # In place of the tutorial's torch.accelerator line:
    device, reason = choose_device()
    print(f"Using {device} device ({reason})")

    # The rest of the tutorial stays as it is: it moves its model and
    # tensors with .to(device).
    model = torch.nn.Linear(4, 2).to(device)
    out = model(torch.ones(3, 4, device=device))
    print(f"a model ran on {out.device}: output shape {tuple(out.shape)}")

    api = "has" if has_accelerator_api() else "has no"
    print(f"torch {torch.__version__} {api} torch.accelerator")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
