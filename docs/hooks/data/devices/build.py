"""Build snippets/gpu_devices.json, the one table of GPU devices, from the vendors' own tables.

Every PCI device ID that AMD's, Intel's and NVIDIA's tables list for a family the guide covers, with its name
as the vendor's driver gives it, its target (AMD's gfx target, NVIDIA's sm_XY compute capability, Intel's
platform as Mesa names it), its kind and the back-ends the guide decides for it (docs/hooks/data/gpus.yml,
joined by target through families.yml; never by name). The copies it reads are pinned in sources/, each
listed with its URL and commit in tables.yml.

    python docs/hooks/data/devices/build.py          write snippets/gpu_devices.json
    python docs/hooks/data/devices/build.py --check  exit 1 if the committed file is not what the copies build
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
OUT = ROOT / "snippets" / "gpu_devices.json"
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

from guide import gpus  # noqa: E402  (the package sits beside this folder's parent)

# AMD chips that GPUOpen's table names by code name (GCN 1 to 4) and the gfx target LLVM gives each
# (https://llvm.org/docs/AMDGPUUsage.html#processors: Bristol Ridge is a Carrizo, Kalindi a Kabini,
# Spectre and Spooky are Kaveri, Ellesmere and Baffin are Polaris 10 and 11).
AMD_CHIP_GFX = {
    "Tahiti": "gfx600",
    "Pitcairn": "gfx601",
    "Capeverde": "gfx601",
    "Oland": "gfx602",
    "Hainan": "gfx602",
    "Spectre": "gfx700",
    "Spooky": "gfx700",
    "Hawaii": "gfx701",
    "Kalindi": "gfx703",
    "Mullins": "gfx703",
    "Bonaire": "gfx704",
    "Carrizo": "gfx801",
    "Bristol Ridge": "gfx801",
    "Iceland": "gfx802",
    "Tonga": "gfx802",
    "Fiji": "gfx803",
    "Ellesmere": "gfx803",
    "Baffin": "gfx803",
    "Stoney": "gfx810",
}
# NVIDIA's compute capability per architecture (https://developer.nvidia.com/cuda-gpus and its legacy page),
# by the chip name the PCI ID Project gives: the first pattern that matches the chip wins.
NVIDIA_CC = (
    (r"GK(10[4-7])", "3.0"),
    (r"GK(110|208)", "3.5"),
    (r"GK210", "3.7"),
    (r"GM10[78]", "5.0"),
    (r"GM20[0-9]", "5.2"),
    (r"GP100", "6.0"),
    (r"GP10[2-8]", "6.1"),
    (r"GV100", "7.0"),
    (r"TU1[01][0-9]", "7.5"),
    (r"GA100", "8.0"),
    (r"GA10[2-7]", "8.6"),
    (r"AD10[2-7]", "8.9"),
    (r"GH100", "9.0"),
    (r"GB10[02]", "10.0"),
    (r"GB20[2-7]", "12.0"),
)
KINDS = ("dedicated", "mobile", "integrated", "pro")
PRO = re.compile(r"\b(pro|firepro|instinct|quadro|tesla|grid|data center|ada generation|blackwell|rtx a\d+)\b", re.I)
NVIDIA_DATA_CENTER = re.compile(r"^NVIDIA [ABHLT]\d{1,4}\b")  # A100, H100, L40, T4, T1000: no GeForce


def sources() -> list[dict]:
    import yaml

    return yaml.safe_load((HERE / "tables.yml").read_text(encoding="utf-8"))["tables"]


def families() -> dict:
    import yaml

    return yaml.safe_load((HERE / "families.yml").read_text(encoding="utf-8"))


def read(name: str) -> str:
    return (HERE / "sources" / name).read_text(encoding="utf-8")


def amd_devices() -> dict[tuple[str, str], dict]:
    """(device, rev) -> {names, target, apu}: GPUOpen's rows, then libdrm's names (libdrm's name first)."""
    rows: dict[tuple[str, str], dict] = {}
    card = re.compile(
        r'^\s*\{GDT_\w+, 0x([0-9A-Fa-f]{4}), 0x([0-9A-Fa-f]{2}), \w+, (true|false), "([^"]+)", "([^"]+)"\}'
    )
    for line in read("DeviceInfo.cpp").splitlines():
        m = card.match(line)
        if not m:
            continue
        device, rev, apu, chip, name = (
            m.group(1).lower(),
            m.group(2).lower(),
            m.group(3) == "true",
            m.group(4),
            m.group(5),
        )
        target = chip if chip.startswith("gfx") else AMD_CHIP_GFX.get(chip)
        row = rows.setdefault((device, rev), {"names": [], "target": target, "apu": apu})
        if not re.fullmatch(r"[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}", name):  # "73BF:D1": no name yet
            row["names"].append(name)
    by_device = {d: r for (d, _), r in rows.items()}  # one chip per device ID: its target and APU flag
    for line in read("amdgpu.ids").splitlines():
        m = re.match(r"^([0-9A-Fa-f]{4}),\s*([0-9A-Fa-f]{2}),\s*(.+?)\s*$", line)
        if not m:
            continue
        device, rev, name = m.group(1).lower(), m.group(2).lower(), m.group(3)
        known = by_device.get(device, {"target": None, "apu": False})
        row = rows.setdefault((device, rev), {"names": [], "target": known["target"], "apu": known["apu"]})
        row["names"].insert(0, name)
    return rows


def amd_kind(name: str, apu: bool) -> str:
    if apu:
        return "integrated"
    if PRO.search(name) or re.search(r"\bW\d{4}\b|\bWX\b|\bV\d{3}\b|\bMI\d+", name):
        return "pro"
    if re.search(r"\d{3,4}[MS]\b|\bM\d{3}|\bMobile\b", name):
        return "mobile"
    return "dedicated"


def intel_devices() -> list[tuple[str, str, list[str]]]:
    """(device, platform, names): Mesa's name first, then the PCI ID Project's (its [bracketed] name)."""
    pci = {}
    vendor = None
    for line in read("pci.ids").splitlines():
        if re.match(r"^[0-9a-f]{4}\s", line):
            vendor = line[:4]
        m = re.match(r"^\t([0-9a-f]{4})\s+(.*)$", line)
        if m and vendor == "8086":
            bracket = re.search(r"\[(.*)\]", m.group(2))
            pci[m.group(1)] = bracket.group(1) if bracket else re.sub(r"^.*Processors\s+", "", m.group(2))
    out = []
    for m in re.finditer(r'CHIPSET\(0x([0-9a-f]{4}),\s*(\w+),\s*"[^"]*",\s*"([^"]+)"', read("iris_pci_ids.h")):
        device, platform, name = m.groups()
        names = [name.replace("(tm)", "(TM)")]
        if device in pci:
            for alt in alternatives(pci[device]):
                names.append(alt if alt.startswith("Intel") else "Intel " + alt)
        out.append((device, platform, names))
    return out


def intel_kind(platform: str, name: str) -> str:
    if PRO.search(name):
        return "pro"
    if platform.startswith(("dg", "bmg", "sg1")):
        return "mobile" if re.search(r"\d+M\b", name) else "dedicated"
    return "integrated"


def alternatives(text: str) -> list[str]:
    """The names a "/"-separated PCI ID Project name holds: "Arc Pro 130T/140T" is Arc Pro 130T and Arc Pro
    140T; a later part without words of its own takes the first part's words before its model number."""
    text = re.sub(r"\s+\d+GB(/\d+GB)*\b", "", text)
    parts = [p.strip() for p in re.split(r"\s*/\s*", text) if p.strip()]
    if not parts:
        return []
    first = parts[0].split()
    lead = []
    for word in first:
        if re.search(r"\d", word):
            break
        lead.append(word)
    out = [parts[0]]
    for part in parts[1:]:
        out.append(part if not re.match(r"^[A-Z]?\d", part) else " ".join([*lead, part]))
    return out


def nvidia_devices() -> list[tuple[str, str, str, list[str], bool]]:
    """(device, chip, cc, names, mobile) of every NVIDIA GPU whose chip has a compute capability above."""
    out = []
    vendor = None
    for line in read("pci.ids").splitlines():
        if re.match(r"^[0-9a-f]{4}\s", line):
            vendor = line[:4]
        m = re.match(r"^\t([0-9a-f]{4})\s+(\w+)[^\[]*\[(.+)\]\s*$", line)
        if not m or vendor != "10de":
            continue
        device, chip, label = m.groups()
        cc = next((c for pattern, c in NVIDIA_CC if re.match(pattern, chip)), None)
        if cc is None:
            continue
        mobile = bool(re.search(r"Mobile|Max-Q|Laptop", label)) or bool(re.match(r"^[A-Z]+\d+[A-Z]*M$", chip))
        base = re.sub(r"\s*(Mobile / Max-Q|Max-Q / Mobile|Mobile|Max-Q|Laptop GPU)\b", "", label)
        base = re.sub(r"\s+(Refresh|Engineering Sample)\b", "", base).strip()
        names = []
        for alt in alternatives(base):
            alt = alt if alt.startswith("NVIDIA") else "NVIDIA " + alt
            if mobile and "GeForce" in alt and chip[:2] in ("GA", "AD", "GB"):
                names.append(alt + " Laptop GPU")  # the name Windows shows for RTX 30 laptops and later
            else:
                names.append(alt)
        if mobile and "Max-Q" in label and chip[:2] not in ("GA", "AD", "GB"):
            names += [n + " with Max-Q Design" for n in names]  # Windows' name of a Max-Q card before RTX 30
        if mobile:
            names.append("NVIDIA " + re.sub(r"^NVIDIA ", "", label))  # the PCI ID Project's own, "... Max-Q / Mobile"
        out.append((device, chip, cc, list(dict.fromkeys(names)), mobile))
    return out


def nvidia_kind(chip: str, name: str, mobile: bool) -> str:
    if "GL" in chip or PRO.search(name) or NVIDIA_DATA_CENTER.match(name):
        return "pro"
    return "mobile" if mobile else "dedicated"


def decisions() -> tuple[dict, dict]:
    """gpus.yml's decisions per target and per group: its family and its back-ends, in the order the guide
    tries them (path on Windows 11, fallback, path on Windows 10, fallback; the CPU left out). Two rows of one
    target or group that decide differently stop the build: the table would not know which to give."""

    def backends(gpu) -> list[str]:
        order = [gpu.path["11"], gpu.fallback["11"], gpu.path["10"], gpu.fallback["10"]]
        return [b for b in dict.fromkeys(order) if b != "cpu"]

    by_target: dict[str, tuple[str, list[str]]] = {}
    by_group: dict[str, list[str]] = {}
    for gpu in gpus.load():
        if gpu.ambiguous:
            continue
        target = gpu.gfx or (f"sm_{gpu.cuda_cc.replace('.', '')}" if gpu.cuda_cc else None)
        decided = (gpu.group, backends(gpu))
        if target:
            if by_target.setdefault(target, decided) != decided:
                raise SystemExit(
                    f"gpus.yml: {gpu.name} decides {decided} for {target}, another row {by_target[target]}"
                )
        if by_group.setdefault(gpu.group, decided[1]) != decided[1]:
            by_group[gpu.group] = None  # the group's rows differ: only a target decides
    return by_target, by_group


def build() -> dict:
    by_target, by_group = decisions()
    fam = families()

    def join(vendor: str, target: str | None, key: str | None = None) -> tuple[str | None, list[str]]:
        if target in by_target:
            return by_target[target]
        group = fam.get(vendor, {}).get(key or target)
        if group is None:
            return None, []
        if by_group.get(group) is None:
            raise SystemExit(f"families.yml: {vendor} {key or target} -> {group}, whose gpus.yml rows differ")
        return group, list(by_group[group])

    devices: dict[str, list[dict]] = {}

    def add(pci: str, row: dict) -> None:
        if row["aliases"] == []:
            del row["aliases"]
        devices.setdefault(pci, []).append(row)

    for (device, rev), found in sorted(amd_devices().items()):
        names = list(dict.fromkeys(found["names"]))
        if not names:
            continue
        group, backends = join("amd", found["target"])
        add(
            f"1002:{device}",
            {
                "rev": rev,
                "name": names[0],
                "aliases": names[1:],
                "vendor": "amd",
                "group": group,
                "target": found["target"],
                "kind": amd_kind(names[0], found["apu"]),
                "backends": backends,
            },
        )
    for device, platform, names in intel_devices():
        key = next((k for k in sorted(fam["intel"], key=len, reverse=True) if platform.startswith(k)), None)
        group, backends = join("intel", platform, key)
        add(
            f"8086:{device}",
            {
                "rev": None,
                "name": names[0],
                "aliases": _rest(names),
                "vendor": "intel",
                "group": group,
                "target": platform,
                "kind": intel_kind(platform, names[0]),
                "backends": backends,
            },
        )
    for device, chip, cc, names, mobile in nvidia_devices():
        target = f"sm_{cc.replace('.', '')}"
        group, backends = join("nvidia", target)
        add(
            f"10de:{device}",
            {
                "rev": None,
                "name": names[0],
                "aliases": _rest(names),
                "vendor": "nvidia",
                "group": group,
                "target": target,
                "kind": nvidia_kind(chip, names[0], mobile),
                "backends": backends,
            },
        )
    generated_from = [{"url": s["source"], "commit": s["commit"], "checked": str(s["checked"])} for s in sources()]
    return {"generated_from": generated_from, "devices": dict(sorted(devices.items()))}


def _rest(names: list[str]) -> list[str]:
    return [n for n in dict.fromkeys(names) if n != names[0]]


def dumps(table: dict) -> str:
    """One device ID a line: a diff of the file is a list of the devices that changed."""
    head = json.dumps(table["generated_from"], ensure_ascii=True)
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=True)}" for k, v in table["devices"].items()]
    return '{"generated_from": ' + head + ',\n"devices": {\n' + ",\n".join(lines) + "\n}}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build snippets/gpu_devices.json from the pinned vendor tables.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file is not what they build")
    args = parser.parse_args(argv)
    text = dumps(build())
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is not what the pinned copies build: run {Path(__file__).name}")
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
