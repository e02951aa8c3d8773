"""Tests for snippets/verify_directml.py: every failure is one clear line; success needs real DirectML.

Failure paths run the real script with a stand-in ``torch_directml`` module first on PYTHONPATH, so
they behave the same on every machine, the DirectML runner included.
"""

from __future__ import annotations

import contextlib
import re

import pytest
import torch

import fake_directml
from guide_harness import assert_one_line_error, load_snippet, run_snippet

verify_directml = load_snippet("verify_directml")

NOT_INSTALLED = {"import_error": fake_directml.NOT_INSTALLED}
BROKEN = {"import_error": 'ImportError("torch_directml_native.so: undefined symbol: _ZN3c104impl3cow11cow_deleterEPv")'}


def adapters(*names):
    """A stand-in torch_directml with these adapters (float64 on adapter 0 only)."""
    return {"names": names}


def run_with(tmp_path, fake, *args, torch_version=None, **env):
    """Run the script with a stand-in torch_directml; with ``torch_version``, this Python's metadata
    names that torch (a dist-info first on the path: AMD's, Intel's or a CUDA build as pip leaves it)."""
    folder = fake_directml.install(tmp_path, **fake)
    if torch_version:
        info = tmp_path / "fake" / f"torch-{torch_version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: torch\nVersion: {torch_version}\n")
    return run_snippet("verify_directml.py", *args, cwd=tmp_path, PYTHONPATH=folder, **env)


# A torch of another back-end, as its index names it (AMD's ROCm 10.1, PyTorch XPU and CUDA 12.6 builds)
OTHER_BUILDS = [
    ("2.14.0+rocm10.1.0", "AMD's ROCm build"),
    ("2.9.1+xpu", "PyTorch XPU"),
    ("2.9.1+cu126", "a CUDA build"),
]


@pytest.mark.parametrize("minor, refused", [(13, True), (14, True), (7, True), (8, False), (11, False), (12, False)])
def test_python_without_a_torch_directml_wheel_is_refused(minor, refused):
    raised = pytest.raises(verify_directml.VerificationError, match="install Python 3.12")
    with raised if refused else contextlib.nullcontext():
        verify_directml.check_python((3, minor))


def test_not_installed_says_how_to_install(tmp_path):
    result = run_with(tmp_path, NOT_INSTALLED)
    # DirectML's fix, and the other back-ends' flag (a ROCm or XPU reader must not install torch-directml)
    assert_one_line_error(
        result,
        "torch-directml is not installed",
        "for DirectML, run  python -m pip install torch-directml;",
        "ROCm, XPU, CUDA or the CPU, run  python verify_directml.py --allow-fallback",
    )
    # Versions are printed, in aligned columns, before the verdict.
    # The torch of this run (torch-directml's pin, or current torch in the second run), read from its metadata.
    assert re.search(rf"^torch +{re.escape(verify_directml.package_version('torch'))}$", result.stdout, re.M), (
        result.stdout
    )
    assert re.search(r"^torch-directml +not installed$", result.stdout, re.M), result.stdout


@pytest.mark.parametrize("version, build", OTHER_BUILDS)
def test_not_installed_with_another_builds_torch_says_the_flag_not_the_install(tmp_path, version, build):
    line = assert_one_line_error(
        run_with(tmp_path, NOT_INSTALLED, torch_version=version),
        f"torch-directml is not installed, and this torch ({version}) is {build}: run  "
        "python verify_directml.py --allow-fallback",
        "do not install torch-directml",
    )
    assert "pip install" not in line, line


def test_broken_install_says_how_to_repair(tmp_path):
    assert_one_line_error(
        run_with(tmp_path, BROKEN), "does not load", "undefined symbol", "--force-reinstall", "pip check"
    )


@pytest.mark.parametrize("version, build", OTHER_BUILDS[:2])
def test_broken_install_beside_another_build_is_removed_not_reinstalled(tmp_path, version, build):
    line = assert_one_line_error(
        run_with(tmp_path, BROKEN, torch_version=version),
        "does not load",
        f"this torch ({version}) is {build}",
        "--allow-fallback",
        "python -m pip uninstall torch-directml",
    )
    assert "--force-reinstall" not in line and "pip install" not in line, line


def test_missing_choose_device_is_one_line(tmp_path):
    result = run_with(tmp_path, NOT_INSTALLED, "--allow-fallback", PYTHONSAFEPATH="1")  # no script folder on the path
    # the first neighbour it imports is the door, script_guard.py
    assert_one_line_error(result, "script_guard.py is not next to this script")


def test_a_failing_device_is_one_line(monkeypatch):
    def fails(device):
        # torch.AcceleratorError (a RuntimeError) as a ROCm build raises it (docs/troubleshooting.md)
        raise RuntimeError("HIP error: device kernel image is invalid\nSearch for `hipErrorInvalidImage' in ...")

    monkeypatch.setattr(verify_directml, "compare_with_cpu", fails)
    with pytest.raises(
        verify_directml.VerificationError,
        match=r"^computing on cuda:0 failed: HIP error: device "
        r"kernel image is invalid$",
    ):
        verify_directml.verify(torch.device("cuda", 0))


def test_no_adapter_points_at_the_driver(tmp_path):
    assert_one_line_error(run_with(tmp_path, adapters()), "no DirectX 12 GPU", "driver")


def test_lists_adapters_and_checks_the_chosen_one(tmp_path):
    result = run_with(tmp_path, adapters("AMD Radeon RX 6700 XT", "Intel UHD Graphics 770"), "--adapter", "1")
    assert result.returncode == 0, result.stderr
    assert "[0] AMD Radeon RX 6700 XT  (float64: yes)" in result.stdout
    assert "[1] Intel UHD Graphics 770  (float64: no)" in result.stdout
    assert "OK: DirectML works on adapter 1: Intel UHD Graphics 770" in result.stdout


def test_missing_adapter_index_is_refused(tmp_path):
    assert_one_line_error(run_with(tmp_path, adapters("AMD Radeon RX 6600"), "--adapter", "4"), "no adapter 4")


def test_fallback_verifies_another_device_and_exits_0(tmp_path):
    result = run_with(tmp_path, NOT_INSTALLED, "--allow-fallback", torch_version="2.14.0+rocm10.1.0")
    assert result.returncode == 0, result.stderr
    # The fallback runs next: it does not tell the reader to run what they ran (a ROCm build's torch here).
    assert "DirectML does not work here: torch-directml is not installed\n" in result.stdout, result.stdout
    assert "--allow-fallback" not in result.stdout
    assert "largest difference from the CPU result" in result.stdout
    # The fallback is the device choose_device picks in this Python: the CPU here, cuda:0 on a GPU machine.
    if torch.cuda.is_available():
        expected = f"OK: PyTorch works on cuda:0 ({'ROCm' if torch.version.hip else 'CUDA'}, not DirectML)"
    elif hasattr(torch, "xpu") and torch.xpu.is_available():
        expected = "OK: PyTorch works on xpu:0 (Intel XPU, not DirectML)"
    else:
        expected = "OK: PyTorch works on cpu (CPU, not DirectML)"
    assert expected in result.stdout


@pytest.fixture
def no_directml(monkeypatch):
    """DirectML fails (as on a machine without it, whatever this one has); the fallback runs in-process."""

    def fails(torch_version):
        raise verify_directml.VerificationError("torch-directml is not installed in this Python (stand-in)")

    monkeypatch.setattr(verify_directml, "import_directml", fails)
    monkeypatch.delenv("TORCH_DEVICE", raising=False)
    tested = []
    # The stand-in devices cannot compute here: record which device would be compared with the CPU.
    monkeypatch.setattr(verify_directml, "compare_with_cpu", lambda device: tested.append(device) or 0.0)
    for name in ("is_available", "device_count"):
        monkeypatch.setattr(torch.xpu, name, lambda: 0)
        monkeypatch.setattr(torch.cuda, name, lambda: 0)
    return tested


@pytest.mark.parametrize(
    "api, hip, gpu, backend",
    [
        ("xpu", None, "Intel XPU", "Intel XPU"),
        ("cuda", "6.4.43484", "ROCm GPU", "ROCm"),
        ("cuda", None, "CUDA GPU", "CUDA"),
    ],
)
def test_fallback_names_the_backend_it_verified(no_directml, monkeypatch, capsys, api, hip, gpu, backend):
    """A ROCm build is reported as ROCm, not as the CUDA its torch.cuda API is named after."""
    module = getattr(torch, api)
    monkeypatch.setattr(module, "is_available", lambda: True)
    monkeypatch.setattr(module, "device_count", lambda: 1)
    monkeypatch.setattr(module, "get_device_name", lambda i=0: "Some GPU")
    monkeypatch.setattr(torch.version, "hip", hip)
    assert verify_directml.main(["--allow-fallback"]) == 0
    out = capsys.readouterr().out
    assert no_directml == [torch.device(api, 0)]
    assert f"Testing {api}:0 ({gpu} 0: Some GPU (torch-directml " in out
    assert f"OK: PyTorch works on {api}:0 ({backend}, not DirectML)" in out


@pytest.mark.skipif(torch.xpu.is_available(), reason="this machine has an XPU")
def test_fallback_refuses_an_unavailable_forced_backend_in_one_line(tmp_path):
    forced = run_with(tmp_path, NOT_INSTALLED, "--allow-fallback", TORCH_DEVICE="xpu")
    assert_one_line_error(forced, "Intel XPU 0 was requested but 0 XPU device(s)")


def test_wrong_results_are_caught(monkeypatch):
    monkeypatch.setattr(verify_directml, "compare_with_cpu", lambda device: 0.5)
    with pytest.raises(verify_directml.VerificationError, match="wrong result"):
        verify_directml.verify("cpu")


@pytest.mark.directml
def test_real_directml_passes(tmp_path):
    result = run_snippet("verify_directml.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "OK: DirectML works on adapter" in result.stdout


@pytest.mark.parametrize("version", [(3, 13), (3, 14)])
def test_fallback_on_a_newer_python_does_not_ask_for_python_3_12(no_directml, monkeypatch, capsys, version):
    """AMD's ROCm wheels and PyTorch XPU support Python 3.13/3.14: with --allow-fallback the reader is not told
    to reinstall Python before hearing that everything works (issue 19)."""
    real_check = verify_directml.check_python
    monkeypatch.setattr(verify_directml, "check_python", lambda: real_check(version))
    assert verify_directml.main(["--allow-fallback"]) == 0
    out = capsys.readouterr().out
    assert "install Python 3.12" not in out, out
    assert f"DirectML skipped: Python {version[0]}.{version[1]} has no torch-directml wheel" in out
    assert "OK: PyTorch works on cpu (CPU, not DirectML)" in out


def test_without_fallback_a_newer_python_still_says_which_python_to_install(monkeypatch, capsys):
    real_check = verify_directml.check_python
    monkeypatch.setattr(verify_directml, "check_python", lambda: real_check((3, 13)))
    assert verify_directml.main([]) == 1
    err = capsys.readouterr().err
    assert "for DirectML, install Python 3.12 and create the environment again" in err
    assert "on ROCm, XPU, CUDA or the CPU, run  python verify_directml.py --allow-fallback" in err  # 3.13 is fine there
