"""Tests for snippets/doctor.py's view of the PC's own GPUs: their PCI IDs named from the device table through
snippets/gpu_identity.py (a stand-in table: tests/gpu_stand_in.py), and the problems only that view can see: a CUDA
build blind to the PC's NVIDIA GPU, AMD's packages for another gfx target, a build that no GPU of the PC can use.
The doctor's other tests: test_doctor.py; its Windows registry: test_doctor_windows.py."""

from __future__ import annotations

import pytest

from gpu_stand_in import only, windows_adapter
from guide_harness import ASCII_CONSOLE, SNIPPETS, load_snippet, run_python

doctor = load_snippet("doctor")


def rocm_probe(*devices):
    """probe_torch()'s report of a ROCm build that sees these (name, integrated, gcnArchName) devices."""
    seen = [
        {"backend": "ROCm", "device": f"cuda:{i}", "name": name, "memory_gb": 16.0, "integrated": igpu, "arch": arch}
        for i, (name, igpu, arch) in enumerate(devices)
    ]
    return {"imported": True, "version": "2.14.0+rocm10.1.0", "hip": "7.2.53211", "devices": seen}


# Windows' names and hardware IDs (PNPDeviceID, Enum\\PCI) of the PCs below; the stand-in table names them.
RTX_3050_LAPTOP = ("NVIDIA GeForce RTX 3050 Laptop GPU", "PCI\\VEN_10DE&DEV_25A2&SUBSYS_0A8E1028&REV_A1")
UHD_770 = ("Intel(R) UHD Graphics 770", "PCI\\VEN_8086&DEV_A780&SUBSYS_0B1A1028&REV_04")
RX_9070_XT = ("AMD Radeon RX 9070 XT", "PCI\\VEN_1002&DEV_7550&SUBSYS_24121EAE&REV_C0")
RX_6800_XT = ("AMD Radeon RX 6800 XT", "PCI\\VEN_1002&DEV_73BF&SUBSYS_0E3A1002&REV_C1")
RADEON_780M = ("AMD Radeon 780M Graphics", "PCI\\VEN_1002&DEV_15BF&SUBSYS_0B8C1043&REV_C1")
RX_7700S = ("AMD Radeon RX 7700S", "PCI\\VEN_1002&DEV_7480&SUBSYS_0B3A1043&REV_C1")  # a laptop's: kind "mobile"
H200 = ("NVIDIA H200", "PCI\\VEN_10DE&DEV_2335&SUBSYS_18BE10DE&REV_A1")  # a row with no back-end
ASPEED = ("ASPEED Graphics Family(WDDM)", "PCI\\VEN_1A03&DEV_2000&SUBSYS_20001A03&REV_41")  # not in the table


@pytest.fixture
def windows_pc(device_table, monkeypatch):
    """machine_gpus() on a Windows PC with these adapters: the registry stands in, the rest is the doctor's own."""

    def pc(*adapters):
        monkeypatch.setattr(doctor, "windows_adapters", lambda winreg=None: [windows_adapter(*a) for a in adapters])
        gpus, why = doctor.machine_gpus(on_windows=True)
        assert why == ""
        return gpus

    return pc


def test_a_cuda_build_blind_to_the_pcs_nvidia_gpu_is_a_problem(windows_pc):
    """The hybrid laptop of six-readers-2 (reader 6): Intel UHD and an RTX 3050 Laptop GPU, the NVIDIA GPU off
    or driverless: the doctor said "OK" and the reader trained on the CPU."""
    probe = {"imported": True, "version": "2.14.1+cu130", "cuda": "13.0", "devices": []}
    [finding] = doctor.device_findings(probe, {}, True, windows_pc(UHD_770, RTX_3050_LAPTOP))
    assert finding.status == "PROBLEM" and finding.section == "troubleshooting/#hybrid-laptop"
    assert "NVIDIA GeForce RTX 3050 Laptop GPU" in finding.text and "CPU" in finding.text
    # CUDA sees the NVIDIA GPU whatever Windows' graphics preference says (the section): the fix is its power
    # mode and its driver, and two ways to check
    assert "integrated-only mode" in finding.fix and "NVIDIA's current driver" in finding.fix
    assert "nvidia-smi" in finding.fix and "python choose_device.py" in finding.fix
    assert "Graphics" not in finding.fix
    assert finding.line().isascii() and "\n" not in finding.line()


def test_a_cuda_build_that_sees_the_nvidia_gpu_is_fine(windows_pc):
    probe = {"imported": True, "version": "2.14.1+cu130", "cuda": "13.0"}
    probe["devices"] = [{"backend": "CUDA", "device": "cuda:0", "name": RTX_3050_LAPTOP[0], "integrated": False}]
    found = doctor.device_findings(probe, {}, True, windows_pc(UHD_770, RTX_3050_LAPTOP))
    assert not only(found, "PROBLEM") and not only(found, "note")


def test_a_cuda_build_on_a_pc_with_a_gpu_the_table_lacks_stays_a_note(windows_pc):
    """A server's BMC graphics (ASPEED): no NVIDIA GPU, and no row to say what it takes."""
    probe = {"imported": True, "version": "2.4.1+cu121", "cuda": "12.1", "devices": []}
    [finding] = doctor.device_findings(probe, {}, True, windows_pc(ASPEED))
    assert finding.status == "note" and finding.section == "setup/"


# TheRock's multi-arch wheels: torch[device-gfx1100] installs amd-torch-device-gfx1100 and rocm-sdk-device-gfx1100
# (ROCm/TheRock RELEASES.md, "Installing multi-arch PyTorch Python packages").
GFX1100_WHEELS = {"torch", "amd-torch-device-gfx1100", "rocm-sdk-device-gfx1100", "rocm-sdk-libraries"}
GFX1201_WHEELS = {"torch", "amd-torch-device-gfx1201", "amd-torch-device-gfx12-0", "rocm-sdk-device-gfx1201"}


def test_rocm_wheels_for_another_target_than_the_gpu_seen():
    """A gfx1100 install on an RX 9070 XT: torch sees the card (gcnArchName gfx1201), its first kernel fails."""
    probe = rocm_probe(("AMD Radeon RX 9070 XT", False, "gfx1201"))
    [wrong] = only(doctor.device_findings(probe, {}, True, [], GFX1100_WHEELS), "PROBLEM")
    assert wrong.topic == "rocm target" and wrong.section == "troubleshooting/#no-kernel-image"
    assert "gfx1100" in wrong.text and "AMD Radeon RX 9070 XT (gfx1201)" in wrong.text
    assert "[device-gfx1201]" in wrong.fix
    assert not only(doctor.device_findings(probe, {}, True, [], GFX1201_WHEELS), "PROBLEM")
    assert not only(doctor.device_findings(probe, {}, True, [], {"torch", "rocm-sdk-core"}), "PROBLEM")  # unknown


def test_the_rocm_target_check_takes_the_discrete_gpu():
    """TheRock#3392's order, the iGPU first: the packages must fit the card choose_device() takes."""
    probe = rocm_probe(
        ("AMD Radeon 780M Graphics", True, "gfx1103"), ("AMD Radeon RX 9070 XT", False, "gfx1201:sramecc-")
    )
    assert not only(doctor.device_findings(probe, {}, True, [], GFX1201_WHEELS), "PROBLEM")
    [wrong] = only(doctor.device_findings(probe, {}, True, [], {"amd-torch-device-gfx1103"}), "PROBLEM")
    assert "AMD Radeon RX 9070 XT (gfx1201)" in wrong.text


def test_rocm_wheels_for_another_target_when_torch_sees_no_gpu(windows_pc):
    """No GPU seen: the target comes from the device table, and replaces the driver's problem (one cause)."""
    probe = {"imported": True, "version": "2.14.0+rocm10.1.0", "hip": "7.2", "devices": []}
    [wrong] = doctor.device_findings(probe, {}, True, windows_pc(RADEON_780M, RX_9070_XT), GFX1100_WHEELS)
    assert wrong.topic == "rocm target" and "AMD Radeon RX 9070 XT (gfx1201)" in wrong.text
    [driver] = doctor.device_findings(probe, {}, True, windows_pc(RADEON_780M, RX_9070_XT), GFX1201_WHEELS)
    assert driver.section == "troubleshooting/#where-to-report-a-bug" and "Adrenalin" in driver.fix


@pytest.mark.parametrize(
    "build",
    [
        {"version": "2.9.1+xpu", "xpu": "20250200"},  # Intel's build on a Radeon
        {"version": "2.14.0+rocm10.1.0", "hip": "7.2"},  # AMD's ROCm build on an RDNA2 card (DirectML only)
    ],
)
def test_a_build_the_gpu_cannot_use_is_a_problem(build, windows_pc):
    probe = {"imported": True, "devices": [], **build}
    [finding] = doctor.device_findings(probe, {}, True, windows_pc(RX_6800_XT), set())
    assert finding.status == "PROBLEM" and finding.section == "choose/"
    assert "AMD Radeon RX 6800 XT (gfx1030) cannot use" in finding.text and "it takes DirectML" in finding.text
    assert "choose/?gpu=AMD%20Radeon%20RX%206800%20XT" in finding.fix
    assert "Intel's current GPU driver" not in finding.fix


def test_a_gpu_the_table_lacks_leaves_the_driver_problem(windows_pc):
    """The table knows the Radeon but not the other adapter: it cannot say that no GPU takes XPU."""
    probe = {"imported": True, "version": "2.9.1+xpu", "xpu": "20250200", "devices": []}
    [finding] = doctor.device_findings(probe, {}, True, windows_pc(RX_6800_XT, ASPEED))
    assert finding.section == "troubleshooting/#xpu-not-available"


@pytest.mark.parametrize(
    "beside, said",
    [
        # doctor.py saved with its door only, from the verification page, as the page says
        ((), "note    device table: gpu_identity.py is not beside doctor.py: GPUs are named without it. Fix: "),
        (("gpu_identity.py",), "note    device table: gpu_devices.json is not beside gpu_identity.py: "),
        (
            ("gpu_identity.py", b'{"devices": {"1002:744c": [{"rev": "c8", "na'),
            "note    device table: gpu_devices"
            ".json is damaged (JSONDecodeError: Unterminated string starting at: line 1 column 42 (char 41)): ",
        ),
    ],
)
def test_without_its_device_table_the_doctor_says_so_in_one_line(beside, said, tmp_path):
    """The reader's folder, run as a script: a missing or damaged table is one note, never a traceback."""
    folder = tmp_path / "project"
    folder.mkdir()
    for name in ("doctor.py", "script_guard.py", *[b for b in beside if isinstance(b, str)]):
        (folder / name).write_bytes((SNIPPETS / name).read_bytes())
    for damaged in [b for b in beside if isinstance(b, bytes)]:
        (folder / "gpu_devices.json").write_bytes(damaged)
    result = run_python([str(folder / "doctor.py")], cwd=folder, PYTHONIOENCODING=ASCII_CONSOLE)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stdout + result.stderr
    [line] = [line for line in result.stdout.splitlines() if "device table" in line]
    assert line.startswith(said) and line.endswith("(see verification/#start-with-the-doctor)"), line


@pytest.mark.parametrize("ids", [("10de", "25a2", "a1"), ("10de", "ffff", "a1")])  # in the table, and not
def test_on_linux_the_nvidia_gpu_is_known_by_its_vendor_id(ids, device_table, monkeypatch):
    """Linux's DRM cards have no name: the vendor ID 10de says NVIDIA, with the table's row or without."""
    monkeypatch.setattr(load_snippet("gpu_identity"), "linux_ids", lambda: [("8086", "a780", "04"), ids])
    gpus, _ = doctor.machine_gpus(on_windows=False)
    probe = {"imported": True, "version": "2.4.1+cu121", "cuda": "12.1", "devices": []}
    [finding] = doctor.device_findings(probe, {}, False, gpus)
    assert finding.status == "PROBLEM" and finding.section == "troubleshooting/#hybrid-laptop"
    gpu_lines = [f.line() for f in doctor.gpu_findings(gpus, "", on_windows=False)]
    assert gpu_lines[0] == "ok      gpu: PCI 8086:a780 rev 04: Intel(R) Graphics, intel-old, rpl"


def test_a_laptops_radeon_comes_before_its_integrated_one(windows_pc):
    """A laptop's dedicated Radeon is kind "mobile" in the table: it, not the 780M listed first, is the GPU."""
    probe = {"imported": True, "version": "2.14.0+rocm10.1.0", "hip": "7.2", "devices": []}
    [wrong] = doctor.device_findings(probe, {}, True, windows_pc(RADEON_780M, RX_7700S), {"amd-torch-device-gfx1103"})
    assert wrong.topic == "rocm target" and "AMD Radeon RX 7700S (gfx1102)" in wrong.text


def test_a_row_without_back_ends_decides_nothing(windows_pc):
    """The table names no back-end for a data-centre GPU: not "it cannot use XPU", the build's own problem."""
    probe = {"imported": True, "version": "2.9.1+xpu", "xpu": "20250200", "devices": []}
    [finding] = doctor.device_findings(probe, {}, True, windows_pc(H200))
    assert finding.section == "troubleshooting/#xpu-not-available"
