"""Tests for snippets/choose_device.py: each branch of the automatic choice, the overrides, the script."""

from __future__ import annotations

import types

import pytest
import torch

import fake_directml
from guide_harness import load_snippet, run_snippet

choose_device = load_snippet("choose_device")


@pytest.fixture
def machine(monkeypatch):
    """A machine with neither DirectML nor XPU nor CUDA/ROCm; tests add what they need."""
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    monkeypatch.setattr(choose_device, "_directml_if_installed", lambda: None)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    monkeypatch.setattr(torch.version, "hip", None)
    # Stand-ins for torch.xpu as PyTorch's XPU build has it (is_available, device_count, get_device_name).
    monkeypatch.setattr(torch.xpu, "is_available", lambda: False)
    monkeypatch.setattr(torch.xpu, "device_count", lambda: 0)

    def add(directml=None, cuda_name=None, hip=None, xpu=None):
        if directml is not None:
            monkeypatch.setattr(
                choose_device,
                "_directml_if_installed",
                lambda: fake_directml.module(directml, device_type="privateuseone"),
            )
        if cuda_name is not None:
            monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
            monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
            monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=0: cuda_name)
            monkeypatch.setattr(torch.version, "hip", hip)
        if xpu is not None:
            monkeypatch.setattr(torch.xpu, "is_available", lambda: bool(xpu))
            monkeypatch.setattr(torch.xpu, "device_count", lambda: len(xpu))
            monkeypatch.setattr(torch.xpu, "get_device_name", lambda i=0: xpu[i])

    return add


def test_cpu_when_nothing_else(machine):
    device, reason = choose_device.choose_device()
    assert device == torch.device("cpu")
    assert "torch-directml is not installed" in reason


def test_directml_first(machine):
    machine(directml=["AMD Radeon RX 6700 XT"], cuda_name="Some CUDA GPU")
    device, reason = choose_device.choose_device()
    assert device == torch.device("privateuseone", 0)
    assert "AMD Radeon RX 6700 XT" in reason


@pytest.mark.parametrize("hip, backend", [(None, "CUDA"), ("6.2.41133", "ROCm")])
def test_cuda_or_rocm_when_no_directml(machine, hip, backend):
    machine(cuda_name="Radeon RX 7900 XTX", hip=hip)
    device, reason = choose_device.choose_device()
    assert device == torch.device("cuda", 0)
    assert reason.startswith(f"{backend} GPU 0: Radeon RX 7900 XTX")


def test_intel_xpu_when_no_directml(machine):
    # xpu:0 even where it is the integrated GPU, as the doctor's device-order note tells the reader (test_doctor.py)
    machine(xpu=["Intel(R) UHD Graphics 770", "Intel(R) Arc(TM) A770 Graphics"])
    device, reason = choose_device.choose_device()
    assert device == torch.device("xpu", 0)
    assert reason == "Intel XPU 0: Intel(R) UHD Graphics 770 (torch-directml is not installed)"


def test_directml_before_xpu_and_xpu_before_cuda(machine):
    machine(directml=["Intel(R) Arc(TM) A770 Graphics"], xpu=["Intel(R) Arc(TM) A770 Graphics"], cuda_name="Other")
    assert choose_device.choose_device()[0].type == "privateuseone"
    machine(directml=[])  # torch-directml installed, but it sees no adapter
    device, reason = choose_device.choose_device()
    assert device == torch.device("xpu", 0) and reason.endswith("(torch-directml found no adapter)")


def test_xpu_build_without_a_device_falls_through(machine):
    machine(xpu=[])  # XPU build, no Intel GPU driver: is_available() is False
    device, reason = choose_device.choose_device()
    assert device.type == "cpu"
    assert "no XPU, CUDA or ROCm GPU is visible" in reason


@pytest.mark.parametrize(
    "request_, hip, device, reason",
    [
        ("xpu", None, "xpu:0", "Intel XPU 0: Intel(R) Arc(TM) B580 Graphics, as requested"),
        ("XPU:1", None, "xpu:1", "Intel XPU 1: Intel(R) Graphics, as requested"),
        ("cuda:0", None, "cuda:0", "CUDA GPU 0: AMD Radeon RX 9070 XT, as requested"),
        ("cuda:0", "6.4.43484", "cuda:0", "ROCm GPU 0: AMD Radeon RX 9070 XT, as requested"),  # ROCm, not CUDA
    ],
)
def test_an_explicit_gpu_names_its_backend(machine, request_, hip, device, reason):
    machine(xpu=["Intel(R) Arc(TM) B580 Graphics", "Intel(R) Graphics"], cuda_name="AMD Radeon RX 9070 XT", hip=hip)
    assert choose_device.choose_device(request_) == (torch.device(device), reason)


def test_explicit_adapter_and_environment_override(machine, monkeypatch):
    machine(directml=["Intel UHD Graphics", "AMD Radeon RX 6600"])
    assert choose_device.choose_device("dml:1")[0] == torch.device("privateuseone", 1)
    monkeypatch.setenv("TORCH_DEVICE", "cpu")
    assert choose_device.choose_device()[0].type == "cpu"
    # The argument wins over the environment.
    assert choose_device.choose_device("dml")[0] == torch.device("privateuseone", 0)


@pytest.mark.parametrize(
    "has, request_, message",
    [
        ({}, "gpu", "unknown device 'gpu'"),
        ({}, "dml:x", "unknown device"),
        ({}, "dml", "torch-directml is not installed"),
        ({}, "cuda", "0 GPU(s)"),
        ({}, "xpu", "Intel XPU 0 was requested but 0 XPU device(s) are visible"),
        ({}, "xpu:2", "needs PyTorch's XPU build"),
        ({}, "rocm", "unknown device 'rocm': use dml, dml:N, xpu, xpu:N, cuda, cuda:N (CUDA or ROCm) or cpu"),
        ({}, "xpu:-1", "unknown device"),
        ({"directml": ["AMD Radeon RX 6600"]}, "dml:3", "adapter 3 was requested but 1"),
        ({"xpu": ["Intel(R) Arc(TM) A770 Graphics"]}, "xpu:1", "Intel XPU 1 was requested but 1 XPU device(s)"),
    ],
)
def test_impossible_requests_are_refused(machine, has, request_, message):
    machine(**has)
    with pytest.raises(choose_device.DeviceChoiceError, match=message.replace("(", r"\(").replace(")", r"\)")):
        choose_device.choose_device(request_)


def test_script_reports_its_choice(tmp_path):
    result = run_snippet("choose_device.py", "--device", "cpu", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("device: cpu  (CPU, as requested")
    automatic = run_snippet("choose_device.py", cwd=tmp_path)
    assert automatic.returncode == 0, automatic.stderr
    assert automatic.stdout.startswith("device: ")


@pytest.mark.directml
def test_real_directml_is_chosen_and_computes():
    device, reason = choose_device.choose_device()
    assert device.type == "privateuseone", reason
    assert (torch.ones(3, device=device) * 2).sum().item() == 6.0


def several_gpus(monkeypatch, gpus, hip="7.1.52802"):
    """Stand-in torch.cuda with several GPUs: (name, is_integrated or None where the driver has no flag)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: len(gpus))
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=0: gpus[i][0])
    monkeypatch.setattr(torch.version, "hip", hip)

    def properties(i):
        flag = gpus[i][1]
        return (
            types.SimpleNamespace(name=gpus[i][0])
            if flag is None
            else types.SimpleNamespace(name=gpus[i][0], is_integrated=flag)
        )

    monkeypatch.setattr(torch.cuda, "get_device_properties", properties)


# ROCm/TheRock#3392 (Ryzen 9000 iGPU as cuda:0, RX 9000 as cuda:1) and legacy-rocm-build#5448 (Windows lists
# "AMD Radeon(TM) Graphics" and "AMD Radeon RX 7900 XTX"), as ROCm's torch.cuda reports them.
@pytest.mark.parametrize(
    "gpus",
    [
        [("AMD Radeon(TM) Graphics", True), ("AMD Radeon RX 7900 XTX", False)],
        [("AMD Radeon(TM) Graphics", False), ("AMD Radeon RX 9070 XT", False)],  # the flag wrong: the name decides
        [("AMD Radeon 780M Graphics", None), ("AMD Radeon RX 7900 XTX", None)],  # no flag at all
    ],
)
def test_an_integrated_gpu_first_is_skipped_and_the_reason_says_so(machine, monkeypatch, gpus):
    several_gpus(monkeypatch, gpus)
    device, reason = choose_device.choose_device()
    assert device == torch.device("cuda", 1)
    assert reason == (
        f"ROCm GPU 1: {gpus[1][0]} (torch-directml is not installed; integrated GPU skipped: cuda:0 {gpus[0][0]})"
    )


@pytest.mark.parametrize(
    "gpus",
    [
        [("AMD Radeon RX 7900 XTX", False), ("AMD Radeon(TM) Graphics", True)],  # already first
        [("AMD Radeon 8060S Graphics", True)],  # Strix Halo: the integrated GPU is the only one
        [("AMD Radeon(TM) Graphics", True), ("AMD Radeon 780M Graphics", True)],  # all integrated: the first
    ],
)
def test_the_first_gpu_stays_when_no_discrete_one_follows_an_integrated_one(machine, monkeypatch, gpus):
    several_gpus(monkeypatch, gpus)
    device, reason = choose_device.choose_device()
    assert device == torch.device("cuda", 0)
    assert "skipped" not in reason


def test_torch_device_still_takes_the_integrated_gpu(machine, monkeypatch):
    several_gpus(monkeypatch, [("AMD Radeon(TM) Graphics", True), ("AMD Radeon RX 7900 XTX", False)])
    monkeypatch.setenv("TORCH_DEVICE", "cuda:0")
    assert choose_device.choose_device() == (
        torch.device("cuda", 0),
        "ROCm GPU 0: AMD Radeon(TM) Graphics, as requested",
    )


def test_torch_reports_is_integrated():
    """The flag the rule reads exists in this torch (2.4.1 and current): a GPU-less build has the type too."""
    assert "is_integrated" in dir(torch._C._CudaDeviceProperties)
