"""Tests for snippets/doctor.py: every finding with stand-ins built from real reports (the texts, device lists and
version strings of the threads cited), and the exit codes of the command-line contract. Its Windows findings (a
stand-in winreg): test_doctor_windows.py; its real run on this machine (no false PROBLEM) and its JSON report
without user or host names: test_doctor_report.py."""

from __future__ import annotations

import pathlib
import re
import sys
import types

import pytest

from generated_cases import run_main
from gpu_stand_in import only, statuses
from guide_harness import load_snippet, run_snippet

doctor = load_snippet("doctor")


# ------------------------------------------------------------------ the real run, with a broken torch


def test_a_broken_torch_is_one_problem_line_not_a_traceback(tmp_path):
    """import torch fails in the child Python (a stand-in torch first on the path): the doctor still reports."""
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    # nunif#701 (2026-06), the message Windows gives when the Visual C++ runtime is missing.
    (fake / "__init__.py").write_text(
        "raise OSError('[WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading '\n"
        "              '\"C:\\\\venv\\\\Lib\\\\site-packages\\\\torch\\\\lib\\\\c10.dll\" or one of its dependencies.')\n",
        encoding="utf-8",
    )
    result = run_snippet("doctor.py", cwd=tmp_path, PYTHONPATH=str(fake.parent))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert re.search(
        r"^PROBLEM import torch: a DLL of torch does not load: the Microsoft Visual C\+\+ runtime .*"
        r"vc_redist\.x64\.exe.*\(see troubleshooting/#winerror-126-or-1114-c10dll\)$",
        result.stdout,
        re.M,
    ), result.stdout
    assert result.stderr.strip().splitlines() == [
        "error: 1 problem(s) found: fix the first PROBLEM line above, then run the doctor again"
    ]


def test_a_crash_in_import_torch_is_reported(tmp_path):
    """pytorch/pytorch#157775: torch.xpu.is_available() ended the Python with 0xC0000005."""
    fake = tmp_path / "fake" / "torch"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("import os\nos.abort()\n", encoding="utf-8")
    result = run_snippet("doctor.py", cwd=tmp_path, PYTHONPATH=str(fake.parent))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert re.search(
        r"^PROBLEM import torch: fails: the Python that imported torch crashed \(exit 0x", result.stdout, re.M
    ), result.stdout


def test_windows_crash_status_is_shown_in_hex():
    crashed = types.SimpleNamespace(returncode=-1073741819, communicate=lambda timeout=None: ("", ""))
    assert "exit 0xc0000005" in doctor.probe_result(crashed)["error"]


def test_a_probe_that_never_finishes_is_stopped_and_named():
    child = doctor.subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        stdout=doctor.subprocess.PIPE,
        stderr=doctor.subprocess.PIPE,
        text=True,
    )
    assert doctor.probe_result(child, timeout=0.5)["error"] == "import torch did not finish in 0 s"
    assert child.poll() is not None, "the probe was left running"


def test_the_probe_runs_while_the_packages_are_read(monkeypatch):
    """The child that imports torch (seconds) is started before examine() reads the installed packages, and
    its result is asked for only after them."""
    order = []
    monkeypatch.setattr(doctor, "start_probe", lambda: order.append("probe started") or "child")
    monkeypatch.setattr(
        doctor,
        "probe_result",
        lambda child: order.append(f"{child} waited for") or {"imported": True, "version": "2.4.1", "devices": []},
    )
    real_installed = doctor.installed
    monkeypatch.setattr(doctor, "installed", lambda name: order.append("packages read") or real_installed(name))
    assert run_main("doctor", []).code in (0, 1)
    assert order[0] == "probe started" and order[-1] == "child waited for" and "packages read" in order[1:-1], order


# ------------------------------------------------------------------ a failing import, classified

LOADER_CASES = [
    # LykosAI/StabilityMatrix#1712 (ROCm 7.14, Smart App Control blocking rocsolver.dll)
    ("OSError: [WinError 4551] An Application Control policy has blocked this file", "winerror-4551-smart-app-control"),
    # unsloth#8847: the same on a Swedish Windows
    (
        "OSError: [WinError 4551] En programkontrollprincip har blockerat den h\u00e4r filen. Error loading "
        '"...\\torch\\lib\\aotriton_v2.dll" or one of its dependencies.',
        "winerror-4551-smart-app-control",
    ),
    # AUTOMATIC1111#9929 / diffusers#5247
    (
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        '"C:\\ai\\venv\\lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies.',
        "winerror-126-or-1114-c10dll",
    ),
    # nagadomi/nunif#701
    (
        "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "
        '"...\\c10.dll" or one of its dependencies.',
        "winerror-126-or-1114-c10dll",
    ),
    # pytorch/pytorch#138986
    (
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        '".venv\\Lib\\site-packages\\torch\\lib\\c10_xpu.dll" or one of its dependencies.',
        "xpu-not-available",
    ),
    # microsoft/DirectML#627-style: torch replaced under torch-directml
    (
        "ImportError: DLL load failed while importing torch_directml_native: The specified procedure could not be found.",
        "another-package-replaced-torch",
    ),
    # zeyad-mansour/lunar#58; guoyww/AnimateDiff#374 as a Chinese Windows prints it
    (
        "OSError: [WinError 127] The specified procedure could not be found. Error loading "
        '"...\\torch\\lib\\c10_cuda.dll" or one of its dependencies.',
        "winerror-127",
    ),
    (
        "OSError: [WinError 127] \u627e\u4e0d\u5230\u6307\u5b9a\u7684\u7a0b\u5e8f\u3002 Error loading "
        '"...\\torch\\lib\\torch_python.dll" or one of its dependencies.',
        "winerror-127",
    ),
    # pytorch/pytorch#27693
    (
        "OSError: [WinError 193] %1 is not a valid Win32 application. Error loading "
        '"...\\torch\\lib\\caffe2_detectron_ops.dll" or one of its dependencies.',
        "winerror-193",
    ),
]


@pytest.mark.parametrize("error, anchor", LOADER_CASES)
def test_loader_errors_are_classified(error, anchor):
    [finding] = doctor.import_findings({"imported": False, "error": error})
    assert finding.status == "PROBLEM" and finding.section == f"troubleshooting/#{anchor}"
    assert finding.fix and finding.line().isascii()


def test_torch_missing_and_an_unknown_error():
    [missing] = doctor.import_findings({"imported": False, "error": "ModuleNotFoundError: No module named 'torch'"})
    assert missing.section == "setup/" and "not installed" in missing.text
    [unknown] = doctor.import_findings({"imported": False, "error": "RuntimeError: something new\nsecond line"})
    assert unknown.section == "troubleshooting/#where-to-report-a-bug"
    assert "something new" in unknown.text and "second line" not in unknown.text


# ------------------------------------------------------------------ devices


def fake_torch(cuda=(), hip=None, cuda_version="12.4", xpu=()):
    """A stand-in torch module: cuda = [(name, bytes, is_integrated[, ROCm's gcnArchName])], xpu = [(name, bytes)]."""

    def props(entry):
        arch = {"gcnArchName": entry[3]} if len(entry) > 3 else {}
        return types.SimpleNamespace(name=entry[0], total_memory=entry[1], is_integrated=entry[2], **arch)

    return types.SimpleNamespace(
        __version__="2.14.1+test",
        version=types.SimpleNamespace(cuda=None if hip else cuda_version, hip=hip, xpu="20260000" if xpu else None),
        cuda=types.SimpleNamespace(
            is_available=lambda: bool(cuda),
            device_count=lambda: len(cuda),
            get_device_properties=lambda i: props(cuda[i]),
        ),
        xpu=types.SimpleNamespace(
            is_available=lambda: bool(xpu),
            device_count=lambda: len(xpu),
            get_device_properties=lambda i: types.SimpleNamespace(name=xpu[i][0], total_memory=xpu[i][1]),
        ),
    )


# ROCm/TheRock#3392: a Ryzen 9000's iGPU as cuda:0, the RX 9000 as cuda:1 (sizes as ROCm reports them).
THEROCK_3392 = [("AMD Radeon(TM) Graphics", 2 * 2**30, True), ("AMD Radeon RX 9070 XT", 16 * 2**30, False)]


def probe_of(torch_module, monkeypatch, directml=None):
    monkeypatch.setitem(sys.modules, "torch", torch_module)
    if directml is None:
        monkeypatch.setitem(sys.modules, "torch_directml", None)  # import raises ModuleNotFoundError
    else:
        monkeypatch.setitem(
            sys.modules,
            "torch_directml",
            types.SimpleNamespace(device_count=lambda: len(directml), device_name=lambda i: directml[i]),
        )
    return doctor.probe_torch()


def test_rocm_integrated_gpu_first_is_named_with_its_fix(monkeypatch):
    probe = probe_of(fake_torch(THEROCK_3392, hip="7.2.53211"), monkeypatch)
    assert [d["device"] for d in probe["devices"]] == ["cuda:0", "cuda:1"]
    found = doctor.device_findings(probe, {}, on_windows=False)
    lines = [f.line() for f in found]
    assert lines[0] == (
        "ok      device: cuda:0 (ROCm): AMD Radeon(TM) Graphics, 2.0 GB, integrated; "
        "chooser: choose/?gpu=AMD%20Radeon%28TM%29%20Graphics"
    )
    assert lines[1].startswith("ok      device: cuda:1 (ROCm): AMD Radeon RX 9070 XT, 16.0 GB; chooser: ")
    [order] = [f for f in found if f.topic == "device order"]
    assert order.status == "note" and "HIP_VISIBLE_DEVICES=1" in order.fix
    assert order.section == "troubleshooting/#rocm-integrated-gpu-first"
    assert not only(found, "PROBLEM")


def test_discrete_first_gives_no_order_note(monkeypatch):
    probe = probe_of(fake_torch(THEROCK_3392[::-1], hip="7.2.53211"), monkeypatch)
    assert not [f for f in doctor.device_findings(probe, {}, on_windows=False) if f.topic == "device order"]


def test_xpu_integrated_gpu_first_gets_oneapi_advice(monkeypatch):
    # FastChat#2414 / pytorch#197515: "Intel(R) UHD Graphics 770" as xpu:0, the Arc A770 as xpu:1
    probe = probe_of(
        fake_torch(xpu=[("Intel(R) UHD Graphics 770", 2**30), ("Intel(R) Arc(TM) A770 Graphics", 16 * 2**30)]),
        monkeypatch,
    )
    found = doctor.device_findings(probe, {}, on_windows=False)
    [order] = [f for f in found if f.topic == "device order"]
    # choose_device() takes xpu:0 on XPU (it skips an integrated GPU on torch.cuda only): say so
    assert "choose_device() takes xpu:0, the integrated one" in order.text
    assert "TORCH_DEVICE=xpu:1" in order.fix
    assert "ONEAPI_DEVICE_SELECTOR=level_zero:1" in order.fix and "ZE_AFFINITY_MASK=1" in order.fix
    assert "CUDA_VISIBLE_DEVICES" not in order.line() and "hip" not in order.line().lower()
    assert order.section == "troubleshooting/#amd-rocm-and-intel-xpu-on-windows"
    assert order.line().isascii()


def test_cuda_order_note_names_no_hip_error(monkeypatch):
    gpus = [("Some Integrated Radeon(TM) Graphics", 2**30, True), ("NVIDIA GeForce RTX 4060", 8 * 2**30, False)]
    probe = probe_of(fake_torch(gpus), monkeypatch)
    [order] = [f for f in doctor.device_findings(probe, {}, on_windows=False) if f.topic == "device order"]
    assert "CUDA_VISIBLE_DEVICES=1" in order.fix and "hipError" not in order.fix


def test_intel_xpu_and_directml_devices(monkeypatch):
    # intel/torch-xpu-ops#4065 (Arc B580 on Windows); microsoft/DirectML#239 (the iGPU as adapter 0)
    probe = probe_of(
        fake_torch(xpu=[("Intel(R) Arc(TM) B580 Graphics", 12 * 2**30)]),
        monkeypatch,
        directml=["Intel(R) UHD Graphics 770", "AMD Radeon RX 6700 XT"],
    )
    found = doctor.device_findings(probe, {}, on_windows=False)
    texts = [f.text for f in found]
    assert (
        "xpu:0 (XPU): Intel(R) Arc(TM) B580 Graphics, 12.0 GB; chooser: "
        "choose/?gpu=Intel%28R%29%20Arc%28TM%29%20B580%20Graphics" in texts
    )
    assert any(t.startswith("privateuseone:1 (DirectML): AMD Radeon RX 6700 XT; chooser:") for t in texts)
    [order] = [f for f in found if f.topic == "device order"]
    assert order.section == "troubleshooting/#directml-uses-the-integrated-gpu"


def test_on_windows_the_chooser_links_come_from_windows_adapter_names(monkeypatch):
    probe = probe_of(fake_torch(THEROCK_3392, hip="7.2.53211"), monkeypatch)
    assert "chooser" not in " ".join(f.text for f in doctor.device_findings(probe, {}, on_windows=True))


def test_the_probe_reads_rocms_gfx_target(monkeypatch):
    """gcnArchName, as ROCm builds give it ("gfx1201", or with its features: "gfx90a:sramecc+:xnack-")."""
    gpus = [("AMD Radeon RX 9070 XT", 16 * 2**30, False, "gfx1201"), ("AMD Radeon RX 7900 XTX", 2**30, False)]
    probe = probe_of(fake_torch(gpus, hip="7.2.53211"), monkeypatch)
    assert [d["arch"] for d in probe["devices"]] == ["gfx1201", None]
    # a CUDA build's properties have gcnArchName too (torch 2.4.1's _CudaDeviceProperties): not a gfx target
    probe = probe_of(fake_torch([("NVIDIA GeForce RTX 4060", 8 * 2**30, False, "NVIDIA")]), monkeypatch)
    assert probe["devices"][0]["arch"] is None


# ------------------------------------------------------------------ environment variables


CUDA_BUILD = {"imported": True, "version": "2.14.1+cu130", "cuda": "13.0"}


def test_a_visibility_variable_that_hides_every_gpu_is_the_problem():
    probe = {**CUDA_BUILD, "devices": []}
    env = {"CUDA_VISIBLE_DEVICES": ""}
    assert doctor.device_findings(probe, env, on_windows=False) == []  # not blamed on the driver
    found = doctor.visibility_findings(env, probe)
    [hiding] = only(found, "PROBLEM")
    assert hiding.topic == "CUDA_VISIBLE_DEVICES" and "Remove-Item Env:CUDA_VISIBLE_DEVICES" in hiding.fix
    assert ("ok", "HIP_VISIBLE_DEVICES") in statuses(found)


def test_a_visibility_variable_that_leaves_a_gpu_is_a_note():
    probe = {**CUDA_BUILD, "devices": [{"backend": "ROCm", "device": "cuda:0", "name": "AMD Radeon RX 7900 XTX"}]}
    found = doctor.visibility_findings({"HIP_VISIBLE_DEVICES": "1"}, probe)
    assert ("note", "HIP_VISIBLE_DEVICES") in statuses(found) and not only(found, "PROBLEM")


@pytest.mark.parametrize(
    "value, status",
    [("cuda:0", "note"), ("cpu", "note"), ("cuda:1", "PROBLEM"), ("gpu", "PROBLEM"), ("dml:x", "PROBLEM"), ("", "ok")],
)
def test_torch_device(value, status):
    probe = {**CUDA_BUILD, "devices": [{"backend": "CUDA", "device": "cuda:0", "name": "NVIDIA H200"}]}
    [finding] = doctor.torch_device_findings(value, probe)
    assert finding.status == status, finding.line()


# ------------------------------------------------------------------ packages and Python


def test_a_later_pip_install_that_replaced_the_rocm_build():
    """legacy-rocm-build#5733: torch 2.9.0+rocmsdk20251116 became 2.9.1+cpu; AMD's rocm-sdk packages stay."""
    found = doctor.torch_findings("2.9.1+cpu", "0.24.1+cpu", None, None, {"rocm-sdk-core", "torch"}, "Windows")
    [replaced] = only(found, "PROBLEM")
    assert replaced.section == "troubleshooting/#rocm-or-xpu-build-replaced-by-cpu" and "ROCm" in replaced.text


def test_xpu_build_replaced_too():
    found = doctor.torch_findings("2.8.0", "0.23.0", None, None, {"intel-sycl-rt"}, "Windows")
    assert "XPU" in only(found, "PROBLEM")[0].text


@pytest.mark.parametrize(
    "torch_version, vision",
    [
        ("2.9.0+rocmsdk20251116", "0.24.0+rocmsdk20251116"),  # legacy-rocm-build#5733, AMD's 7.1.1 wheels
        ("2.13.0+rocm10.0.0", "0.28.0+rocm10.0.0"),  # TheRock#7839
        ("2.8.0+xpu", "0.23.0+xpu"),  # pytorch#161743
        ("2.4.1", "0.19.1"),  # torch-directml's pins, from PyPI
    ],
)
def test_matching_builds_are_ok(torch_version, vision):
    companions = (
        {"rocm-sdk-core"} if "rocm" in torch_version else {"intel-sycl-rt"} if "xpu" in torch_version else set()
    )
    found = doctor.torch_findings(torch_version, vision, None, None, companions, "Windows")
    assert not only(found, "PROBLEM"), [f.line() for f in found]


@pytest.mark.parametrize("torch_version, vision", [("2.9.0+rocmsdk20251116", "0.24.0"), ("2.4.1", "0.20.1")])
def test_a_torchvision_from_elsewhere_is_a_problem(torch_version, vision):
    [finding] = only(doctor.torch_findings(torch_version, vision, None, None, set(), "Windows"), "PROBLEM")
    assert finding.topic == "torchvision"


def test_torch_directml_and_the_torch_it_needs():
    needs = doctor.directml_needs(["torch==2.4.1", "torchvision==0.19.1"])
    assert needs == "2.4.1"
    assert not only(doctor.torch_findings("2.4.1", "0.19.1", "0.2.5.dev240914", needs, set(), "Windows"), "PROBLEM")
    [wrong] = only(doctor.torch_findings("2.5.0", "0.20.0", "0.2.5.dev240914", needs, set(), "Windows"), "PROBLEM")
    assert wrong.topic == "torch-directml" and wrong.section == "troubleshooting/#another-package-replaced-torch"


@pytest.mark.parametrize(
    "version, system, build",
    [
        ("2.4.1", "Windows", "CPU"),
        ("2.4.1", "Linux", "CUDA"),
        ("2.9.1+cpu", "Linux", "CPU"),
        ("2.14.1+cu130", "Windows", "CUDA"),
        ("2.9.0+rocmsdk20251116", "Windows", "ROCm"),
        ("2.8.0+xpu", "Windows", "XPU"),
    ],
)
def test_build_of(version, system, build):
    assert doctor.build_of(version, system) == build


def test_torch_not_installed_and_pip_missing():
    assert only(doctor.torch_findings(None, None, None, None, set()), "PROBLEM")
    assert only(doctor.pip_findings(None), "PROBLEM")


def test_python_checks():
    assert doctor.python_findings((3, 12, 10), 64, "py") == [doctor.ok("python", "3.12.10, 64-bit, py")]
    newer = doctor.python_findings((3, 13, 1), 64, "py")
    assert not only(newer, "PROBLEM") and "3.11 to 3.14" in only(newer, "note")[0].text
    assert only(doctor.python_findings((3, 12, 10), 32, "py"), "PROBLEM")


@pytest.mark.parametrize(
    "venv, conda, folder, status",
    [
        ("/home/u/proj/.venv", "", "/home/u/proj", "ok"),  # the project's .venv
        ("/home/u/proj/.venv", "", "/home/u/proj/notebooks", "ok"),  # run from a folder below it
        ("/home/u/other/.venv", "", "/home/u/proj", "note"),  # another project's
        ("", "", "/home/u/proj", "note"),  # the system Python
        ("", "C:\\miniconda3\\envs\\dml", "C:\\proj", "ok"),
    ],
)
def test_environment(venv, conda, folder, status):
    [finding] = doctor.environment_findings(venv, conda, pathlib.Path(folder))
    assert finding.status == status, finding.line()


def test_non_ascii_and_long_paths_are_notes_in_ascii():
    found = doctor.console_findings("cp936", "C:\\Users\\\u5f20\u4e09\\\u9879\u76ee", "C:\\Users\\\u5f20\u4e09")
    notes = only(found, "note")
    assert [f.topic for f in notes] == ["project folder", "user folder"]
    assert all(f.line().isascii() for f in found)
    assert "\\u5f20\\u4e09" in notes[0].line()
    assert only(doctor.console_findings("utf-8", "C:\\" + "x" * 210, "C:\\Users\\a"), "note")


# ------------------------------------------------------------------ exit codes


def test_exit_codes(monkeypatch, tmp_path):
    monkeypatch.setattr(doctor, "start_probe", lambda: None)  # examine() below never asks for its result
    monkeypatch.setattr(doctor, "examine", lambda probe, env: [doctor.ok("python", "3.12")])
    assert run_main("doctor", [])[::2] == (0, "")  # the exit status, and nothing on stderr
    assert run_main("doctor", ["--json", str(tmp_path / "missing" / "r.json")]).code == 1
    assert run_main("doctor", ["--no-such-option"]).code == 2
    monkeypatch.setattr(doctor, "examine", lambda probe, env: [doctor.problem("pip", "missing", "ensurepip")])
    code, _, err = run_main("doctor", [])
    assert code == 1 and err.startswith("error: 1 problem(s) found")


def test_c10_xpu_dll_is_a_broken_install_first_not_the_driver():
    # pytorch#138986 was a DLL-loading bug of torch 2.5.1+xpu, fixed in newer builds (torch-xpu-ops#1155);
    # since 2.6 a missing driver gives "Failed to initialize XPU devices", not a failing import (torch-xpu-ops#1013)
    error = (
        "OSError: [WinError 126] The specified module could not be found. Error loading "
        '".venv\\Lib\\site-packages\\torch\\lib\\c10_xpu.dll" or one of its dependencies.'
    )
    [finding] = doctor.import_findings({"imported": False, "error": error})
    assert finding.fix.startswith("reinstall torch from PyTorch's XPU index"), finding.fix
    assert "driver" in finding.fix.partition(";")[2]  # the driver is the second step


@pytest.mark.parametrize(
    "torch_version, keeps_torch",
    [
        ("2.5.0", False),  # a DirectML environment whose torch was upgraded: put torch-directml's torch back
        ("2.14.0+rocm10.1.0", True),  # AMD's torch with torch-directml beside it: the fix must not replace it
        ("2.10.0+xpu", True),
        ("2.9.1+cu126", True),  # a CUDA build: the same
    ],
)
def test_torch_directml_beside_another_torch(torch_version, keeps_torch):
    [finding] = doctor.directml_findings(torch_version, "0.2.5.dev240914", "2.4.1")
    assert finding.status == "PROBLEM"
    assert ("--force-reinstall torch-directml" in finding.fix) is not keeps_torch, finding.fix
    if keeps_torch:
        assert "pip uninstall torch-directml" in finding.fix


@pytest.mark.parametrize(
    "torch_version, section",
    [
        ("2.14.0+rocm10.1.0", "troubleshooting/#rocm-or-xpu-build-replaced-by-cpu"),
        ("2.9.1+xpu", "troubleshooting/#rocm-or-xpu-build-replaced-by-cpu"),
        ("2.9.1+cu126", "setup/"),
    ],
)
def test_a_mismatched_library_beside_another_build_is_not_sent_to_torch_directml(torch_version, section):
    """A mismatched library in a ROCm, XPU or CUDA environment: reinstalling torch-directml would replace that
    torch (issue 30), so the fix is the reader's own build; WinError 127 keeps its own section, which says so."""
    [native] = doctor.import_findings(
        {"imported": False, "error": "ImportError: torch_directml_native.pyd: undefined symbol"}, torch_version
    )
    assert native.section == section and f"reinstall your torch build ({torch_version})" in native.fix
    error = "OSError: [WinError 127] The specified procedure could not be found."
    section = "troubleshooting/#winerror-127"
    [finding] = doctor.import_findings({"imported": False, "error": error}, torch_version)
    assert "install torch-directml" not in finding.fix.replace("do not install torch-directml", ""), finding.fix
    assert f"reinstall your torch build ({torch_version})" in finding.fix and finding.section == section
    # DirectML's environment (PyPI's torch) keeps DirectML's fix
    [directml] = doctor.import_findings({"imported": False, "error": error}, "2.4.1")
    assert "--force-reinstall torch-directml" in directml.fix
