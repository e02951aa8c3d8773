"""The device table (snippets/gpu_devices.json): what docs/hooks/data/devices/build.py builds from the pinned
copies of the vendors' tables, each listed with its URL and commit."""

import json
import re
import sys

import pytest

from guide import ROOT, gpus

DEVICES = ROOT / "docs" / "hooks" / "data" / "devices"
sys.path.insert(0, str(DEVICES))
import build  # noqa: E402


def test_the_committed_table_is_what_the_pinned_copies_build():
    assert (ROOT / "snippets" / "gpu_devices.json").read_text(encoding="utf-8") == build.dumps(build.build())


def test_the_check_command_fails_on_a_stale_table(tmp_path, monkeypatch):
    stale = tmp_path / "gpu_devices.json"
    stale.write_text(build.dumps(build.build()).replace('"gfx1030"', '"gfx1031"', 1), encoding="utf-8")
    monkeypatch.setattr(build, "OUT", stale)
    monkeypatch.setattr(build, "ROOT", tmp_path)
    assert build.main(["--check"]) == 1
    stale.write_text(build.dumps(build.build()), encoding="utf-8")
    assert build.main(["--check"]) == 0


def test_each_source_is_pinned_with_its_url_and_commit():
    for source in build.sources():
        assert source["source"].startswith("https://"), source
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(source["checked"])), source
        if source["file"]:
            assert (DEVICES / "sources" / source["file"]).is_file(), source["file"]
            assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), source


def table():
    return json.loads((ROOT / "snippets" / "gpu_devices.json").read_text(encoding="utf-8"))


def test_every_row_has_the_shape_doctor_reads():
    groups = {g.group for g in gpus.load()}
    for pci, rows in table()["devices"].items():
        assert re.fullmatch(r"(1002|8086|10de):[0-9a-f]{4}", pci), pci
        for row in rows:
            assert set(row) - {"aliases"} == {"rev", "name", "vendor", "group", "target", "kind", "backends"}, pci
            assert row["kind"] in build.KINDS and row["name"].strip(), (pci, row)
            assert row["group"] is None or row["group"] in groups, (pci, row)
            assert bool(row["backends"]) == (row["group"] is not None), (pci, row)
            assert set(row["backends"]) <= set(gpus.BACKENDS) - {"cpu"}, (pci, row)


@pytest.mark.parametrize(
    ("pci", "rev", "name", "target"),
    [
        # One row per vendor's table, each a line of its pinned copy (amdgpu.ids, DeviceInfo.cpp, iris_pci_ids.h,
        # pci.ids), so that a parser that drops or shifts a column is seen here.
        ("1002:73bf", "c1", "AMD Radeon RX 6800 XT", "gfx1030"),
        ("1002:73df", "c3", "AMD Radeon RX 6800M", "gfx1031"),
        ("1002:744c", "cf", "AMD Radeon RX 7900M", "gfx1100"),
        ("1002:67df", "c7", "AMD Radeon RX 480 Graphics", "gfx803"),
        ("8086:e20b", None, "Intel(R) Arc(TM) B580 Graphics", "bmg"),
        ("8086:3e92", None, "Intel(R) UHD Graphics 630", "cfl_gt2"),
        ("10de:2684", None, "NVIDIA GeForce RTX 4090", "sm_89"),
        ("10de:28a0", None, "NVIDIA GeForce RTX 4060 Laptop GPU", "sm_89"),
    ],
)
def test_rows_from_each_vendors_table(pci, rev, name, target):
    rows = [r for r in table()["devices"][pci] if r["rev"] == rev]
    assert any(r["name"] == name and r["target"] == target for r in rows), rows


def test_a_target_takes_the_decisions_of_its_gpus_yml_rows():
    decided = {g.gfx: g for g in gpus.load() if g.gfx and not g.ambiguous}
    for rows in table()["devices"].values():
        for row in rows:
            if row["target"] in decided:
                gpu = decided[row["target"]]
                assert row["group"] == gpu.group and row["backends"][0] == gpu.path["11"], row


def test_python_reads_names_only_through_node_and_says_so_without_it(monkeypatch):
    """guide/gpu_names.py asks match.js; without Node.js it stops with one line saying what to install."""
    from guide import gpu_names

    monkeypatch.setattr(gpu_names.shutil, "which", lambda name: None)
    with pytest.raises(gpu_names.GpuNameError, match="needs Node.js 20 or newer"):
        gpu_names.answers(["a name asked for the first time in this process"])
