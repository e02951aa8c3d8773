"""Check that PyTorch can use your GPU through DirectML.

    python verify_directml.py             # exit 0 only if DirectML works
    python verify_directml.py --adapter 1  # another adapter (listed first)
    python verify_directml.py --allow-fallback
        # no DirectML? verify Intel XPU, CUDA/ROCm or the CPU instead

On failure it prints one line saying what is wrong and what to do, and exits
with 1 (2 for an option it does not know).

An environment with AMD's ROCm build, PyTorch XPU, CUDA or the CPU build of
torch has no torch-directml, and must not get it (it would replace that
torch): there, run it with --allow-fallback.
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Ctrl-C and the console: one line, never a traceback (torch-directml
# is imported later, and its failures are this script's own diagnosis).
script_guard.start()

# Wheels of torch-directml exist for CPython 3.8 to 3.12 only.
SUPPORTED_PYTHON = ((3, 8), (3, 12))


class VerificationError(Exception):
    """Something a reader can fix; the message says what to do, ``short``
    only what is wrong.
    """

    def __init__(self, message: str, short: str = "") -> None:
        super().__init__(message)
        self.short = short or message


class NoDirectMLForThisPython(VerificationError):
    """This Python has no torch-directml wheel; the other back-ends (ROCm,
    XPU, CUDA, CPU) have their own Python versions and may work.
    """

    def __init__(self, version: str, fix: str) -> None:
        super().__init__(
            f"Python {version} has no torch-directml wheel {fix}"
        )
        self.version = version


# What to run instead of installing torch-directml, on every other back-end.
FALLBACK = "python verify_directml.py --allow-fallback"
# The GPU builds of torch, by the start of their version's local part.
BUILDS = {
    "rocm": "AMD's ROCm build",
    "xpu": "PyTorch XPU",
    "cu": "a CUDA build",
}


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def gpu_build(torch_version: str) -> str | None:
    """The GPU build a torch version names ("2.14.0+rocm10.1.0": AMD's
    ROCm build), or None: PyPI's own build, the CPU build, or no torch.
    """
    local = torch_version.partition("+")[2].lower()
    return next(
        (name for start, name in BUILDS.items() if local.startswith(start)),
        None,
    )


def other_build(torch_version: str) -> str:
    """The advice for an environment whose torch is not DirectML's."""
    return (
        f"this torch ({torch_version}) is {gpu_build(torch_version)}: run  "
        f"{FALLBACK}  (do not install torch-directml here: it would "
        "replace your torch)"
    )


def check_python(
    version_info: tuple[int, ...] = tuple(sys.version_info),
) -> None:
    lowest, highest = SUPPORTED_PYTHON
    current = tuple(version_info[:2])
    if not lowest <= current <= highest:
        raise NoDirectMLForThisPython(
            f"{current[0]}.{current[1]}",
            f"(it needs 3.{lowest[1]} to 3.{highest[1]}): for DirectML, "
            "install Python 3.12 and create the environment again; on "
            f"ROCm, XPU, CUDA or the CPU, run  {FALLBACK}",
        )


def first_line(error: BaseException) -> str:
    return (
        str(error).splitlines()[0] if str(error) else type(error).__name__
    )


def import_directml(torch_version: str):
    """Import torch_directml, turning each way it can fail into an
    actionable message for the torch this environment has.
    """
    try:
        import torch_directml
    except ModuleNotFoundError as error:
        if error.name not in ("torch_directml", "torch"):
            raise VerificationError(
                f"torch-directml does not load: {first_line(error)}"
            ) from None
        missing = f"{error.name.replace('_', '-')} is not installed"
        if gpu_build(torch_version):
            raise VerificationError(
                f"{missing}, and {other_build(torch_version)}", missing
            ) from None
        raise VerificationError(
            f"{missing} in this Python ({sys.executable}): for DirectML, "
            "run  python -m pip install torch-directml; on ROCm, XPU, CUDA "
            f"or the CPU, run  {FALLBACK}  instead",
            missing,
        ) from None
    except (ImportError, OSError) as error:
        # Typically another package replaced the torch that torch-directml
        # was built for.
        if gpu_build(torch_version):
            raise VerificationError(
                "torch-directml is installed but does not load "
                f"({first_line(error)}), and {other_build(torch_version)}"
                "; remove it:  python -m pip uninstall torch-directml",
                "torch-directml does not load with this torch",
            ) from None
        raise VerificationError(
            "torch-directml is installed but does not load "
            f"({first_line(error)}): run  python -m pip install "
            "--force-reinstall torch-directml  then  python -m pip check"
        ) from None
    return torch_directml


def list_adapters(dml) -> list[tuple[int, str, bool]]:
    return [
        (i, dml.device_name(i), bool(dml.has_float64_support(i)))
        for i in range(dml.device_count())
    ]


def compare_with_cpu(device) -> float:
    """Run a small network-like computation on ``device`` and return its
    largest error against the CPU.
    """
    import torch

    # Random numbers are drawn on the CPU: DirectML has no torch.Generator.
    generator = torch.Generator().manual_seed(0)
    inputs = torch.randn(64, 128, generator=generator)
    weights = torch.randn(128, 32, generator=generator)

    def compute(x, w):
        hidden = torch.relu(x @ w)
        return torch.cat(
            [
                hidden.sum(dim=1),
                hidden.argmax(dim=1).float(),
                (hidden > 1).sum(dim=1).float(),
            ]
        )

    expected = compute(inputs, weights)
    # .cpu() copies the result back and waits for the GPU to finish.
    actual = compute(inputs.to(device), weights.to(device)).cpu()
    return float((actual - expected).abs().max())


def verify(device, tolerance: float = 1e-3) -> None:
    try:
        error = compare_with_cpu(device)
    except RuntimeError as failure:  # the device's own error, e.g. a kernel
        raise VerificationError(
            f"computing on {device} failed: {first_line(failure)}"
        ) from None
    print(f"  largest difference from the CPU result: {error:.2e}")
    if not error <= tolerance:
        raise VerificationError(
            f"{device} computed a wrong result (off by {error:.2e}): "
            "update your GPU driver"
        )


def verify_directml(adapter: int | None) -> str:
    check_python()
    dml = import_directml(package_version("torch"))
    adapters = list_adapters(dml)
    if not adapters:
        raise VerificationError(
            "torch-directml sees no DirectX 12 GPU: install the latest "
            "driver from AMD, Intel or NVIDIA and reboot"
        )
    print("DirectML adapters:")
    for index, name, float64 in adapters:
        print(
            f"  [{index}] {name}  (float64: {'yes' if float64 else 'no'})"
        )
    index = dml.default_device() if adapter is None else adapter
    if not 0 <= index < len(adapters):
        raise VerificationError(
            f"there is no adapter {index}: "
            "choose one of the indexes listed above"
        )
    device = dml.device(index)
    print(f"Testing adapter {index} ({adapters[index][1]}) as {device}")
    verify(device)
    return f"DirectML works on adapter {index}: {adapters[index][1]}"


def verify_fallback() -> str:
    try:
        from choose_device import (
            DeviceChoiceError,
            choose_device,
            gpu_backend,
        )
    except ModuleNotFoundError as error:
        if error.name == "torch":
            raise VerificationError(
                f"torch is not installed in this Python ({sys.executable}):"
                " install it as the set-up page's tab for your GPU says"
            ) from None
        raise VerificationError(
            "choose_device.py is not next to this script: save it from the "
            "verification page into this folder"
        ) from None

    try:
        device, reason = choose_device()
    except DeviceChoiceError as error:
        raise VerificationError(str(error)) from None
    print(f"Testing {device} ({reason})")
    verify(device)
    # A ROCm build's GPU is a "cuda" device: say which back-end really ran.
    backend = {"xpu": "Intel XPU", "cuda": gpu_backend(), "cpu": "CPU"}.get(
        device.type, device.type
    )
    return f"PyTorch works on {device} ({backend}, not DirectML)"


def main(argv: list[str] | None = None) -> int:
    parser = script_guard.ArgumentParser(
        description="Check that PyTorch can use your GPU through DirectML."
    )
    parser.add_argument(
        "--adapter",
        type=int,
        help="DirectML adapter index (default: torch-directml's default)",
    )
    parser.add_argument(
        "--allow-fallback",
        action="store_true",
        help=(
            "if DirectML does not work, verify Intel XPU, CUDA/ROCm or the "
            "CPU instead and exit 0"
        ),
    )
    args = parser.parse_args(argv)
    return check(args.adapter, args.allow_fallback)


def check(adapter: int | None, allow_fallback: bool) -> int:
    """Verify DirectML (else, with allow_fallback, the other back-ends);
    return the exit status.
    """
    print(f"{'Python':<16}{platform.python_version()} ({sys.executable})")
    for package in ("torch", "torchvision", "torch-directml"):
        print(f"{package:<16}{package_version(package)}")

    try:
        print("OK:", verify_directml(adapter))
        return 0
    except VerificationError as problem:
        if not allow_fallback:
            print(f"error: {problem}", file=sys.stderr)
            return 1
        if isinstance(problem, NoDirectMLForThisPython):
            # Not a fault: AMD's ROCm and PyTorch XPU wheels exist for it.
            print(
                f"DirectML skipped: Python {problem.version} has no "
                "torch-directml wheel; checking the other back-ends"
            )
        else:
            print(f"DirectML does not work here: {problem.short}")
    try:
        print("OK:", verify_fallback())
        return 0
    except VerificationError as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    script_guard.run(main)
