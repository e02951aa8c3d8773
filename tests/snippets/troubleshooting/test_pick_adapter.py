"""Tests for snippets/troubleshooting/pick_adapter.py: the naming rule on real adapter names, the override."""

from __future__ import annotations

import pytest

import fake_directml
from guide_harness import assert_one_line_error, load_snippet, run_snippet

# any_torch: pick_adapter.py's rule reads adapter names (plain Python, no torch); its one DirectML test needs
# torch-directml, which exists only beside the pinned torch.
pytestmark = pytest.mark.any_torch

pick_adapter = load_snippet("troubleshooting/pick_adapter")


# Adapter names as Windows reports them (DXGI / Device Manager), as they appear in public logs and bug reports.
# The integrated ones (AMD's APUs, "Radeon(TM) RX Vega 11 Graphics" among them, Intel's UHD, Iris, Arc Graphics and
# 140V, Qualcomm's Adreno) are gpus.yml's: tests/snippets/test_integrated_gpu_rule.py holds adapter_kind() to every
# integrated name of that table.
ADAPTER_NAMES = [
    # AMD, dedicated
    ("AMD Radeon RX 6700 XT", "dedicated"),
    ("AMD Radeon RX 6600", "dedicated"),
    ("AMD Radeon RX 7900 XTX", "dedicated"),
    ("AMD Radeon RX 7600M XT", "dedicated"),
    ("AMD Radeon RX Vega 56", "dedicated"),
    ("AMD Radeon Pro W6800", "dedicated"),
    ("AMD Radeon VII", "dedicated"),
    ("AMD Radeon R9 200 Series", "dedicated"),
    ("AMD Radeon HD 7970", "dedicated"),
    # Intel
    ("Intel(R) Arc(TM) A770 Graphics", "dedicated"),
    ("Intel(R) Arc(TM) A370M Graphics", "dedicated"),
    ("Intel(R) Arc(TM) B580 Graphics", "dedicated"),
    ("Intel(R) Arc(TM) Pro A60M Graphics", "dedicated"),
    # NVIDIA
    ("NVIDIA GeForce RTX 3060", "dedicated"),
    ("NVIDIA GeForce GTX 1650", "dedicated"),
    ("NVIDIA RTX A2000 Laptop GPU", "dedicated"),
    ("NVIDIA Quadro P1000", "dedicated"),
    ("NVIDIA TITAN V", "dedicated"),
    # others
    ("Microsoft Basic Render Driver", "integrated"),  # software adapter: last resort
]


@pytest.mark.parametrize("name, kind", ADAPTER_NAMES)
def test_adapter_kind(name, kind):
    assert pick_adapter.adapter_kind(name) == kind


def test_a_name_the_rule_does_not_know_is_unknown():
    # a dedicated GPU that is in no pattern (and not in gpus.yml, which ADAPTER_NAMES must all be in)
    assert pick_adapter.adapter_kind("Moore Threads MTT S80") == "unknown"


@pytest.mark.parametrize(
    "names, expected",
    [
        (["Intel(R) UHD Graphics 770", "AMD Radeon RX 6700 XT"], 1),  # the integrated GPU is listed first
        (["AMD Radeon RX 6600", "AMD Radeon(TM) Graphics"], 0),
        (["AMD Radeon(TM) RX Vega 11 Graphics", "AMD Radeon RX 6600"], 1),  # an APU's "RX Vega" is integrated
        (["AMD Radeon(TM) 780M Graphics", "NVIDIA GeForce RTX 4060 Laptop GPU"], 1),
        (["Intel(R) Arc(TM) 140V GPU (16GB)", "Intel(R) Arc(TM) B580 Graphics"], 1),
        (["Intel(R) Iris(R) Xe Graphics", "Intel(R) Arc(TM) A370M Graphics"], 1),
        (["AMD Radeon(TM) Graphics", "Moore Threads MTT S80"], 1),  # unknown beats integrated
        (["NVIDIA GeForce GTX 1650", "AMD Radeon RX 7900 XTX"], 0),  # two dedicated: the lowest index
        (["Intel(R) UHD Graphics 620"], 0),  # only an integrated GPU: use it
    ],
)
def test_rule_prefers_the_dedicated_gpu(names, expected):
    assert pick_adapter.pick_adapter(names) == expected


def test_override_wins_and_is_checked():
    names = ["Intel(R) UHD Graphics 770", "AMD Radeon RX 6700 XT"]
    assert pick_adapter.pick_adapter(names, override=0) == 0
    with pytest.raises(pick_adapter.AdapterChoiceError, match="no adapter 2: use 0 to 1"):
        pick_adapter.pick_adapter(names, override=2)
    with pytest.raises(pick_adapter.AdapterChoiceError, match="no adapter -1"):
        pick_adapter.pick_adapter(names, override=-1)
    with pytest.raises(pick_adapter.AdapterChoiceError, match="sees no adapter"):
        pick_adapter.pick_adapter([])


def test_script_uses_the_machines_adapters(tmp_path):
    fake = fake_directml.install(tmp_path, ["AMD Radeon(TM) Graphics", "AMD Radeon RX 6600"])
    result = run_snippet("troubleshooting/pick_adapter.py", cwd=tmp_path, PYTHONPATH=fake)
    assert result.returncode == 0, result.stderr
    assert "[0] AMD Radeon(TM) Graphics  (integrated)" in result.stdout
    assert "using adapter 1: AMD Radeon RX 6600 (by name)" in result.stdout
    forced = run_snippet("troubleshooting/pick_adapter.py", "--adapter", "0", cwd=tmp_path, PYTHONPATH=fake)
    assert "using adapter 0: AMD Radeon(TM) Graphics (as requested)" in forced.stdout


def test_script_without_directml_explains_and_shows_the_rule(tmp_path):
    result = run_snippet("troubleshooting/pick_adapter.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    if "example list" in result.stdout:  # the CPU-only machine
        assert "using adapter 1: AMD Radeon RX 6700 XT (by name)" in result.stdout


def test_script_refuses_a_missing_adapter_in_one_line(tmp_path):
    fake = fake_directml.install(tmp_path, ["AMD Radeon RX 6600"])
    result = run_snippet("troubleshooting/pick_adapter.py", "--adapter", "3", cwd=tmp_path, PYTHONPATH=fake)
    assert_one_line_error(result, "there is no adapter 3: use 0 to 0")


@pytest.mark.directml
def test_picked_adapter_computes_on_directml():
    import torch
    import torch_directml

    names = [torch_directml.device_name(i) for i in range(torch_directml.device_count())]
    device = torch_directml.device(pick_adapter.pick_adapter(names))
    assert (torch.ones(4, device=device) * 3).sum().item() == 12.0
