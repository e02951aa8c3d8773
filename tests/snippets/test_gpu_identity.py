"""Tests for snippets/gpu_identity.py: a GPU's PCI IDs as Windows and Linux give them, named from the device table
(a stand-in of conftest.py: the real gpu_devices.json is generated elsewhere), a table that is missing or damaged
(one line, never a crash), and the gfx targets that AMD's installed packages carry."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gpu_stand_in import STAND_IN_TABLE
from guide_harness import load_snippet

pytestmark = pytest.mark.any_torch  # no torch here

identity = load_snippet("gpu_identity")
DEVICES = STAND_IN_TABLE["devices"]
HEX = "0123456789abcdef"


# ------------------------------------------------------------------ Windows' hardware IDs


# Microsoft Basic Display Adapter's match: a class code, no vendor
@pytest.mark.parametrize("text", ["pci\\cc_0300", "", None])
def test_no_hardware_id(text):
    assert identity.pci_id(text) is None


@given(
    vendor=st.text(HEX, min_size=4, max_size=4),
    device=st.text(HEX, min_size=4, max_size=4),
    subsys=st.none() | st.text(HEX, min_size=8, max_size=8),
    rev=st.none() | st.text(HEX, min_size=2, max_size=2),
    instance=st.booleans(),
    upper=st.booleans(),
)
def test_every_hardware_id_form_gives_its_ids(vendor, device, subsys, rev, instance, upper):
    """Windows' forms, generated: PCI\\VEN_v&DEV_d[&SUBSYS_s][&REV_r][\\instance], in either case: the whole hardware
    ID (Win32_VideoController's PNPDeviceID, the Enum\\PCI key name) and the display class key's MatchingDeviceId
    (as the driver's INF matched it: lowercase, maybe no REV, no instance)."""
    text = f"PCI\\VEN_{vendor}&DEV_{device}"
    text += f"&SUBSYS_{subsys}" if subsys else ""
    text += f"&REV_{rev}" if rev else ""
    text += "\\4&2A3B4C5D&0&0008" if instance else ""
    assert identity.pci_id(text.upper() if upper else text.lower()) == (vendor, device, rev)


# ------------------------------------------------------------------ the table


@pytest.mark.parametrize(
    "ids, name",
    [
        (("1002", "7550", "c0"), "AMD Radeon RX 9070 XT"),  # the row of that revision
        (("1002", "7550", "c3"), "AMD Radeon RX 9070"),  # the same device ID, another chip's name
        (("1002", "73bf", "c1"), "AMD Radeon RX 6800 XT"),  # a row for any revision
        (("1002", "73bf", None), "AMD Radeon RX 6800 XT"),
        # no revision (a MatchingDeviceId without REV): rows that agree on group and target, named together
        (("1002", "7550", None), "AMD Radeon RX 9070 XT or AMD Radeon RX 9070"),
        (("1002", "7550", "c2"), "AMD Radeon RX 9070 XT or AMD Radeon RX 9070"),  # a revision the table lacks
        (("1002", "ffff", "c0"), None),  # not in the table
        (None, None),
    ],
)
def test_identify(ids, name):
    row = identity.identify(ids, DEVICES)
    assert (row and row["name"]) == name


REVISION = st.none() | st.sampled_from(["c0", "c1", "c3", "c8"])
ROWS = st.lists(
    st.fixed_dictionaries(
        {
            "rev": REVISION,
            "name": st.sampled_from(["AMD Radeon RX 9070 XT", "AMD Radeon RX 9070", "AMD Radeon RX 9070 GRE"]),
            "group": st.just("rdna4"),
            "target": st.sampled_from(["gfx1200", "gfx1201"]),
        }
    ),
    min_size=1,
    max_size=4,
)


@given(rows=ROWS, revision=REVISION)
def test_a_row_is_never_another_chips(rows, revision):
    """Generated rows of one device ID: the row of the revision wins, then the row for any revision; with
    neither, a target only where every row has it. Never the target of a revision that is not this one."""
    row = identity.identify(("1002", "7550", revision), {"1002:7550": rows})
    own = [r for r in rows if revision and r["rev"] == revision]
    general = [r for r in rows if r["rev"] is None]
    if own or general:
        assert row == (own or general)[0]
    elif len({r["target"] for r in rows}) > 1:
        assert row is None
    else:
        assert row["target"] == rows[0]["target"] and row["rev"] is None


def test_describe_is_one_ascii_line():
    ids = ("1002", "744c", "c8")
    words = identity.describe(ids, identity.identify(ids, DEVICES))
    assert words == "PCI 1002:744c rev c8: AMD Radeon RX 7900 XTX, rdna3, gfx1100"
    assert identity.describe(("1002", "ffff", None), None) == "PCI 1002:ffff: not in the guide's device table"


def test_a_missing_table_is_one_line(tmp_path):
    devices, why = identity.load_table(tmp_path / "gpu_devices.json")
    assert devices == {} and why == "gpu_devices.json is not beside gpu_identity.py"


# Damage, each kind the loader can meet: cut short, not JSON, not UTF-8, another shape, a row without a field.
DAMAGE = {
    "cut short": json.dumps(STAND_IN_TABLE)[:200].encode(),
    "not JSON": b"<html>404</html>",
    "not UTF-8": b"\xff\xfe{",
    "a list": b"[]",
    "no devices": b'{"generated_from": []}',
    "a key in capitals": json.dumps({"devices": {"1002:744C": DEVICES["1002:744c"]}}).encode(),
    "a row without backends": json.dumps(
        {"devices": {"1002:744c": [{k: v for k, v in DEVICES["1002:744c"][0].items() if k != "backends"}]}}
    ).encode(),
    "rows not a list": json.dumps({"devices": {"1002:744c": 3}}).encode(),
    "a row without target": json.dumps(
        {"devices": {"1002:744c": [{k: v for k, v in DEVICES["1002:744c"][0].items() if k != "target"}]}}
    ).encode(),
    "a row's vendor not a string": json.dumps(
        {"devices": {"1002:744c": [{**DEVICES["1002:744c"][0], "vendor": 1}]}}
    ).encode(),
    "a folder": None,
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_table_is_one_line(damage, tmp_path):
    path = tmp_path / "gpu_devices.json"
    if DAMAGE[damage] is None:
        path.mkdir()
    else:
        path.write_bytes(DAMAGE[damage])
    devices, why = identity.load_table(path)
    assert devices == {} and why.startswith("gpu_devices.json is damaged (") and "\n" not in why, why


# ------------------------------------------------------------------ Linux


def test_linux_gpus_from_sysfs(tmp_path):
    """/sys/class/drm/cardN/device/{vendor,device,revision} hold "0x1002\\n"; connectors (card0-DP-1) are skipped."""
    for card, values in {"card0": ("0x1002", "0x744c", "0xc8"), "card1": ("0x10de", "0x25a2", "0xa1")}.items():
        folder = tmp_path / card / "device"
        folder.mkdir(parents=True)
        for name, value in zip(("vendor", "device", "revision"), values, strict=True):
            (folder / name).write_text(value + "\n")
    (tmp_path / "card0-DP-1").mkdir()
    (tmp_path / "card2").mkdir()  # no device files: left out
    assert identity.linux_ids(tmp_path) == [("1002", "744c", "c8"), ("10de", "25a2", "a1")]
    assert identity.linux_ids(tmp_path / "absent") == []


# ------------------------------------------------------------------ AMD's packages and their targets


@pytest.mark.parametrize(
    "distributions, targets",
    [
        # https://github.com/ROCm/TheRock/blob/89553ce3746eda74ade42557470d25e37c91b6f0/RELEASES.md (2026-08-22),
        # "Installing multi-arch PyTorch Python packages": the torch[device-gfx1100] extra installs
        # amd-torch-device-gfx1100, which depends on rocm-sdk-device-gfx1100
        ({"torch", "amd-torch-device-gfx1100", "rocm-sdk-device-gfx1100", "rocm-sdk-libraries"}, {"gfx1100"}),
        # the family wheels beside them, on AMD's whl-next index that the guide's Windows command uses
        # (TheRock's build_tools/packaging/python/rocm_whl_next_ownership.yaml: amd-torch-device-gfx110x, gfx12-0;
        # promote_packages.py: "torch aggregates families (amd-torch-device-gfx11)")
        ({"amd-torch-device-gfx1201", "amd-torch-device-gfx12-0", "amd_torch_device_gfx11"}, {"gfx1201"}),
        ({"amd-torch-device-gfx110x"}, {"gfx110x"}),
        # TheRock's .github/workflows/multi_arch_build_windows_pytorch_wheels.yml builds for Windows "per-gfx
        # amd-torch-device-* / amd-torchvision-device-* wheels"
        ({"amd-torchvision-device-gfx1151", "amd_torch_device_gfx1151"}, {"gfx1151"}),
        ({"amd-torch-device-gfx90a", "rocm-sdk-device-gfx942"}, {"gfx90a", "gfx942"}),
        # the earlier per-family wheels (RELEASES.md before multi-arch: rocm-sdk-libraries-gfx110X-dgpu)
        ({"rocm-sdk-libraries-gfx110X-dgpu", "rocm-sdk-core"}, {"gfx110x"}),
        ({"rocm-sdk-libraries-gfx1151"}, {"gfx1151"}),
        ({"torch", "torchvision", "rocm-sdk-core"}, set()),  # no target named: the doctor says nothing
    ],
)
def test_wheel_targets(distributions, targets):
    assert identity.wheel_targets(distributions) == targets


@pytest.mark.parametrize(
    "targets, target, covered",
    [
        ({"gfx1100"}, "gfx1100", True),
        ({"gfx1100"}, "gfx1101", False),
        ({"gfx110x"}, "gfx1102", True),
        ({"gfx110x"}, "gfx1151", False),
        ({"gfx1201"}, "gfx120", False),  # a shorter name never covers a longer one
        (set(), "gfx1100", False),
    ],
)
def test_covers(targets, target, covered):
    assert identity.covers(targets, target) is covered
