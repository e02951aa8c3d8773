"""Find which operators of your training step fall back from DirectML to the
CPU.

torch-directml runs an operator it does not implement on the CPU and warns:
"UserWarning: The operator 'aten::X' is not currently supported on the DML
backend and will fall back to run on the CPU. This may have performance
implications." It reports this through PyTorch's TORCH_WARN_ONCE, so by
default only the FIRST such operator of the whole run is shown.
torch.set_warn_always(True) makes every one of them warn; this script
records those warnings and lists the operators.

    python find_cpu_fallbacks.py           # operators that fall back
    python find_cpu_fallbacks.py --strict  # stop at the first fallback
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from collections.abc import Callable

import torch

# The start of torch-directml's warning; (?P<op>...) captures the operator's
# name.
FALLBACK_MESSAGE = (
    r"The operator '(?P<op>[^']+)' is not currently supported "
    r"on the DML backend"
)


def find_cpu_fallbacks(
    step: Callable[[], object], pattern: str = FALLBACK_MESSAGE
) -> list[str]:
    """Run ``step()`` once and return the operators it ran on the CPU,
    sorted, without repeats.
    """
    was_always = torch.is_warn_always_enabled()
    # else TORCH_WARN_ONCE hides every fallback after the first one
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            # record repeats too; Python's default shows each place once
            warnings.simplefilter("always")
            step()
    finally:
        torch.set_warn_always(was_always)
    found = (re.search(pattern, str(warning.message)) for warning in caught)
    return sorted({match.group("op") for match in found if match})


def fail_on_cpu_fallback() -> None:
    """From now on, a CPU fallback raises UserWarning (an exception) instead
    of printing a warning.
    """
    torch.set_warn_always(True)
    warnings.filterwarnings(
        "error", message=FALLBACK_MESSAGE, category=UserWarning
    )


def load_directml():
    """torch_directml if it is installed and sees a GPU, else None."""
    try:
        import torch_directml
    except ImportError:
        return None
    return torch_directml if torch_directml.is_available() else None


def make_training_step(device: torch.device) -> Callable[[], float]:
    """One step of a small network with Adam: the kind of code whose
    fallbacks you want to know.
    """
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
    ).to(device)
    # created after model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    inputs = torch.randn(8, 16).to(device)
    targets = torch.randint(0, 4, (8,)).to(device)

    def step() -> float:
        optimizer.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
        # .item() waits for the device, so the whole step has run
        return loss.item()

    return step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(
            "List the operators that fall back from DirectML to the CPU."
        )
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="raise an error at the first fallback instead",
    )
    args = parser.parse_args(argv)

    dml = load_directml()
    if dml is None:
        device = torch.device("cpu")
        print(
            "torch-directml is not available: running on the CPU, where "
            "nothing can fall back"
        )
    else:
        device = dml.device()
        print(f"DirectML device: {device}")
    step = make_training_step(device)

    if args.strict:
        fail_on_cpu_fallback()
        try:
            step()
        except UserWarning as fallback:
            print(
                f"error: {str(fallback).splitlines()[0]}", file=sys.stderr
            )
            return 1
        print("no operator fell back to the CPU")
        return 0

    operators = find_cpu_fallbacks(step)
    if operators:
        print("these operators ran on the CPU:")
        for name in operators:
            print(f"  {name}")
    else:
        print("no operator fell back to the CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
