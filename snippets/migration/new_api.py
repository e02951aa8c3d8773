"""The torch-directml equivalents of the pytorch-directml 1.8 calls, in one
runnable script.

python new_api.py
"""

from __future__ import annotations

import torch

try:
    import torch_directml  # was: torch.dml (built into the 1.8 fork)
except ImportError:
    torch_directml = None

# was: torch.dml.is_available()
if torch_directml is not None and torch_directml.is_available():
    # was: torch.dml.device_count()
    for index in range(torch_directml.device_count()):
        # was: torch.dml.device_name(index)
        print(f"[{index}] {torch_directml.device_name(index)}")
    # was: torch.device("dml"); torch_directml.device(1) for "dml:1"
    device = torch_directml.device()
else:
    print(
        "torch-directml is not installed or sees no GPU: "
        "running the same code on the CPU"
    )
    device = torch.device("cpu")

a = torch.tensor([1.0, 2.0, 3.0], device=device)
# .to(device) works as before, with the new device object
b = torch.ones(3).to(device)
# .item() copies to the CPU and waits for the GPU; there is no synchronize()
total = (a + b).sum().item()
print(f"device: {device}, (a + b).sum() = {total}")
assert total == 9.0
