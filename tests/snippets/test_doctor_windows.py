"""Tests for snippets/doctor.py's Windows findings, read through a stand-in winreg: the Windows build, Smart App
Control, the Visual C++ runtime, long paths and the display adapters (values as the threads cited report them).
The rest of the doctor's tests: tests/snippets/test_doctor.py."""

from __future__ import annotations

import contextlib

import pytest

from guide_harness import load_snippet

# A stand-in winreg and the doctor's own reading of it: torch is imported, never asked. The same under every
# torch: the pins leg runs these (pyproject.toml).
pytestmark = pytest.mark.any_torch

doctor = load_snippet("doctor")


def statuses(findings):
    return [(f.status, f.topic) for f in findings]


def only(findings, status):
    return [f for f in findings if f.status == status]


class FakeWinreg:
    """Reads HKEY_LOCAL_MACHINE from a dict {key: {value name: value}}, as winreg does."""

    HKEY_LOCAL_MACHINE = "HKLM"

    def __init__(self, values):
        self.values = values

    @contextlib.contextmanager
    def OpenKey(self, root, key):  # noqa: N802 - winreg's name
        if key not in self.values:
            raise FileNotFoundError(2, "The system cannot find the file specified")
        yield key

    def QueryValueEx(self, key, name):  # noqa: N802
        if name not in self.values[key]:
            raise FileNotFoundError(2, "The system cannot find the file specified")
        return self.values[key][name], 4


POLICY = r"SYSTEM\CurrentControlSet\Control\CI\Policy"
RUNTIME = r"SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64"
FILESYSTEM = r"SYSTEM\CurrentControlSet\Control\FileSystem"


def windows(values, build=26100, tmp_path=None, monkeypatch=None):
    if monkeypatch is not None:
        monkeypatch.setenv("SystemRoot", str(tmp_path))  # no System32\vcruntime140_1.dll there
    return doctor.windows_findings(build, FakeWinreg(values))


def test_a_healthy_windows_11(tmp_path, monkeypatch):
    adapters = {
        doctor.DISPLAY_CLASS + "\\0000": {"DriverDesc": "AMD Radeon(TM) Graphics"},
        doctor.DISPLAY_CLASS + "\\0001": {
            "DriverDesc": "AMD Radeon RX 7900 XTX",
            "HardwareInformation.qwMemorySize": 25753026560,
        },
    }
    found = windows(
        {
            POLICY: {"VerifiedAndReputablePolicyState": 0},
            RUNTIME: {"Version": "v14.44.35211.00"},
            FILESYSTEM: {"LongPathsEnabled": 1},
            **adapters,
        },
        26100,
        tmp_path,
        monkeypatch,
    )
    assert only(found, "note") == [] and only(found, "PROBLEM") == []
    lines = [f.line() for f in found]
    assert "ok      windows: Windows 11 (build 26100)" in lines
    assert (
        "ok      windows GPU: AMD Radeon RX 7900 XTX, 24.0 GB; chooser: choose/?gpu=AMD%20Radeon%20RX%207900%20XTX"
        in lines
    )
    assert "ok      windows GPU: AMD Radeon(TM) Graphics; chooser: choose/?gpu=AMD%20Radeon%28TM%29%20Graphics" in lines


@pytest.mark.parametrize("state", [1, 2])  # unsloth#6588: "VerifiedAndReputablePolicyState = 1" (on, enforcing)
def test_smart_app_control_on_or_evaluating_is_a_note_with_its_section(state, tmp_path, monkeypatch):
    found = windows(
        {
            POLICY: {"VerifiedAndReputablePolicyState": state},
            RUNTIME: {"Version": "v14.44"},
            FILESYSTEM: {"LongPathsEnabled": 1},
        },
        26100,
        tmp_path,
        monkeypatch,
    )
    [sac] = [f for f in found if f.topic == "smart app control"]
    assert sac.status == "note" and sac.section == "troubleshooting/#winerror-4551-smart-app-control"


def test_windows_10_no_runtime_no_long_paths(tmp_path, monkeypatch):
    found = windows({}, 19045, tmp_path, monkeypatch)
    assert ("note", "windows") in statuses(found) and ("note", "long paths") in statuses(found)
    [runtime] = only(found, "PROBLEM")
    assert runtime.topic == "visual c++ runtime" and runtime.section == "troubleshooting/#winerror-126-or-1114-c10dll"


def test_the_runtime_dll_alone_counts(tmp_path, monkeypatch):
    (tmp_path / "System32").mkdir()
    (tmp_path / "System32" / "vcruntime140_1.dll").write_bytes(b"MZ")
    assert not only(windows({}, 26100, tmp_path, monkeypatch), "PROBLEM")
