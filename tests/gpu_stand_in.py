"""A stand-in device table for the doctor's and report's tests."""

from __future__ import annotations

# A stand-in for snippets/gpu_devices.json, which the device table's build writes: the rows of five real
# devices in the table's own shape. The IDs and revisions are libdrm's amdgpu.ids (AMD) and pci-ids (NVIDIA,
# Intel): https://gitlab.freedesktop.org/mesa/drm/-/blob/main/data/amdgpu.ids, https://pci-ids.ucw.cz/.
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
        "10de:25a2": [
            {
                "rev": None,
                "name": "NVIDIA GeForce RTX 3050 Laptop GPU",
                "vendor": "nvidia",
                "group": "ampere",
                "target": "8.6",
                "kind": "dedicated",
                "backends": ["cuda", "directml"],
            },
        ],
        "8086:a780": [
            {
                "rev": None,
                "name": "Intel UHD Graphics 770",
                "vendor": "intel",
                "group": "xe-lp",
                "target": None,
                "kind": "integrated",
                "backends": ["directml"],
            },
        ],
    },
}
