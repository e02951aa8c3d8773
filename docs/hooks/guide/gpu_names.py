"""GPU names, read by the one matcher (docs/javascripts/gpu/match.js) and never in Python.

The chooser's table joins the guide's GPUs (gpus.yml) with the device table (snippets/gpu_devices.json): each
device row names the guide's GPU whose answer is its own (``like``: same gfx target or compute capability;
for Intel, the same family of the guide), never by its name. The page reads that table with match.js; Python
asks match.js the same question through docs/javascripts/gpu/match_cli.js in Node, once per batch of names.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache

from guide import ROOT, gpus

DEVICES = ROOT / "snippets" / "gpu_devices.json"
CLI = ROOT / "docs" / "javascripts" / "gpu" / "match_cli.js"


class GpuNameError(RuntimeError):
    """match.js could not be asked (no Node.js, or it failed); the message says what to do."""


def target_of(gpu: gpus.Gpu) -> str | None:
    """A guide GPU's target as the device table writes it: gfx1100, sm_89."""
    if gpu.gfx:
        return gpu.gfx
    return f"sm_{gpu.cuda_cc.replace('.', '')}" if gpu.cuda_cc else None


def _like(row: dict, guide: tuple[gpus.Gpu, ...]) -> str | None:
    """The guide's GPU that answers for a device: its target's, else (Intel, or a family that families.yml
    gives the device) its family's; the same kind first (integrated or not)."""
    if row["group"] is None:
        return None
    usable = [g for g in guide if not g.ambiguous]
    same = [g for g in usable if target_of(g) and target_of(g) == row["target"]]
    same = same or [g for g in usable if g.group == row["group"]]
    want = "integrated" if row["kind"] == "integrated" else "dedicated"
    same.sort(key=lambda g: g.kind != want)  # stable: the table's own order within each kind
    return same[0].name if same else None


@cache
def table() -> dict:
    """The chooser's table: {rows: the guide's GPUs, devices: the device table's rows with their like}."""
    guide = gpus.load()
    rows = []
    for gpu in guide:
        row = {"name": gpu.name, "vendor": gpu.vendor, "target": target_of(gpu), "group": gpu.group, "path": gpu.path}
        if gpu.aliases:
            row["aliases"] = list(gpu.aliases)
        if gpu.ambiguous:
            row["ask"] = 1
        rows.append(row)
    devices = json.loads(DEVICES.read_text(encoding="utf-8"))["devices"]
    out = {}
    for pci, found in devices.items():
        out[pci] = []
        for device in found:
            row = {k: device[k] for k in ("rev", "name", "vendor", "target", "group", "kind") if k in device}
            if device.get("aliases"):
                row["aliases"] = device["aliases"]
            like = _like(device, guide)
            if like:
                row["like"] = like
            out[pci].append(row)
    return {"rows": rows, "devices": out}


@dataclass(frozen=True)
class Answer:
    status: str  # one, choices, none
    guide: str | None  # the guide's GPU that answers (gpus.yml name), if any
    device: str | None  # the device table's name, where the answer came from it
    family: str | None  # match.js's family (vendor:target, or intel:group) when one
    vendor: str | None  # the vendor the name's words say (Radeon, GeForce, Arc ...), found or not
    choices: tuple[str, ...] = ()

    def gpu(self) -> gpus.Gpu | None:
        return next((g for g in gpus.load() if g.name == self.guide), None) if self.status == "one" else None


_ASKED: dict[str, Answer] = {}


def answers(names) -> dict[str, Answer]:
    """match.js's answer for each name, asked in one run of Node (and remembered for this process)."""
    wanted = [n for n in dict.fromkeys(names) if n not in _ASKED]
    if wanted:
        node = shutil.which("node")
        if node is None:
            raise GpuNameError(
                "reading GPU names needs Node.js 20 or newer (docs/javascripts/gpu/match.js): install it"
            )
        payload = json.dumps({"table": table(), "names": wanted})
        done = subprocess.run(
            [node, str(CLI)], input=payload, capture_output=True, text=True, encoding="utf-8", check=False
        )
        if done.returncode != 0:
            raise GpuNameError(f"{CLI.relative_to(ROOT).as_posix()} failed: {done.stderr.strip()[-300:]}")
        for name, got in zip(wanted, json.loads(done.stdout), strict=True):
            _ASKED[name] = Answer(
                got["status"], got["guide"], got["device"], got["family"], got["vendor"], tuple(got["choices"])
            )
    return {n: _ASKED[n] for n in names}


def answer(name: str) -> Answer:
    return answers([name])[name]
