"""Which GPUs this PC has, by their PCI IDs, named from the guide's
device table (gpu_devices.json, beside this file): the chip's name, its
group, its target (gfx1100 for AMD's ROCm) and the back-ends that use
it. doctor.py and report.py use it; it installs and changes nothing.

Windows gives each display adapter's ID in the registry, Linux in
/sys/class/drm. Vendor IDs: 1002 AMD, 10de NVIDIA, 8086 Intel.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

TABLE = Path(__file__).resolve().with_name("gpu_devices.json")
# The table's back-ends, as the guide names them.
BACKENDS = {
    "rocm": "ROCm",
    "cuda": "CUDA",
    "xpu": "XPU",
    "directml": "DirectML",
}
# "PCI\VEN_1002&DEV_73BF&SUBSYS_0E3A1002&REV_C1", as Windows writes a
# device's hardware ID, or "pci\ven_1002&dev_73bf" (any case).
HARDWARE_ID = re.compile(
    r"VEN_([0-9A-F]{4})&DEV_([0-9A-F]{4})(?:&SUBSYS_[0-9A-F]{8})?"
    r"(?:&REV_([0-9A-F]{2}))?",
    re.IGNORECASE,
)
# What each row of the table holds, and what its text fields may be.
ROW = {
    "rev": str | None,
    "name": str,
    "vendor": str,
    "group": str | None,
    "target": str | None,
    "kind": str | None,
    "backends": list,
}
DISPLAY_GUID = "{4d36e968-e325-11ce-bfc1-08002be10318}"
PCI_ENUM = r"SYSTEM\CurrentControlSet\Enum\PCI"
# A wheel's own target in AMD's package names: amd-torch-device-gfx1100,
# amd-torchvision-device-gfx1100 and rocm-sdk-device-gfx1100 (TheRock's
# multi-arch wheels, which torch[device-gfx1100] installs, on Windows
# too), rocm-sdk-libraries-gfx110X-dgpu (its older per-family wheels).
# gfx11, gfx110x and gfx12-0 name families.
WHEEL_TARGET = re.compile(
    r"^(?:amd-torch-device|amd-torchvision-device|rocm-sdk-device"
    r"|rocm-sdk-libraries)"
    r"-(gfx[0-9a-f]{3,4}|gfx[0-9]{2,3}x)(?:-|$)"
)


def pci_id(text: str | None) -> tuple[str, str, str | None] | None:
    """(vendor, device, revision or None), lowercase hex, from a
    Windows hardware ID; None if the text holds none.
    """
    found = HARDWARE_ID.search(text or "")
    if found is None:
        return None
    vendor, device, revision = found.groups()
    return vendor.lower(), device.lower(), revision and revision.lower()


def load_table(path: Path | None = None) -> tuple[dict, str]:
    """The table's devices ({"1002:73bf": [row, ...]}) and "", or {}
    and one line that says why it cannot be read.
    """
    path = path or TABLE
    try:
        devices = json.loads(path.read_text(encoding="utf-8"))["devices"]
        for key, rows in devices.items():
            if not re.fullmatch(r"[0-9a-f]{4}:[0-9a-f]{4}", key):
                raise ValueError(f"a key {key!r}")
            for row in rows:
                for field, kind in ROW.items():
                    if not isinstance(row[field], kind):
                        raise ValueError(f"{key}'s {field} {row[field]!r}")
    except FileNotFoundError:
        return {}, f"{path.name} is not beside {Path(__file__).name}"
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return {}, f"{path.name} is damaged ({type(e).__name__}: {e})"
    return devices, ""


def identify(ids, devices: dict) -> dict | None:
    """The table's row for (vendor, device, revision): the row of that
    revision, else the one for any revision, else, where the rows agree
    on group and target, their names joined by "or".
    """
    if ids is None:
        return None
    vendor, device, revision = ids
    rows = devices.get(f"{vendor}:{device}", [])
    for row in rows:
        if revision and row.get("rev") == revision:
            return row
    for row in rows:
        if row.get("rev") is None:
            return row
    if len({(row.get("group"), row.get("target")) for row in rows}) == 1:
        names = " or ".join(dict.fromkeys(row["name"] for row in rows))
        return {**rows[0], "name": names, "rev": None}
    return None


def describe(ids, row: dict | None) -> str:
    """One line's words: "PCI 1002:73bf rev c1: AMD Radeon RX 6800 XT,
    rdna2, gfx1030".
    """
    vendor, device, revision = ids
    words = f"PCI {vendor}:{device}"
    words += f" rev {revision}" if revision else ""
    if row is None:
        return f"{words}: not in the guide's device table"
    facts = [row["name"], row.get("group"), row.get("target")]
    return f"{words}: " + ", ".join(str(f) for f in facts if f)


def windows_ids(winreg) -> dict[str, str]:
    """{the display adapter's key under the display class ("0001"): its
    hardware ID}: each PCI device under Enum\\PCI names its driver's key
    in its value Driver ("{4d36e968-...}\\0001").
    """
    found = {}
    root = winreg.HKEY_LOCAL_MACHINE
    try:
        with winreg.OpenKey(root, PCI_ENUM) as pci:
            devices = list(subkeys(winreg, pci))
    except OSError:
        return found  # the class key's MatchingDeviceId serves instead
    for device in devices:
        try:
            with winreg.OpenKey(root, rf"{PCI_ENUM}\{device}") as key:
                instances = list(subkeys(winreg, key))
            for instance in instances:
                path = rf"{PCI_ENUM}\{device}\{instance}"
                with winreg.OpenKey(root, path) as key:
                    driver = str(winreg.QueryValueEx(key, "Driver")[0])
                guid, _, index = driver.lower().partition("\\")
                if guid == DISPLAY_GUID:
                    found[index] = device
        except OSError:
            continue  # a device without a driver has no Driver value
    return found


def subkeys(winreg, key):
    index = 0
    while True:
        try:
            yield winreg.EnumKey(key, index)
        except OSError:
            return
        index += 1


def machine(adapters: list[dict] | None, devices: dict) -> list[dict]:
    """Each GPU with its PCI IDs ("ids") and its row of the table ("row",
    None where it has none): Windows' adapters (their hardware IDs in
    "pci"), or Linux's DRM cards where adapters is None.
    """
    if adapters is None:
        adapters = [
            {"name": "", "driver": None, "memory": None, "ids": ids}
            for ids in linux_ids()
        ]
    for gpu in adapters:
        gpu.setdefault("ids", pci_id(gpu.get("pci")))
        gpu["row"] = identify(gpu["ids"], devices)
    return adapters


def discrete_first(rows: list[dict]) -> list[dict]:
    """Dedicated and laptop ("mobile") GPUs before integrated ones."""
    return sorted(rows, key=lambda row: row.get("kind") == "integrated")


def backends(row: dict) -> str:
    return (
        " or ".join(BACKENDS.get(b, b) for b in row["backends"]) or "none"
    )


def unusable(build: str, gpus: list[dict]) -> dict | None:
    """The row of this PC's GPU (a discrete one first) where the table
    names back-ends for every GPU and none of them takes this build.
    """
    rows = [
        gpu["row"] for gpu in gpus if gpu["row"] and gpu["row"]["backends"]
    ]
    if not rows or len(rows) < len(gpus):
        return None
    if any(build.lower() in row["backends"] for row in rows):
        return None
    return discrete_first(rows)[0]


def missing_target(arches, gpus: list[dict], distributions: set[str]):
    """(the GPU's name, its gfx target, the packages' targets) where AMD's
    installed packages name targets and not the GPU's, else None. The GPU:
    the first of arches, (name, gcnArchName) of the GPUs torch sees, else
    the table's AMD GPU (a discrete one first).
    """
    targets = wheel_targets(distributions)
    wanted = [
        (name, arch.partition(":")[0]) for name, arch in arches if arch
    ]
    if not arches:
        amd = [g["row"] for g in gpus if g["row"]]
        amd = [row for row in discrete_first(amd) if row["vendor"] == "amd"]
        wanted = [
            (row["name"], row["target"]) for row in amd if row["target"]
        ]
    if not targets or not wanted or covers(targets, wanted[0][1]):
        return None
    return (*wanted[0], ", ".join(sorted(targets)))


def linux_ids(root: Path = Path("/sys/class/drm")) -> list[tuple]:
    """(vendor, device, revision) of each GPU that Linux's DRM lists
    (card0, card1: their device/vendor, device/device, device/revision
    files hold "0x1002").
    """
    found = []
    for card in sorted(root.glob("card[0-9]*")):
        if not re.fullmatch(r"card\d+", card.name):
            continue  # card0-DP-1 and the like: a connector
        try:
            values = [
                (card / "device" / name).read_text().strip().lower()
                for name in ("vendor", "device", "revision")
            ]
        except OSError:
            continue
        vendor, device, revision = (v.removeprefix("0x") for v in values)
        found.append((vendor, device, revision[-2:] or None))
    return found


def wheel_targets(distributions: set[str]) -> set[str]:
    """The gfx targets (or families, gfx110x) that the installed AMD
    packages carry GPU code for.
    """
    names = {re.sub(r"[-_.]+", "-", d).lower() for d in distributions}
    return {
        found.group(1)
        for found in map(WHEEL_TARGET.match, names)
        if found is not None
    }


def covers(targets: set[str], target: str) -> bool:
    """Whether packages for these targets hold code for the GPU's target:
    its own, or its family's (gfx110x covers gfx1100 to gfx110f).
    """
    return any(
        target == t or (t.endswith("x") and target.startswith(t[:-1]))
        for t in targets
    )
