"""Look at this machine and say what stands between it and training
PyTorch on its GPU: DirectML, AMD's ROCm build, Intel XPU, CUDA or the
CPU. Save it next to your project and run it first, also when
"import torch" fails. gpu_identity.py and gpu_devices.json beside it
(in the guide's zip) name each GPU by its PCI ID; without them it says
so and carries on.

    python doctor.py                      # one line per finding
    python doctor.py --json report.json   # the same as a report for an
                                          # issue, user and host removed

Each line starts with "ok", "note" or "PROBLEM"; a problem says its fix
and the guide's section (a page of this site, such as
troubleshooting/#xpu-not-available). It installs nothing, changes
nothing and downloads nothing. Exit status: 0 when it found no problem,
1 when it found one, 2 for a wrong command line.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import platform
import re
import socket
import struct
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import quote

try:  # the door of every script (set-up, step 5), saved next to it
    import script_guard
except ImportError:
    sys.exit("error: script_guard.py is not next to this script")

# Ctrl-C and the console: one line, never a traceback.
script_guard.start()

try:  # beside this file in the guide's zip; without it, no device table
    import gpu_identity
except ImportError:
    gpu_identity = None

# What report.py (and any script of yours) may use; the rest may change.
__all__ = [
    "Finding",
    "diagnose",
    "installed",
    "machine_gpus",
    "private_names",
    "redact",
    "registry_value",
    "report",
    "windows_adapters",
]

# The chooser page takes the adapter's name as Windows shows it.
CHOOSER = "choose/?gpu="
VISIBILITY_VARS = ("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES")
DEVICE_VAR = "TORCH_DEVICE"
DIRECTML_PYTHON = ((3, 8), (3, 12))  # torch-directml's wheels
ROCM_PYTHON = ((3, 11), (3, 14))  # AMD's PyTorch wheels for Windows
# Windows' display adapters (Device Manager's "Display adapters").
DISPLAY_CLASS = (
    r"SYSTEM\CurrentControlSet\Control\Class"
    r"\{4d36e968-e325-11ce-bfc1-08002be10318}"
)
# Integrated GPUs by name, where the driver does not say so. One rule,
# the same in choose_device.py, doctor.py and pick_adapter.py:
#   AMD: "Radeon(TM) Graphics", "Radeon 780M Graphics", "Radeon 680M",
#   "Radeon(TM) RX Vega 11 Graphics", "Radeon(TM) R7 Graphics";
#   Intel: UHD, Iris, "HD Graphics", "Intel(R) Graphics",
#   "Arc(TM) Graphics", "Arc(TM) 140V GPU"; Qualcomm: Adreno.
# A dedicated Radeon says "RX" before its number, an Arc card A or B.
INTEGRATED_NAME = re.compile(
    r"Radeon\S* (\d{3,4}[MS]\b|(R\d |(RX )?Vega \d+ (\(Mobile\) )?)?"
    r"Graphics)|\bUHD\b|\bIris\b|\bHD Graphics\b|^Intel\S* Graphics\b"
    r"|\bArc\S* (Graphics$|\d{3}[VT]\b|B3\d0\b)|\bAdreno\b",
    re.IGNORECASE,
)


@dataclass
class Finding:
    status: str  # "ok", "note" or "PROBLEM"
    topic: str
    text: str
    fix: str = ""
    section: str = ""  # a page of the guide: "troubleshooting/#anchor"

    def line(self) -> str:
        words = f"{self.status:<8}{self.topic}: {self.text}"
        if self.fix:
            words += f". Fix: {self.fix}"
        if self.section:
            words += f" (see {self.section})"
        # Console-proof: a GBK or cp1252 console prints any ASCII.
        return words.encode("ascii", "backslashreplace").decode("ascii")


def ok(topic: str, text: str) -> Finding:
    return Finding("ok", topic, text)


def note(
    topic: str, text: str, fix: str = "", section: str = ""
) -> Finding:
    return Finding("note", topic, text, fix, section)


def problem(topic: str, text: str, fix: str, section: str = "") -> Finding:
    return Finding("PROBLEM", topic, text, fix, section)


def trouble(anchor: str) -> str:
    return f"troubleshooting/#{anchor}"


# --- Python and pip ---------------------------------------------------


def python_findings(
    version=sys.version_info,
    bits: int = struct.calcsize("P") * 8,
    executable: str = sys.executable,
) -> list[Finding]:
    current = tuple(version[:2])
    name = f"{current[0]}.{current[1]}"
    found = [ok("python", f"{name}.{version[2]}, {bits}-bit, {executable}")]
    if bits != 64:
        found.append(
            problem(
                "python",
                f"a {bits}-bit Python: PyTorch has 64-bit wheels only",
                "install 64-bit Python 3.12 and recreate the environment",
                trouble("no-torch-directml-for-your-python"),
            )
        )
    if not DIRECTML_PYTHON[0] <= current <= DIRECTML_PYTHON[1]:
        found.append(
            note(
                "python",
                f"torch-directml has no wheel for Python {name} (3.8 to "
                "3.12); AMD's ROCm build has 3.11 to 3.14",
            )
        )
    return found


def environment_findings(
    venv: str, conda: str, folder: Path
) -> list[Finding]:
    """Whether this Python is a virtual environment, and the project's:
    one in the project folder (.venv) or in a folder above it.
    """
    if conda:
        return [ok("environment", f"a conda environment: {conda}")]
    if not venv:
        return [
            note(
                "environment",
                "not a virtual environment: packages go into this Python",
                "create one in the project folder "
                "(python -m venv .venv) and activate it",
                "setup/",
            )
        ]
    project = Path(venv).parent
    if project == folder or project in folder.parents:
        return [
            ok("environment", f"the project's virtual environment: {venv}")
        ]
    return [
        note(
            "environment",
            f"a virtual environment outside this folder: {venv}",
            "if this project has its own, activate it or run its python",
            "setup/",
        )
    ]


def installed(name: str) -> str | None:
    """The installed version of a distribution, or None."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def pip_findings(version: str | None) -> list[Finding]:
    if version is None:
        return [
            problem(
                "pip",
                "pip is not installed in this Python",
                "python -m ensurepip --upgrade",
            )
        ]
    return [ok("pip", version)]


# --- torch and its companions, read from the installed metadata ------


def build_of(version: str, system: str = platform.system()) -> str:
    """Which build a torch version string names: "+rocm..." ROCm, "+xpu"
    XPU, "+cu..." CUDA, "+cpu" CPU. PyPI's own wheels have no suffix:
    CUDA on Linux, CPU on Windows.
    """
    local = version.partition("+")[2].lower()
    if local.startswith("rocm"):
        return "ROCm"
    if local.startswith("xpu"):
        return "XPU"
    if local.startswith("cu"):
        return "CUDA"
    if local == "cpu" or system != "Linux":
        return "CPU"
    return "CUDA"


def base_version(version: str) -> tuple[int, ...]:
    numbers = re.match(r"(\d+)\.(\d+)", version)
    return tuple(int(n) for n in numbers.groups()) if numbers else ()


def leftovers(distributions: set[str]) -> str | None:
    """The GPU build whose companion packages are installed: AMD's ROCm
    wheels bring rocm-sdk-*, PyTorch XPU brings intel-sycl-rt.
    """
    if any(d.startswith(("rocm", "amd-torch")) for d in distributions):
        return "ROCm"
    if distributions & {"intel-sycl-rt", "pytorch-triton-xpu"}:
        return "XPU"
    return None


def torch_findings(
    torch_version: str | None,
    vision_version: str | None,
    directml_version: str | None,
    directml_needs: str | None,
    distributions: set[str],
    system: str = platform.system(),
) -> list[Finding]:
    if torch_version is None:
        return [
            problem(
                "torch",
                f"not installed in this Python ({sys.executable})",
                "follow the set-up page's tab for your GPU",
                "setup/",
            )
        ]
    build = build_of(torch_version, system)
    found = [ok("torch", f"{torch_version} ({build} build)")]
    companion = leftovers(distributions)
    if companion and build != companion:
        found.append(
            problem(
                "torch",
                f"{torch_version} is a {build} build, but {companion}'s "
                "packages are installed: a later pip install replaced "
                f"the {companion} build",
                f"install torch and torchvision again from the {companion} "
                "index in one command; never pip install torch alone",
                trouble("rocm-or-xpu-build-replaced-by-cpu"),
            )
        )
    found += vision_findings(torch_version, vision_version)
    if directml_version is not None:
        found += directml_findings(
            torch_version, directml_version, directml_needs
        )
    return found


def vision_findings(
    torch_version: str, vision: str | None
) -> list[Finding]:
    if vision is None:
        return [note("torchvision", "not installed")]
    # torchvision 0.(N+15) goes with torch 2.N.
    major, minor = base_version(torch_version)[:2] or (0, 0)
    expected = (0, minor + 15) if major == 2 else base_version(vision)
    torch_local = torch_version.partition("+")[2]
    vision_local = vision.partition("+")[2]
    if base_version(vision) == expected and torch_local == vision_local:
        return [ok("torchvision", f"{vision}, matches torch")]
    return [
        problem(
            "torchvision",
            f"{vision} does not match torch {torch_version} (expected "
            f"0.{expected[1]}.x from the same index)",
            "install torch and torchvision again in one pip command "
            "from the same index",
            trouble("another-package-replaced-torch"),
        )
    ]


def directml_findings(
    torch_version: str, directml: str, needs: str | None
) -> list[Finding]:
    if needs and torch_version.partition("+")[0] != needs:
        fix = "python -m pip install --force-reinstall torch-directml"
        if re.search(r"\+(rocm|xpu|cu)", torch_version):
            # AMD's, Intel's or a CUDA torch: reinstalling torch-directml
            # would replace it with torch-directml's torch.
            fix = (
                "a ROCm, XPU or CUDA torch: keep it, remove torch-directml "
                "(python -m pip uninstall torch-directml)"
            )
        return [
            problem(
                "torch-directml",
                f"{directml} is built for torch {needs}, but torch "
                f"{torch_version} is installed",
                fix,
                trouble("another-package-replaced-torch"),
            )
        ]
    return [ok("torch-directml", f"{directml} (needs torch {needs})")]


def directml_needs(requirements: list[str] | None) -> str | None:
    """The torch version torch-directml pins ("torch==2.4.1")."""
    for requirement in requirements or []:
        pinned = re.match(r"torch\s*\(?==\s*([\w.]+)", requirement)
        if pinned:
            return pinned.group(1)
    return None


# --- import torch and the devices each back-end sees -----------------


def probe_torch() -> dict:
    """Import torch and list every device each back-end sees. Runs in a
    child process (see run_probe), so a crash cannot stop the doctor.
    """
    report = {"imported": False, "error": "", "devices": [], "notes": []}
    try:
        import torch
    except Exception as error:  # noqa: BLE001 - the doctor reports any
        report["error"] = f"{type(error).__name__}: {error}"
        return report
    report.update(
        imported=True,
        version=torch.__version__,
        cuda=torch.version.cuda,
        hip=torch.version.hip,
        xpu=getattr(torch.version, "xpu", None),
    )
    for lister in (cuda_devices, xpu_devices, directml_devices):
        try:
            report["devices"] += lister(torch)
        except Exception as error:  # noqa: BLE001
            report["notes"].append(f"{lister.__name__}: {error}")
    return report


def cuda_devices(torch) -> list[dict]:
    if not torch.cuda.is_available():
        return []
    backend = "ROCm" if torch.version.hip else "CUDA"
    devices = []
    for index in range(torch.cuda.device_count()):
        properties = torch.cuda.get_device_properties(index)
        integrated = getattr(properties, "is_integrated", None)
        devices.append(
            {
                "backend": backend,
                "device": f"cuda:{index}",
                "name": properties.name,
                "memory_gb": round(properties.total_memory / 2**30, 1),
                "integrated": None
                if integrated is None
                else bool(integrated),
                # ROCm's gfx target: gfx1100, or gfx90a:sramecc+:xnack-
                "arch": getattr(properties, "gcnArchName", None)
                if backend == "ROCm"
                else None,
            }
        )
    return devices


def xpu_devices(torch) -> list[dict]:
    xpu = getattr(torch, "xpu", None)
    if xpu is None or not xpu.is_available():
        return []
    devices = []
    for index in range(xpu.device_count()):
        properties = xpu.get_device_properties(index)
        devices.append(
            {
                "backend": "XPU",
                "device": f"xpu:{index}",
                "name": properties.name,
                "memory_gb": round(properties.total_memory / 2**30, 1),
                "integrated": None,
            }
        )
    return devices


def directml_devices(torch) -> list[dict]:
    try:
        import torch_directml
    except ModuleNotFoundError:
        return []
    # DirectML reports no memory size.
    return [
        {
            "backend": "DirectML",
            "device": f"privateuseone:{index}",
            "name": torch_directml.device_name(index),
            "memory_gb": None,
            "integrated": None,
        }
        for index in range(torch_directml.device_count())
    ]


def start_probe() -> subprocess.Popen:
    """Start probe_torch() in a child Python: PyTorch XPU has crashed the
    interpreter in torch.xpu.is_available() (pytorch/pytorch#157775).
    import torch takes seconds: the doctor reads the packages meanwhile.
    """
    command = [sys.executable, str(Path(__file__).resolve()), "--probe"]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )


def probe_result(child: subprocess.Popen, timeout: float = 600) -> dict:
    """What the started probe found, once it has finished."""
    try:
        stdout, stderr = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        error = f"import torch did not finish in {timeout:.0f} s"
        return {"imported": False, "error": error, "devices": []}
    lines = stdout.strip().splitlines()
    if child.returncode == 0 and lines:
        return json.loads(lines[-1])
    status = child.returncode % 2**32  # Windows: 3221225477 = 0xC0000005
    last = (stderr.strip().splitlines() or [""])[-1]
    error = (
        f"the Python that imported torch crashed (exit {status:#x}) {last}"
    )
    return {"imported": False, "error": error.strip(), "devices": []}


def run_probe(timeout: float = 600) -> dict:
    """probe_torch() in a child Python, waited for."""
    return probe_result(start_probe(), timeout)


# What a failing import says, its cause and fix: (pattern, topic text,
# fix, anchor). The first that matches wins.
LOADER_ERRORS = [
    (
        r"WinError 4551|Application Control policy has blocked",
        "Windows' Smart App Control (or an App Control policy) blocked "
        "one of PyTorch's DLLs",
        "turn Smart App Control off (Windows Security, App & browser "
        "control), then import torch again",
        "winerror-4551-smart-app-control",
    ),
    (
        r"c10_xpu\.dll",
        "PyTorch XPU's c10_xpu.dll does not load: a broken or mixed XPU "
        "install (fixed in newer builds, pytorch#138986)",
        "reinstall torch from PyTorch's XPU index (torch, torchvision and "
        "the intel-* packages of one release); if it still fails, install "
        "Intel's current GPU driver",
        "xpu-not-available",
    ),
    (
        r"WinError (126|1114)\b",
        "a DLL of torch does not load: the Microsoft Visual C++ runtime "
        "is missing or old",
        "install the current Visual C++ Redistributable (x64) from "
        "https://aka.ms/vc14/vc_redist.x64.exe, then open a new terminal",
        "winerror-126-or-1114-c10dll",
    ),
    (
        r"torch_directml_native|undefined symbol",
        "torch's libraries do not match a package built for another torch",
        "python -m pip install --force-reinstall torch-directml (or "
        "reinstall your torch build), then python -m pip check",
        "another-package-replaced-torch",
    ),
    (
        r"WinError 127\b|procedure could not be found",
        "DLLs of two different torch builds meet (old files in torch\\lib, "
        "or a package built for another torch)",
        "with torch-directml: python -m pip install --force-reinstall "
        "torch-directml; without it: uninstall torch, torchvision and "
        "torchaudio, then install them again in one command from one index",
        "winerror-127",
    ),
    (
        r"WinError 193\b",
        "Windows cannot load a DLL: 32-bit, broken, or another Python's "
        "file found first on PATH",
        "use a 64-bit Python, create a new virtual environment and install "
        "torch again into it",
        "winerror-193",
    ),
    (
        r"No module named 'torch'",
        "torch is not installed in this Python",
        "follow the set-up page's tab for your GPU",
        "",
    ),
]


# Files of two builds: with a ROCm, XPU or CUDA torch, fix that build.
MISMATCH_ANCHORS = ("another-package-replaced-torch", "winerror-127")


def import_findings(probe: dict, torch_version: str = "") -> list[Finding]:
    if probe.get("imported"):
        return [ok("import torch", f"works ({probe.get('version')})")]
    error = probe.get("error", "")
    first = error.splitlines()[0] if error else "no message"
    for pattern, cause, fix, anchor in LOADER_ERRORS:
        if re.search(pattern, error, re.IGNORECASE):
            build = re.search(r"\+(rocm|xpu|cu)", torch_version)
            if build and anchor in MISMATCH_ANCHORS:
                # AMD's, Intel's or a CUDA torch: torch-directml's fix
                # would replace it with torch-directml's torch.
                fix = (
                    f"reinstall your torch build ({torch_version}) as the "
                    "set-up page's tab for your GPU says, then python -m "
                    "pip check; do not install torch-directml here"
                )
                if anchor == "another-package-replaced-torch":
                    anchor = (
                        ""
                        if build[1] == "cu"
                        else "rocm-or-xpu-build-replaced-by-cpu"
                    )
            section = trouble(anchor) if anchor else "setup/"
            return [
                problem("import torch", f"{cause} ({first})", fix, section)
            ]
    return [
        problem(
            "import torch",
            f"fails: {first}",
            "create a new virtual environment and install torch again; "
            "if it persists, report it with this doctor's --json report",
            trouble("where-to-report-a-bug"),
        )
    ]


def is_integrated(device: dict) -> bool:
    if device.get("integrated") is not None:
        return bool(device["integrated"])
    return bool(INTEGRATED_NAME.search(device["name"]))


def chooser_link(name: str) -> str:
    return CHOOSER + quote(name, safe="")


def device_line(device: dict, with_link: bool) -> Finding:
    words = [device["name"]]
    if device.get("memory_gb") is not None:
        words.append(f"{device['memory_gb']:.1f} GB")
    if is_integrated(device):
        words.append("integrated")
    text = f"{device['device']} ({device['backend']}): {', '.join(words)}"
    if with_link:
        text += f"; chooser: {chooser_link(device['name'])}"
    return ok("device", text)


def device_findings(
    probe: dict,
    env: dict,
    on_windows: bool,
    gpus: list[dict] = (),
    distributions: set[str] = frozenset(),
) -> list[Finding]:
    """Every device torch sees; gpus: machine_gpus(), the PC's own."""
    if not probe.get("imported"):
        return []
    devices = probe.get("devices", [])
    found = [device_line(d, with_link=not on_windows) for d in devices]
    for backend in ("ROCm", "CUDA", "DirectML", "XPU"):
        found += order_findings(
            [d for d in devices if d["backend"] == backend]
        )
    found += no_device_findings(probe, devices, env, gpus, distributions)
    return found


def order_findings(devices: list[dict]) -> list[Finding]:
    """An integrated GPU listed before a discrete one (ROCm/TheRock#3392:
    a Ryzen's iGPU as cuda:0 and the Radeon as cuda:1).
    """
    kinds = [is_integrated(d) for d in devices]
    if not kinds or not kinds[0] or all(kinds):
        return []
    first, discrete = devices[0], devices[kinds.index(False)]
    backend = first["backend"]
    if backend == "DirectML":
        return [
            note(
                "device order",
                f"DirectML's adapter 0 is the integrated {first['name']}",
                "pick the adapter by name (pick_adapter.py) or by index",
                trouble("directml-uses-the-integrated-gpu"),
            )
        ]
    position = discrete["device"].partition(":")[2]
    if backend == "XPU":
        return [xpu_order_note(first, discrete, position)]
    hide = (
        "HIP_VISIBLE_DEVICES"
        if backend == "ROCm"
        else "CUDA_VISIBLE_DEVICES"
    )
    error = " (hipErrorInvalidImage)" if backend == "ROCm" else ""
    return [
        note(
            "device order",
            f"{backend} lists the integrated {first['name']} as "
            f"{first['device']} before {discrete['name']} as "
            f"{discrete['device']}; the guide's choose_device() takes "
            f"{discrete['device']}",
            f"if {discrete['device']} fails{error}, hide "
            f"the integrated GPU: {hide}={position}",
            trouble("rocm-integrated-gpu-first"),
        )
    ]


def xpu_order_note(first: dict, discrete: dict, position: str) -> Finding:
    """choose_device() takes xpu:0 whatever it is; oneAPI's own variables
    (not CUDA's) hide a Level Zero device: ONEAPI_DEVICE_SELECTOR (the
    SYCL runtime) or ZE_AFFINITY_MASK (the Level Zero loader).
    """
    return note(
        "device order",
        f"XPU lists the integrated {first['name']} as {first['device']} "
        f"before {discrete['name']} as {discrete['device']}; the guide's "
        f"choose_device() takes xpu:0, the integrated one",
        f"to train on {discrete['name']}, set TORCH_DEVICE=xpu:{position}, "
        f"or hide the integrated GPU: ONEAPI_DEVICE_SELECTOR="
        f"level_zero:{position} (or ZE_AFFINITY_MASK={position}), then run "
        "the doctor again to see the new order",
        trouble("amd-rocm-and-intel-xpu-on-windows"),
    )


def no_device_findings(
    probe: dict,
    devices: list[dict],
    env: dict,
    gpus: list[dict] = (),
    distributions: set[str] = frozenset(),
) -> list[Finding]:
    """A GPU build that sees no GPU, or a ROCm build for another target:
    one line for one cause.
    """
    build = (
        "ROCm" if probe.get("hip") else "CUDA" if probe.get("cuda") else ""
    )
    build = "XPU" if probe.get("xpu") else build
    if not build:
        return []
    seen = [d for d in devices if d["backend"] == build]
    wrong = []
    if build == "ROCm":
        wrong = target_findings(seen, gpus, distributions)
    masks = [v for v in VISIBILITY_VARS if v in env]
    if seen or (build in ("ROCm", "CUDA") and masks):
        return wrong  # visibility_findings names the variable
    unusable = backend_findings(probe, build, gpus)
    if unusable or wrong:
        return unusable or wrong
    if build == "CUDA":
        return [cuda_findings(probe, gpus)]
    anchor = (
        "xpu-not-available" if build == "XPU" else "where-to-report-a-bug"
    )
    fix = (
        "install Intel's current GPU driver and reboot"
        if build == "XPU"
        else "install AMD's current Adrenalin driver and reboot; check that"
        " the wheel's [device-...] matches your GPU (setup page)"
    )
    return [
        problem(
            "device",
            f"torch {probe.get('version')} is the {build} build "
            "but it sees no GPU",
            fix,
            trouble(anchor),
        )
    ]


def cuda_findings(probe: dict, gpus: list[dict]) -> Finding:
    """A CUDA build that sees no GPU: a problem where the PC has an
    NVIDIA GPU (switched off, driverless, or a hybrid laptop's), fine on
    a PC without one (PyPI's Linux torch is a CUDA build).
    """
    nvidia = [
        g["name"] or (g["row"] or {}).get("name") or "an NVIDIA GPU"
        for g in gpus
        if "NVIDIA" in g["name"].upper() or (g["ids"] or ("",))[0] == "10de"
    ]
    if not nvidia:
        return note(
            "device",
            "this CUDA build of torch sees no NVIDIA GPU: fine for "
            "the CPU; an AMD or Intel GPU needs another build",
            section="setup/",
        )
    return problem(
        "device",
        f"torch {probe.get('version')} is a CUDA build, but it sees no "
        f"NVIDIA GPU while this PC has {nvidia[0]}: it trains on the CPU",
        "on a laptop, switch it out of its integrated-only mode (Eco, "
        "MUX: the maker's app or the BIOS); install NVIDIA's current "
        "driver and reboot. nvidia-smi lists the GPU once Windows sees "
        "it; python choose_device.py names the GPU torch got",
        trouble("hybrid-laptop"),
    )


def backend_findings(
    probe: dict, build: str, gpus: list[dict]
) -> list[Finding]:
    """A build that no GPU of this PC can use (Intel's XPU on a Radeon),
    where the device table knows every GPU.
    """
    row = gpu_identity and gpu_identity.unusable(build, gpus)
    if not row:
        return []
    return [
        problem(
            "device",
            f"torch {probe.get('version')} is the {build} build, which "
            f"this PC's {row['name']} ({row['target'] or row['vendor']}) "
            f"cannot use: it takes {gpu_identity.backends(row)}",
            "install the build the chooser names for it: "
            + chooser_link(row["name"]),
            "choose/",
        )
    ]


def target_findings(
    seen: list[dict], gpus: list[dict], distributions: set[str]
) -> list[Finding]:
    """AMD's packages built for another gfx target than the GPU's: the
    discrete GPU torch sees, else the device table's.
    """
    arches = [
        (d["name"], d.get("arch")) for d in sorted(seen, key=is_integrated)
    ]
    wrong = gpu_identity and gpu_identity.missing_target(
        arches, gpus, distributions
    )
    if not wrong:
        return []
    name, target, targets = wrong
    return [
        problem(
            "rocm target",
            f"torch's AMD packages hold GPU code for {targets}, not for "
            f"{name} ({target})",
            f"install torch and torchvision again with [device-{target}] "
            "in both brackets, as the chooser's command for it does",
            trouble("no-kernel-image"),
        )
    ]


# --- environment variables, console and paths -------------------------


def visibility_findings(env: dict, probe: dict) -> list[Finding]:
    found = []
    gpu_build = probe.get("hip") or probe.get("cuda")
    seen = [
        d for d in probe.get("devices", []) if d["device"][:4] == "cuda"
    ]
    for name in VISIBILITY_VARS:
        if name not in env:
            found.append(ok(name, "not set"))
        elif gpu_build and probe.get("imported") and not seen:
            found.append(
                problem(
                    name,
                    f"set to {env[name]!r}, and torch sees no GPU",
                    f"remove it (PowerShell: Remove-Item Env:{name}; cmd: "
                    f"set {name}=) or give the index of your GPU",
                    trouble("rocm-integrated-gpu-first"),
                )
            )
        else:
            found.append(
                note(
                    name,
                    f"set to {env[name]!r}: only these GPUs, from 0",
                )
            )
    return found + torch_device_findings(env.get(DEVICE_VAR), probe)


def torch_device_findings(value: str | None, probe: dict) -> list[Finding]:
    if value is None or not value.strip():
        return [ok(DEVICE_VAR, "not set: the scripts choose a device")]
    kind, _, index = value.strip().lower().partition(":")
    section = "verification/#choose-the-device-in-your-own-scripts"
    if kind not in {"dml", "xpu", "cuda", "cpu"} or (
        index and not index.isdigit()
    ):
        return [
            problem(
                DEVICE_VAR,
                f"{value!r} is not a device the guide's scripts know",
                "use dml[:N], xpu[:N], cuda[:N] or cpu, or remove it",
                section,
            )
        ]
    wanted = {"dml": "privateuseone", "xpu": "xpu", "cuda": "cuda"}
    devices = [d["device"] for d in probe.get("devices", [])]
    target = f"{wanted.get(kind, kind)}:{index or 0}"
    if kind != "cpu" and probe.get("imported") and target not in devices:
        return [
            problem(
                DEVICE_VAR,
                f"{value!r} asks for {target}, which torch does not see",
                "remove it or use one of the devices listed above",
                section,
            )
        ]
    return [note(DEVICE_VAR, f"{value!r}: the scripts use it")]


def console_findings(
    encoding: str | None, folder: str, home: str
) -> list[Finding]:
    found = [ok("console", f"encoding {encoding}; the scripts print ASCII")]
    for what, path in (("project folder", folder), ("user folder", home)):
        if not path.isascii():
            found.append(
                note(
                    what,
                    f"the path {path} has non-ASCII characters",
                    "if a tool fails to find a file there, use a folder "
                    "whose path is ASCII only, such as C:\\dev\\project",
                )
            )
    if len(folder) > 200:
        found.append(
            note(
                "project folder",
                f"its path is {len(folder)} characters long: files below "
                "it can pass Windows' 260-character limit",
                "use a shorter folder, such as C:\\dev\\project",
            )
        )
    return found


# --- Windows -----------------------------------------------------------


def registry_value(key: str, name: str, winreg=None):
    """A value under HKEY_LOCAL_MACHINE, or None. Only reads."""
    if winreg is None:
        import winreg
    try:
        with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, key) as handle:
            return winreg.QueryValueEx(handle, name)[0]
    except OSError:
        return None


def windows_adapters(winreg=None) -> list[dict]:
    """Display adapters as Windows names them, with their drivers,
    memory and hardware IDs ("PCI\\VEN_1002&DEV_73BF&...").
    """
    if winreg is None:
        import winreg
    ids = gpu_identity.windows_ids(winreg) if gpu_identity else {}
    adapters = []
    for index in range(32):
        key = rf"{DISPLAY_CLASS}\{index:04d}"
        name = registry_value(key, "DriverDesc", winreg)
        if name is None:
            continue
        adapters.append(
            {
                "name": str(name),
                "driver": registry_value(key, "DriverVersion", winreg),
                "memory": registry_value(
                    key, "HardwareInformation.qwMemorySize", winreg
                ),
                # The driver's own match where Enum\PCI is not readable
                "pci": ids.get(f"{index:04d}")
                or registry_value(key, "MatchingDeviceId", winreg),
            }
        )
    return adapters


def machine_gpus(on_windows: bool, winreg=None) -> tuple[list[dict], str]:
    """This PC's GPUs, each with its PCI IDs ("ids": vendor, device,
    revision) and the device table's row ("row", None where it has
    none), and why the table cannot be read ("" when it can).
    """
    adapters = windows_adapters(winreg) if on_windows else None
    if gpu_identity is None:
        gpus = [{**a, "ids": None, "row": None} for a in adapters or []]
        return gpus, "gpu_identity.py is not beside doctor.py"
    devices, why = gpu_identity.load_table()
    return gpu_identity.machine(adapters, devices), why


def gpu_findings(
    gpus: list[dict], why: str, on_windows: bool
) -> list[Finding]:
    """The device table's absence, and Linux's GPUs (Windows' adapters
    are in windows_findings).
    """
    found = []
    if why:
        found.append(
            note(
                "device table",
                f"{why}: GPUs are named without it",
                "save gpu_identity.py and gpu_devices.json from the "
                "guide's zip beside doctor.py",
                "verification/#start-with-the-doctor",
            )
        )
    if not on_windows:
        found += [
            ok("gpu", gpu_identity.describe(g["ids"], g["row"]))
            for g in gpus
        ]
    return found


def windows_findings(
    build: int, winreg=None, gpus: list[dict] | None = None
) -> list[Finding]:
    found = []
    if build >= 22000:
        found.append(ok("windows", f"Windows 11 (build {build})"))
    else:
        found.append(
            note(
                "windows",
                f"Windows 10 (build {build}): AMD's ROCm build and PyTorch"
                " XPU need Windows 11; DirectML works here",
            )
        )
    found += smart_app_control_findings(
        registry_value(
            r"SYSTEM\CurrentControlSet\Control\CI\Policy",
            "VerifiedAndReputablePolicyState",
            winreg,
        )
    )
    found += runtime_findings(
        registry_value(
            r"SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64",
            "Version",
            winreg,
        ),
        Path(os.environ.get("SystemRoot", r"C:\Windows"), "System32"),
    )
    long_paths = registry_value(
        r"SYSTEM\CurrentControlSet\Control\FileSystem",
        "LongPathsEnabled",
        winreg,
    )
    if long_paths == 1:
        found.append(ok("long paths", "enabled"))
    else:
        found.append(
            note(
                "long paths",
                "off: a path longer than 260 characters fails",
                "keep the project in a short folder (C:\\dev\\project)",
            )
        )
    if gpus is None:
        gpus = machine_gpus(True, winreg)[0]
    for adapter in gpus:
        memory = adapter["memory"]
        words = [adapter["name"]]
        if memory:
            words[0] += f", {memory / 2**30:.1f} GB"
        if adapter["ids"]:
            words.append(
                gpu_identity.describe(adapter["ids"], adapter["row"])
            )
        words.append(f"chooser: {chooser_link(adapter['name'])}")
        found.append(ok("windows GPU", "; ".join(words)))
    return found


def smart_app_control_findings(state) -> list[Finding]:
    # VerifiedAndReputablePolicyState: 0 off, 1 on, 2 evaluation.
    if state in (None, 0):
        return [ok("smart app control", "off" if state == 0 else "absent")]
    mode = "on" if state == 1 else "in evaluation mode"
    return [
        note(
            "smart app control",
            f"{mode}: it can block unsigned DLLs such as ROCm's",
            "if import torch fails with WinError 4551, turn it off",
            trouble("winerror-4551-smart-app-control"),
        )
    ]


def runtime_findings(version, system32: Path) -> list[Finding]:
    if version:
        return [ok("visual c++ runtime", f"{version} (x64)")]
    if (system32 / "vcruntime140_1.dll").exists():
        return [ok("visual c++ runtime", f"in {system32}")]
    return [
        problem(
            "visual c++ runtime",
            "the Microsoft Visual C++ runtime (x64) is not installed",
            "install vc_redist.x64.exe from "
            "https://aka.ms/vc14/vc_redist.x64.exe",
            trouble("winerror-126-or-1114-c10dll"),
        )
    ]


# --- putting it together ------------------------------------------------


def examine(probe: Callable[[], dict], env: dict) -> list[Finding]:
    """Every finding. probe() gives the child's report (probe_result):
    it is asked for after the packages are read, while torch imports.
    """
    distributions = {
        (d.metadata["Name"] or "").lower() for d in metadata.distributions()
    }
    venv = sys.prefix if sys.prefix != sys.base_prefix else ""
    found = python_findings() + environment_findings(
        venv, os.environ.get("CONDA_PREFIX", ""), Path.cwd()
    )
    found += pip_findings(installed("pip"))
    torch_version = installed("torch")
    found += torch_findings(
        torch_version,
        installed("torchvision"),
        installed("torch-directml"),
        directml_needs(
            metadata.requires("torch-directml")
            if installed("torch-directml")
            else None
        ),
        distributions,
    )
    probe = probe()
    found += import_findings(probe, torch_version or "")
    on_windows = platform.system() == "Windows"
    gpus, why = machine_gpus(on_windows)
    found += device_findings(probe, env, on_windows, gpus, distributions)
    found += visibility_findings(env, probe)
    found += console_findings(
        sys.stdout.encoding, str(Path.cwd()), str(Path.home())
    )
    found += gpu_findings(gpus, why, on_windows)
    if on_windows:
        build = sys.getwindowsversion().build
        found += windows_findings(build, gpus=gpus)
    return found


def diagnose() -> list[Finding]:
    """Every finding about this machine, torch imported in a child."""
    child = start_probe()  # import torch, while examine() reads packages
    return examine(lambda: probe_result(child), dict(os.environ))


def private_names(env: dict) -> list[str]:
    """The user's and the machine's names, as they can appear in paths."""
    names = {env.get(v, "") for v in ("USERNAME", "USER", "LOGNAME")}
    names |= {env.get(v, "") for v in ("COMPUTERNAME", "HOSTNAME")}
    names |= {Path.home().name, platform.node(), socket.gethostname()}
    try:
        names.add(getpass.getuser())
    except (OSError, KeyError):
        pass
    names |= {name.split(".")[0] for name in names}
    return sorted((n for n in names if n.strip()), key=len, reverse=True)


def redact(text: str, names: list[str]) -> str:
    """Replace each name, in any case, with *** where it stands as a
    word of its own (never inside a longer word: a user "li" keeps
    "Linux"), and its 8.3 short form (ZHANGS~1 for zhangsan).
    """
    for name in names:
        cases = {name, name.upper(), name.lower(), name.casefold()}
        forms = [re.escape(form) for form in sorted(cases, key=len)[::-1]]
        short = re.sub(r"[^A-Za-z0-9]", "", name)[:6]
        if len(short) > 1:  # Windows' 8.3 name of a folder
            forms.append(re.escape(short) + r"~[0-9]+")
        word = "|".join(forms)
        pattern = rf"(?<![A-Za-z0-9])(?:{word})(?![A-Za-z0-9])"
        text = re.sub(pattern, "***", text, flags=re.IGNORECASE)
    return text


def report(findings: list[Finding], names: list[str]) -> str:
    entries = [
        {key: redact(value, names) for key, value in asdict(f).items()}
        for f in findings
    ]
    problems = sum(f.status == "PROBLEM" for f in findings)
    return json.dumps({"problems": problems, "findings": entries}, indent=1)


def main(argv: list[str] | None = None) -> int:
    parser = script_guard.ArgumentParser(
        description="Look at this machine and name what to fix before "
        "training PyTorch on its GPU."
    )
    parser.add_argument(
        "--json",
        metavar="FILE",
        type=Path,
        help="also write the findings to FILE, user and host names removed",
    )
    parser.add_argument(
        "--probe", action="store_true", help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.probe:  # the child process of run_probe()
        print(json.dumps(probe_torch()))
        return 0

    # before the probe's seconds: a folder, read-only, no such folder...
    if args.json and (problem := script_guard.cannot_write(args.json)):
        print(
            f"error: cannot write {args.json} ({problem})", file=sys.stderr
        )
        return 1
    findings = diagnose()
    for finding in findings:
        print(finding.line())
    if args.json:
        names = private_names(dict(os.environ))
        try:
            args.json.write_text(report(findings, names), encoding="utf-8")
        except OSError as error:
            print(
                f"error: cannot write {args.json}: {error}", file=sys.stderr
            )
            return 1
        print(
            f"report written to {args.json} (user and host names removed)"
        )
    problems = sum(f.status == "PROBLEM" for f in findings)
    if problems:
        print(
            f"error: {problems} problem(s) found: fix the first PROBLEM "
            "line above, then run the doctor again",
            file=sys.stderr,
        )
        return 1
    print("OK: the doctor found no problem")
    return 0


if __name__ == "__main__":
    script_guard.run(main)
