"""Tests for snippets/verify_training.py: it passes on the CPU, and each failure it guards against (zeros, NaN,
perturbed gradients, a bfloat16 run that ends elsewhere) gives its one line and exit 1. The stand-in "device" is
the CPU with a hook on the second model the script makes (the first is the CPU's reference run)."""

from __future__ import annotations

import pytest
import torch

from generated_cases import run_main
from guide_harness import load_snippet

verify_training = load_snippet("verify_training")
STEPS = "60"  # enough to tell each failure apart; the script's default is 300
ON_THE_CPU = ["--device", "cpu", "--steps", STEPS]


@pytest.fixture
def broken_device(monkeypatch):
    """Make every model after the first (the device's runs) misbehave as ``kind`` says."""
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    real = verify_training.make_model
    made = []

    def install(kind):
        def make_model():
            model = real()
            made.append(model)
            if len(made) == 1:
                return model
            if kind == "zeros":  # a device whose kernels write zeros (TheRock#8379: silent zeros on Windows ROCm)
                model.register_forward_hook(lambda module, inputs, output: output * 0)
            for parameter in model.parameters():
                if kind == "nan":
                    parameter.register_hook(lambda grad: grad * float("nan"))
                elif kind == "perturbed":  # gradients 2 % off: a wrong kernel, not rounding
                    parameter.register_hook(lambda grad: grad * 1.02)
            return model

        monkeypatch.setattr(verify_training, "make_model", make_model)

    return install


@pytest.mark.parametrize(
    "kind, message",
    [
        ("zeros", "training on cpu returns zeros: its weights moved by 0.00e+00"),
        ("nan", "training on cpu gave a loss of nan at step 1"),
        ("perturbed", "training on cpu drifts away from the CPU at step"),
    ],
)
def test_a_misbehaving_device_is_one_line_and_exit_1(broken_device, kind, message):
    broken_device(kind)
    code, out, err = run_main("verify_training", ON_THE_CPU)
    assert code == 1, out
    assert err.startswith(f"error: {message}") and err.count("\n") == 1, err
    assert "update the GPU driver" in err
    assert "OK:" not in out


def test_the_perturbation_is_caught_by_the_tolerance_not_by_luck(broken_device):
    """1.02 x the gradients is seen; 1 + 1e-7 (rounding-sized) is not: the tolerance sits between them."""
    data = verify_training.make_data()
    cpu = verify_training.train(verify_training.make_model(), data, torch.device("cpu"), 60)
    model = verify_training.make_model()
    for parameter in model.parameters():
        parameter.register_hook(lambda grad: grad * (1 + 1e-7))
    close = verify_training.train(model, data, torch.device("cpu"), 60)
    loss_error, weight_error = verify_training.compare(cpu, close, "cpu")
    assert 0 < max(loss_error, weight_error) < verify_training.TOLERANCE


def test_bfloat16_is_checked_where_the_device_has_it(monkeypatch):
    """The CPU's own bfloat16 autocast stands in for a GPU's: it ends within the tolerance of float32; the CPU
    against itself differs by nothing."""
    monkeypatch.setattr(verify_training, "supports_bf16", lambda device: True)
    code, out, err = run_main("verify_training", ON_THE_CPU)
    assert code == 0, err
    assert "  bfloat16: final loss " in out and "tolerance 5%" in out
    assert "largest difference from the CPU: loss 0.0e+00, weights 0.0e+00" in out
    assert out.rstrip().endswith(f"OK: training on cpu matches the CPU over {STEPS} steps")


def test_a_bfloat16_run_that_ends_elsewhere_fails():
    """TheRock#8095: bf16 training on Windows ROCm ends at a worse loss than on Linux."""
    start = torch.zeros(3)
    cpu = verify_training.Run([1.0] * 9 + [0.40], start, torch.ones(3))
    worse = verify_training.Run([1.0] * 9 + [0.46], start, torch.ones(3))
    with pytest.raises(verify_training.TrainingCheckError, match=r"bfloat16 training on cuda:0 ends at loss 0\.4600"):
        verify_training.compare_bf16(cpu, worse, "cuda:0")
    verify_training.compare_bf16(cpu, verify_training.Run([1.0] * 9 + [0.41], start, torch.ones(3)), "cuda:0")


def test_a_device_whose_losses_are_all_zero_fails():
    start = torch.zeros(3)
    cpu = verify_training.Run([1.0, 0.5], start, torch.ones(3))
    zeros = verify_training.Run([0.0, 0.0], start, torch.ones(3))  # weights moved, losses zero
    with pytest.raises(verify_training.TrainingCheckError, match="returns zeros"):
        verify_training.check_sane(zeros, cpu, "xpu:0")


def test_a_device_that_fails_to_run_is_one_line(monkeypatch):
    def fails(*args, **kwargs):
        raise RuntimeError("HIP error: device kernel image is invalid\nSearch for `hipErrorInvalidImage'")

    monkeypatch.setattr(verify_training, "verify", fails)
    code, _, err = run_main("verify_training", ON_THE_CPU)
    assert code == 1 and err == "error: training on cpu failed: HIP error: device kernel image is invalid\n"
