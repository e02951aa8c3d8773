"""What the pytorch-directml 1.8 API does on today's PyTorch: it fails, and
these are the errors.

The 2021 package was a fork of torch 1.8 with a "dml" device type and a
torch.dml module. torch-directml is a plug-in for the official torch
instead: its device type is "privateuseone" and its functions live in the
torch_directml module. Running old code therefore fails with:

    python old_api_errors.py
"""

from __future__ import annotations

import torch


def old_device_error() -> str:
    """The error of torch.device("dml"), the 1.8-era way to name the GPU."""
    try:
        torch.device("dml")
    except RuntimeError as error:
        return f"RuntimeError: {error}"
    return "no error: this torch knows a 'dml' device"


def old_module_error() -> str:
    """The error of torch.dml.is_available(), the 1.8-era check."""
    try:
        torch.dml.is_available()
    except AttributeError as error:
        return f"AttributeError: {error}"
    return "no error: this torch has a torch.dml module"


def main() -> int:
    # importing torch_directml (if installed) changes neither answer; import
    # it to show that
    try:
        import torch_directml  # noqa: F401
    except ImportError:
        pass
    print(f"torch {torch.__version__}")
    print('torch.device("dml")        ->', old_device_error())
    print("torch.dml.is_available()   ->", old_module_error())
    print(
        "instead, use torch_directml.device() and "
        "torch_directml.is_available()"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
