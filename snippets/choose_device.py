"""Choose the device to run PyTorch on: DirectML, else Intel XPU, else
CUDA/ROCm, else the CPU.

Use it from your own scripts in the same folder:

    from choose_device import choose_device
    device, reason = choose_device()

Force a device with an argument or the TORCH_DEVICE environment variable:
"dml", "dml:1", "xpu", "xpu:0", "cuda", "cuda:0" (CUDA or ROCm) or "cpu".
"""

from __future__ import annotations

import sys

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Before anything imports torch: Ctrl-C, a torch that does not load
# and the console each end in one line, never in a traceback.
script_guard.start("torch")

# What other scripts (and yours) may use; the rest may change.
__all__ = [
    "ArgumentParser",
    "DeviceChoiceError",
    "choose_device",
    "gpu_backend",
]

# --8<-- [start:choose_device]
import os
import re

import torch

# the one-line parser of every script, here too for the scripts that
# import it from here
from script_guard import ArgumentParser

DEVICE_ENV_VAR = "TORCH_DEVICE"


class DeviceChoiceError(RuntimeError):
    """The requested device does not exist on this machine."""


def _directml_if_installed():
    """Return the torch_directml module, or None if it is not installed."""
    try:
        import torch_directml
    except ModuleNotFoundError:
        return None
    return torch_directml


KINDS = "dml, dml:N, xpu, xpu:N, cuda, cuda:N (CUDA or ROCm) or cpu"


def _parse(request: str) -> tuple[str, int | None]:
    kind, _, index = request.strip().lower().partition(":")
    # ASCII digits only (a superscript two passes isdigit(), not int())
    if kind not in {"dml", "xpu", "cuda", "cpu"} or (
        index and not (index.isascii() and index.isdecimal())
    ):
        raise DeviceChoiceError(
            f"unknown device {ascii(request)}: use {KINDS}"
        )
    return kind, int(index) if index else None


def _xpu_count() -> int:
    """Intel GPUs that this torch can use (0 unless it is PyTorch's XPU
    build and a driver answers).
    """
    xpu = getattr(torch, "xpu", None)  # torch.xpu exists from torch 2.4 on
    return (
        xpu.device_count() if xpu is not None and xpu.is_available() else 0
    )


def gpu_backend() -> str:
    """What torch.cuda runs on in this build: AMD's ROCm builds reuse the
    torch.cuda API.
    """
    return "ROCm" if torch.version.hip else "CUDA"


# Integrated GPUs by name, where the driver does not say so. One rule,
# the same in choose_device.py, doctor.py and pick_adapter.py:
#   AMD: "Radeon(TM) Graphics", "Radeon 780M Graphics", "Radeon 680M",
#   "Radeon(TM) RX Vega 11 Graphics", "Radeon(TM) R7 Graphics";
#   Intel: UHD, Iris, "HD Graphics", "Intel(R) Graphics",
#   "Arc(TM) Graphics", "Arc(TM) 140V GPU"; Qualcomm: Adreno.
# A dedicated Radeon says "RX" before its number, an Arc card A or B.
INTEGRATED_NAME = re.compile(
    r"Radeon\S* (\d{3,4}[MS]\b|(R\d |(RX )?Vega \d+ (\(Mobile\) )?)?"
    r"Graphics)|\bUHD\b|\bIris\b|\bHD Graphics\b|^Intel\S* Graphics\b"
    r"|\bArc\S* (Graphics$|\d{3}[VT]\b|B3\d0\b)|\bAdreno\b",
    re.IGNORECASE,
)


def _is_integrated(index: int) -> bool:
    """Whether torch.cuda's GPU ``index`` is an integrated one (an APU's
    or a laptop CPU's), by the driver's flag or else by its name.
    """
    properties = torch.cuda.get_device_properties(index)
    return bool(getattr(properties, "is_integrated", False)) or bool(
        INTEGRATED_NAME.search(torch.cuda.get_device_name(index))
    )


def _first_discrete_gpu() -> tuple[int, str]:
    """(index, note): the first torch.cuda GPU that is not integrated, or
    0. On AMD's ROCm builds a Ryzen CPU's integrated GPU can be cuda:0 and
    the Radeon card cuda:1.
    """
    count = torch.cuda.device_count()
    if count < 2:
        return 0, ""
    discrete = [i for i in range(count) if not _is_integrated(i)]
    if not discrete or discrete[0] == 0:
        return 0, ""
    first = discrete[0]
    skipped = ", ".join(
        f"cuda:{i} {torch.cuda.get_device_name(i)}" for i in range(first)
    )
    return first, f"; integrated GPU skipped: {skipped}"


def _explicit(request: str) -> tuple[torch.device, str]:
    kind, index = _parse(request)
    if kind == "cpu":
        return torch.device("cpu"), f"CPU, as requested ({request})"
    if kind == "dml":
        dml = _directml_if_installed()
        if dml is None:
            raise DeviceChoiceError(
                "DirectML was requested but torch-directml is not "
                "installed: python -m pip install torch-directml"
            )
        count = dml.device_count()
        index = dml.default_device() if index is None else index
        if not 0 <= index < count:
            raise DeviceChoiceError(
                f"DirectML adapter {index} was requested but {count} "
                "adapter(s) exist"
            )
        name = dml.device_name(index)
        return (
            dml.device(index),
            f"DirectML adapter {index}: {name}, as requested",
        )
    index = 0 if index is None else index
    if kind == "xpu":
        count = _xpu_count()
        if not 0 <= index < count:
            raise DeviceChoiceError(
                f"Intel XPU {index} was requested but {count} XPU "
                f"device(s) are visible to torch {torch.__version__}: "
                "it needs PyTorch's XPU build and Intel's GPU driver"
            )
        name = torch.xpu.get_device_name(index)
        return (
            torch.device("xpu", index),
            f"Intel XPU {index}: {name}, as requested",
        )
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if not 0 <= index < count:
        raise DeviceChoiceError(
            f"CUDA/ROCm GPU {index} was requested but {count} GPU(s) are "
            f"visible to torch {torch.__version__}"
        )
    name = torch.cuda.get_device_name(index)
    return (
        torch.device("cuda", index),
        f"{gpu_backend()} GPU {index}: {name}, as requested",
    )


def choose_device(request: str | None = None) -> tuple[torch.device, str]:
    """Return (device, reason). ``request`` (or $TORCH_DEVICE) overrides the
    automatic choice.
    """
    request = request or os.environ.get(DEVICE_ENV_VAR, "")
    if request.strip():
        return _explicit(request)

    dml = _directml_if_installed()
    if dml is not None and dml.is_available() and dml.device_count() > 0:
        index = dml.default_device()
        return dml.device(
            index
        ), f"DirectML adapter {index}: {dml.device_name(index)}"
    why_not_dml = (
        "torch-directml is not installed"
        if dml is None
        else "torch-directml found no adapter"
    )

    # A torch build has at most one of these GPU back-ends compiled in (each
    # has its own wheels).
    if _xpu_count() > 0:
        return torch.device(
            "xpu", 0
        ), f"Intel XPU 0: {torch.xpu.get_device_name(0)} ({why_not_dml})"
    if torch.cuda.is_available():
        # AMD's ROCm builds of PyTorch answer through torch.cuda too;
        # torch.version.hip tells them apart.
        index, skipped = _first_discrete_gpu()
        name = torch.cuda.get_device_name(index)
        return (
            torch.device("cuda", index),
            f"{gpu_backend()} GPU {index}: {name} ({why_not_dml}{skipped})",
        )

    return torch.device(
        "cpu"
    ), f"CPU ({why_not_dml}, and no XPU, CUDA or ROCm GPU is visible)"


# --8<-- [end:choose_device]


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(
        description="Show which device PyTorch will use, and why."
    )
    parser.add_argument(
        "--device",
        help=f"{KINDS} (default: ${DEVICE_ENV_VAR}, else automatic)",
    )
    args = parser.parse_args(argv)
    try:
        device, reason = choose_device(args.device)
    except DeviceChoiceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"device: {device}  ({reason})")
    return 0


if __name__ == "__main__":
    script_guard.run(main)
