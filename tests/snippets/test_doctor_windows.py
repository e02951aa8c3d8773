"""Tests for snippets/doctor.py's Windows findings, read through a stand-in winreg: the Windows build, Smart App
Control, the Visual C++ runtime, long paths and the display adapters (values as the threads cited report them).
The rest of the doctor's tests: tests/snippets/test_doctor.py."""

from __future__ import annotations

import contextlib

import pytest

from gpu_stand_in import only, statuses
from guide_harness import load_snippet

# A stand-in winreg and the doctor's own reading of it: torch is imported, never asked. The same under every
# torch: the pins leg runs these (pyproject.toml).
pytestmark = pytest.mark.any_torch

doctor = load_snippet("doctor")


class FakeWinreg:
    """Reads HKEY_LOCAL_MACHINE from a dict {key: {value name: value}}, as winreg does."""

    HKEY_LOCAL_MACHINE = "HKLM"

    def __init__(self, values):
        self.values = values

    @contextlib.contextmanager
    def OpenKey(self, root, key):  # noqa: N802 - winreg's name
        if key not in self.values and not any(k.startswith(key + "\\") for k in self.values):
            raise FileNotFoundError(2, "The system cannot find the file specified")
        yield key

    def QueryValueEx(self, key, name):  # noqa: N802
        if name not in self.values.get(key, {}):
            raise FileNotFoundError(2, "The system cannot find the file specified")
        return self.values[key][name], 4

    def EnumKey(self, key, index):  # noqa: N802
        """The index-th subkey's name; OSError past the last, as winreg raises (WinError 259)."""
        children = sorted({k[len(key) + 1 :].split("\\")[0] for k in self.values if k.startswith(key + "\\")})
        if index >= len(children):
            raise OSError(259, "No more data is available")
        return children[index]


POLICY = r"SYSTEM\CurrentControlSet\Control\CI\Policy"
RUNTIME = r"SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64"
FILESYSTEM = r"SYSTEM\CurrentControlSet\Control\FileSystem"
# Smart App Control off, the Visual C++ runtime installed, long paths on
HEALTHY = {
    POLICY: {"VerifiedAndReputablePolicyState": 0},
    RUNTIME: {"Version": "v14.44"},
    FILESYSTEM: {"LongPathsEnabled": 1},
}


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
    found = windows({**HEALTHY, RUNTIME: {"Version": "v14.44.35211.00"}, **adapters}, 26100, tmp_path, monkeypatch)
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
    found = windows({**HEALTHY, POLICY: {"VerifiedAndReputablePolicyState": state}}, 26100, tmp_path, monkeypatch)
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


# ------------------------------------------------------------------ the adapters' PCI IDs

ENUM = r"SYSTEM\CurrentControlSet\Enum\PCI"
GUID = "{4d36e968-e325-11ce-bfc1-08002be10318}"


def hybrid_laptop(enum=True):
    """Intel UHD 770 and an RTX 3050 Laptop GPU. Each PCI device under Enum\\PCI names its driver's key under the
    display class in Driver; the display class keys hold MatchingDeviceId, the ID the driver's INF matched."""
    values = {
        **HEALTHY,
        doctor.DISPLAY_CLASS + "\\0000": {
            "DriverDesc": "Intel(R) UHD Graphics 770",
            "MatchingDeviceId": "pci\\ven_8086&dev_a780",
        },
        doctor.DISPLAY_CLASS + "\\0001": {
            "DriverDesc": "NVIDIA GeForce RTX 3050 Laptop GPU",
            "MatchingDeviceId": "pci\\ven_10de&dev_25a2",
            "HardwareInformation.qwMemorySize": 4 * 2**30,
        },
    }
    if enum:
        values |= {
            ENUM + "\\VEN_8086&DEV_A780&SUBSYS_0B1A1028&REV_04\\3&11583659&0&10": {"Driver": GUID + "\\0000"},
            ENUM + "\\VEN_10DE&DEV_25A2&SUBSYS_0A8E1028&REV_A1\\4&2B3C4D5E&0&0008": {"Driver": GUID + "\\0001"},
            # a PCI device without a driver (no Driver value), listed first: the walk goes on past it
            ENUM + "\\VEN_1022&DEV_14DA&SUBSYS_00000000&REV_00\\3&2411E6FE&0&00": {"DeviceDesc": "PCI Device"},
            # another PCI device: its driver is under another class (a network card)
            ENUM + "\\VEN_8086&DEV_15F3&SUBSYS_00008086&REV_03\\4&1&0&00E8": {
                "Driver": "{4d36e972-e325-11ce-bfc1-08002be10318}\\0001"
            },
        }
    return FakeWinreg(values)


def test_the_adapters_hardware_ids_come_from_enum_pci():
    adapters = doctor.windows_adapters(hybrid_laptop())
    assert [a["pci"] for a in adapters] == [
        "VEN_8086&DEV_A780&SUBSYS_0B1A1028&REV_04",
        "VEN_10DE&DEV_25A2&SUBSYS_0A8E1028&REV_A1",
    ]


def test_without_enum_pci_the_drivers_match_is_used():
    assert [a["pci"] for a in doctor.windows_adapters(hybrid_laptop(enum=False))] == [
        "pci\\ven_8086&dev_a780",
        "pci\\ven_10de&dev_25a2",
    ]


def test_each_windows_gpu_line_names_its_row(device_table, tmp_path, monkeypatch):
    found = windows({}, 26100, tmp_path, monkeypatch)  # no adapter: no GPU line
    assert not [f for f in found if f.topic == "windows GPU"]
    monkeypatch.setenv("SystemRoot", str(tmp_path))
    lines = [f.line() for f in doctor.windows_findings(26100, hybrid_laptop()) if f.topic == "windows GPU"]
    assert lines == [
        "ok      windows GPU: Intel(R) UHD Graphics 770; PCI 8086:a780 rev 04: Intel(R) Graphics, intel-old, rpl; "
        "chooser: choose/?gpu=Intel%28R%29%20UHD%20Graphics%20770",
        "ok      windows GPU: NVIDIA GeForce RTX 3050 Laptop GPU, 4.0 GB; PCI 10de:25a2 rev a1: NVIDIA GeForce RTX "
        "3050 Laptop GPU, nvidia, sm_86; chooser: choose/?gpu=NVIDIA%20GeForce%20RTX%203050%20Laptop%20GPU",
    ]


def test_the_hybrid_laptop_end_to_end(device_table, monkeypatch):
    """machine_gpus() reads the registry and the table; a CUDA build that sees neither GPU is the problem."""
    gpus, why = doctor.machine_gpus(True, hybrid_laptop())
    assert why == "" and [g["row"]["group"] for g in gpus] == ["intel-old", "nvidia"]
    probe = {"imported": True, "version": "2.14.1+cu130", "cuda": "13.0", "devices": []}
    [finding] = doctor.device_findings(probe, {}, True, gpus)
    assert finding.status == "PROBLEM" and "NVIDIA GeForce RTX 3050 Laptop GPU" in finding.text
