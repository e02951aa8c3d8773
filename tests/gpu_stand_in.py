"""What the doctor's and report's tests share: a stand-in device table, Windows' adapters, findings by status."""

from __future__ import annotations

FIELDS = ("rev", "name", "vendor", "group", "target", "kind", "backends")
BOTH = ["rocm", "directml"]


def row(*values) -> dict:
    """One row of the table in its own shape (FIELDS, in gpu_devices.json's order)."""
    return dict(zip(FIELDS, values, strict=True))


# A stand-in for snippets/gpu_devices.json, which the device table's build writes: the rows of a few real devices
# in the table's own shape (its kinds: dedicated, mobile, integrated, pro); the NVIDIA, Intel and H200 rows as
# h-devices' first gpu_devices.json has them (commit cbec0f3). The IDs and revisions are libdrm's amdgpu.ids (AMD)
# and pci-ids (NVIDIA, Intel): https://gitlab.freedesktop.org/mesa/drm/-/blob/main/data/amdgpu.ids,
# https://pci-ids.ucw.cz/.
STAND_IN_TABLE = {
    "generated_from": ["a stand-in of tests/gpu_stand_in.py"],
    "devices": {
        "1002:7550": [
            row("c0", "AMD Radeon RX 9070 XT", "amd", "rdna4", "gfx1201", "dedicated", BOTH),
            row("c3", "AMD Radeon RX 9070", "amd", "rdna4", "gfx1201", "dedicated", BOTH),
        ],
        "1002:744c": [row("c8", "AMD Radeon RX 7900 XTX", "amd", "rdna3", "gfx1100", "dedicated", BOTH)],
        "1002:73bf": [row(None, "AMD Radeon RX 6800 XT", "amd", "rdna2", "gfx1030", "dedicated", ["directml"])],
        "1002:15bf": [row("c1", "AMD Radeon 780M Graphics", "amd", "rdna3", "gfx1103", "integrated", BOTH)],
        "1002:7480": [row("c1", "AMD Radeon RX 7700S", "amd", "rdna3", "gfx1102", "mobile", BOTH)],
        # A row for which the guide names no back-end (the table's data-centre and PRO rows): it decides nothing.
        "10de:2335": [row(None, "NVIDIA H200 SXM", "nvidia", None, "sm_90", "pro", [])],
        "10de:25a2": [
            row(None, "NVIDIA GeForce RTX 3050 Laptop GPU", "nvidia", "nvidia", "sm_86", "mobile", ["cuda", "directml"])
        ],
        "8086:a780": [row(None, "Intel(R) Graphics", "intel", "intel-old", "rpl", "integrated", ["directml"])],
    },
}


def windows_adapter(name: str, pci: str) -> dict:
    """doctor.windows_adapters()'s entry for an adapter of this name and hardware ID (no driver or memory read)."""
    return {"name": name, "driver": None, "memory": None, "pci": pci}


def statuses(findings):
    return [(f.status, f.topic) for f in findings]


def only(findings, status):
    return [f for f in findings if f.status == status]
