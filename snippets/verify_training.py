"""Check that training on your GPU gives what training on the CPU gives.

    python verify_training.py                  # the device choose_device()
                                               # picks (TORCH_DEVICE works)
    python verify_training.py --device cuda:1  # another device
    python verify_training.py --steps 1000     # longer (default 300)

It trains one small network on generated data twice in the same run, on
the device and on the CPU, from the same starting weights and on the same
batches, and compares the two loss curves step by step and the final
weights. Where the device supports bfloat16 it trains once more in
bfloat16 (autocast) and compares the final loss. A device that returns
zeros, NaN or a run that drifts away from the CPU's: one line that says
so, and exit status 1. Save choose_device.py (verification page) next to
it.
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

import contextlib
import math
from dataclasses import dataclass

import torch

from choose_device import ArgumentParser, DeviceChoiceError, choose_device

# What report.py (and any script of yours) may use; the rest may change.
__all__ = ["TOLERANCE", "Differences", "TrainingCheckError", "verify"]

FEATURES, HIDDEN, CLASSES = 32, 64, 4
SAMPLES, BATCH, LEARNING_RATE = 1024, 64, 0.1
# A GPU adds float32 numbers in another order than the CPU: about 1e-7
# apart per operation, about 1e-5 after a few hundred steps. 1e-3 of the
# value leaves room for that and catches any real error.
TOLERANCE = 1e-3
# bfloat16 keeps 8 bits of mantissa: its final loss may differ from the
# CPU's float32 one by a few percent.
BF16_TOLERANCE = 0.05


class TrainingCheckError(Exception):
    """The device trains differently from the CPU; the message says how."""


@dataclass
class Differences:
    """What verify() measured: the largest relative differences from the
    CPU's run.
    """

    loss: float
    weights: float
    bf16: float | None  # the final loss in bfloat16; None: not checked


@dataclass
class Run:
    losses: list[float]  # one per step
    start: torch.Tensor  # every weight before training, flattened
    weights: torch.Tensor  # every weight after training, flattened


def make_data() -> tuple[torch.Tensor, torch.Tensor]:
    """Inputs and the labels a fixed random "teacher" gives them."""
    generator = torch.Generator().manual_seed(0)
    inputs = torch.randn(SAMPLES, FEATURES, generator=generator)
    teacher = torch.randn(FEATURES, CLASSES, generator=generator)
    return inputs, (inputs @ teacher).argmax(dim=1)


def make_model() -> torch.nn.Module:
    """The same starting weights at every call (built on the CPU)."""
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(FEATURES, HIDDEN),
        torch.nn.Tanh(),
        torch.nn.Linear(HIDDEN, CLASSES),
    )


def flat(model: torch.nn.Module) -> torch.Tensor:
    return torch.cat(
        [p.detach().float().cpu().flatten() for p in model.parameters()]
    )


def mixed_precision(device: torch.device):
    return torch.autocast(device.type, dtype=torch.bfloat16)


def train(model, data, device, steps: int, bf16: bool = False) -> Run:
    start = flat(model)
    model = model.to(device)
    # Built after .to(device): on DirectML the parameters are new objects.
    optimizer = torch.optim.SGD(model.parameters(), lr=LEARNING_RATE)
    inputs, labels = (tensor.to(device) for tensor in data)
    losses = []
    for step in range(steps):
        first = step * BATCH % SAMPLES
        x = inputs[first : first + BATCH]
        y = labels[first : first + BATCH]
        # No autocast at all in float32: DirectML's is a stub.
        with mixed_precision(device) if bf16 else contextlib.nullcontext():
            loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.detach().float())
    # One copy back at the end: it also waits for the device to finish.
    curve = torch.stack(losses).cpu().tolist()
    return Run(curve, start, flat(model))


def check_sane(run: Run, cpu: Run, name: str) -> None:
    """Raise if the device's run has NaN, or did not train at all."""
    for step, loss in enumerate(run.losses):
        if not math.isfinite(loss):
            raise TrainingCheckError(
                f"training on {name} gave a loss of {loss} at step {step}"
                f" (the CPU's: {cpu.losses[step]:.4f}): update the GPU "
                "driver; if it persists, report it"
            )
    if not torch.isfinite(run.weights).all():
        raise TrainingCheckError(
            f"training on {name} left NaN or infinite weights: update the"
            " GPU driver; if it persists, report it"
        )
    moved = (run.weights - run.start).abs().max().item()
    cpu_moved = (cpu.weights - cpu.start).abs().max().item()
    if (
        max(abs(loss) for loss in run.losses) == 0
        or moved < cpu_moved / 100
    ):
        raise TrainingCheckError(
            f"training on {name} returns zeros: its weights moved by "
            f"{moved:.2e}, the CPU's by {cpu_moved:.2e}: update the GPU "
            "driver; if it persists, report it"
        )


def compare(cpu: Run, run: Run, name: str) -> tuple[float, float]:
    """Largest loss and weight differences, relative; raise beyond the
    tolerance.
    """
    check_sane(run, cpu, name)
    loss_error = 0.0
    for step, (expected, actual) in enumerate(
        zip(cpu.losses, run.losses, strict=True)
    ):
        error = abs(actual - expected) / max(1.0, abs(expected))
        loss_error = max(loss_error, error)
        if error > TOLERANCE:
            raise TrainingCheckError(
                f"training on {name} drifts away from the CPU at step "
                f"{step}: loss {actual:.6f} against {expected:.6f} "
                f"(tolerance {TOLERANCE:g}): update the GPU driver; if it"
                " persists, report it"
            )
    scale = cpu.weights.abs().max().item()
    weight_error = (run.weights - cpu.weights).abs().max().item() / scale
    if weight_error > TOLERANCE:
        raise TrainingCheckError(
            f"training on {name} ends with weights {weight_error:.2e} away"
            f" from the CPU's (tolerance {TOLERANCE:g}): update the GPU "
            "driver; if it persists, report it"
        )
    return loss_error, weight_error


def final_loss(run: Run) -> float:
    """The mean loss of the last tenth of the steps."""
    tail = run.losses[-max(1, len(run.losses) // 10) :]
    return sum(tail) / len(tail)


def compare_bf16(cpu: Run, run: Run, name: str) -> float:
    check_sane(run, cpu, f"{name} in bfloat16")
    expected, actual = final_loss(cpu), final_loss(run)
    error = abs(actual - expected) / max(abs(expected), 1e-6)
    if error > BF16_TOLERANCE:
        raise TrainingCheckError(
            f"bfloat16 training on {name} ends at loss {actual:.4f}, the "
            f"CPU's float32 training at {expected:.4f}: "
            f"{error:.0%} apart (tolerance {BF16_TOLERANCE:.0%}); train "
            "in float32 on this device"
        )
    return error


def supports_bf16(device: torch.device) -> bool:
    if device.type == "cuda":
        return torch.cuda.is_bf16_supported()
    if device.type == "xpu":
        return getattr(torch.xpu, "is_bf16_supported", lambda: False)()
    # DirectML's autocast does nothing; the CPU is the reference itself.
    return False


def show(cpu: Run, run: Run) -> None:
    print("  step    CPU loss  device loss")
    last = len(cpu.losses) - 1
    for step in sorted({0, last // 3, 2 * last // 3, last}):
        print(
            f"  {step:>4}  {cpu.losses[step]:>10.6f}  "
            f"{run.losses[step]:>11.6f}"
        )


def verify(device: torch.device, steps: int) -> Differences:
    """Train on the CPU and on ``device``, print the comparison, and return
    the differences. Raises TrainingCheckError beyond the tolerances.
    """
    name = str(device)
    data = make_data()
    cpu = train(make_model(), data, torch.device("cpu"), steps)
    run = train(make_model(), data, device, steps)
    show(cpu, run)
    loss_error, weight_error = compare(cpu, run, name)
    print(
        f"  largest difference from the CPU: loss {loss_error:.1e}, "
        f"weights {weight_error:.1e} (tolerance {TOLERANCE:g})"
    )
    error = None
    if supports_bf16(device):
        bf16 = train(make_model(), data, device, steps, bf16=True)
        error = compare_bf16(cpu, bf16, name)
        print(
            f"  bfloat16: final loss {final_loss(bf16):.4f}, the CPU's "
            f"float32 {final_loss(cpu):.4f} ({error:.1%} apart, "
            f"tolerance {BF16_TOLERANCE:.0%})"
        )
    else:
        print(
            f"  bfloat16: not checked on {device.type} (no bfloat16 there)"
        )
    return Differences(loss_error, weight_error, error)


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(
        description="Train on the device and on the CPU, and compare."
    )
    parser.add_argument("--device", help="as choose_device() takes it")
    parser.add_argument(
        "--steps", type=int, default=300, help="training steps (300)"
    )
    args = parser.parse_args(argv)
    if args.steps < 10:
        parser.error(f"argument --steps: {args.steps} must be 10 or more")
    return run_check(args.device, args.steps)


def run_check(request: str | None, steps: int) -> int:
    """Verify the device choose_device(request) picks; the exit status."""
    try:
        device, reason = choose_device(request)
    except DeviceChoiceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"Training {steps} steps on {device} ({reason}) and on the CPU")
    if device.type == "cpu":
        print(
            "  (the CPU against itself: this checks the script, not a GPU)"
        )
    try:
        verify(device, steps)
        print(
            f"OK: training on {device} matches the CPU over {steps} steps"
        )
    except TrainingCheckError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except RuntimeError as error:
        first = str(error).splitlines()[0] if str(error) else repr(error)
        print(
            f"error: training on {device} failed: {first}", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    script_guard.run(main)
