"""A stand-in device table for the doctor's and report's tests."""

from __future__ import annotations

# A stand-in for snippets/gpu_devices.json, which the device table's build writes: the rows of a few real devices
# in the table's own shape (its kinds: dedicated, mobile, integrated, pro); the NVIDIA, Intel and H200 rows as
# h-devices' first gpu_devices.json has them (commit cbec0f3). The IDs and revisions are libdrm's amdgpu.ids (AMD)
# and pci-ids (NVIDIA, Intel): https://gitlab.freedesktop.org/mesa/drm/-/blob/main/data/amdgpu.ids,
# https://pci-ids.ucw.cz/.
STAND_IN_TABLE = {
    "generated_from": ["a stand-in of tests/gpu_stand_in.py"],
    "devices": {
        "1002:7550": [
            {
                "rev": "c0",
                "name": "AMD Radeon RX 9070 XT",
                "vendor": "amd",
                "group": "rdna4",
                "target": "gfx1201",
                "kind": "dedicated",
                "backends": ["rocm", "directml"],
            },
            {
                "rev": "c3",
                "name": "AMD Radeon RX 9070",
                "vendor": "amd",
                "group": "rdna4",
                "target": "gfx1201",
                "kind": "dedicated",
                "backends": ["rocm", "directml"],
            },
        ],
        "1002:744c": [
            {
                "rev": "c8",
                "name": "AMD Radeon RX 7900 XTX",
                "vendor": "amd",
                "group": "rdna3",
                "target": "gfx1100",
                "kind": "dedicated",
                "backends": ["rocm", "directml"],
            },
        ],
        "1002:73bf": [
            {
                "rev": None,
                "name": "AMD Radeon RX 6800 XT",
                "vendor": "amd",
                "group": "rdna2",
                "target": "gfx1030",
                "kind": "dedicated",
                "backends": ["directml"],
            },
        ],
        "1002:15bf": [
            {
                "rev": "c1",
                "name": "AMD Radeon 780M Graphics",
                "vendor": "amd",
                "group": "rdna3",
                "target": "gfx1103",
                "kind": "integrated",
                "backends": ["rocm", "directml"],
            },
        ],
        "1002:7480": [
            {
                "rev": "c1",
                "name": "AMD Radeon RX 7700S",
                "vendor": "amd",
                "group": "rdna3",
                "target": "gfx1102",
                "kind": "mobile",
                "backends": ["rocm", "directml"],
            },
        ],
        # A row for which the guide names no back-end (the table's data-centre and PRO rows): it decides nothing.
        "10de:2335": [
            {
                "rev": None,
                "name": "NVIDIA H200 SXM",
                "vendor": "nvidia",
                "group": None,
                "target": "sm_90",
                "kind": "pro",
                "backends": [],
            },
        ],
        "10de:25a2": [
            {
                "rev": None,
                "name": "NVIDIA GeForce RTX 3050 Laptop GPU",
                "vendor": "nvidia",
                "group": "nvidia",
                "target": "sm_86",
                "kind": "mobile",
                "backends": ["cuda", "directml"],
            },
        ],
        "8086:a780": [
            {
                "rev": None,
                "name": "Intel(R) Graphics",
                "vendor": "intel",
                "group": "intel-old",
                "target": "rpl",
                "kind": "integrated",
                "backends": ["directml"],
            },
        ],
    },
}
