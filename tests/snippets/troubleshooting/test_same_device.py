"""Tests for snippets/troubleshooting/same_device.py: it names every tensor that is on another device."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from guide_harness import load_snippet, run_snippet

same_device = load_snippet("troubleshooting/same_device")

META = torch.device("meta")


def test_names_the_parameter_buffer_and_input_left_behind():
    model = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3)).to(META)
    model[1].running_mean = torch.zeros(3)  # a buffer replaced by a CPU tensor
    inputs = {"images": torch.randn(2, 4, device=META), "labels": torch.tensor([0, 1])}
    problems = same_device.tensors_off_device(model, inputs, META)
    assert problems == [
        "1.running_mean is on cpu, not meta",
        "labels is on cpu, not meta",
    ]


def test_nothing_to_report_when_all_is_moved():
    model = nn.Linear(4, 3).to(META)
    assert same_device.tensors_off_device(model, {"x": torch.randn(1, 4, device=META)}, META) == []


def test_index_counts():
    """A tensor whose device has no index counts as index 0 of the device asked for."""
    fake = [("w", torch.empty(0, device="meta"))]
    model = nn.Module()
    assert same_device.tensors_off_device(model, dict(fake), torch.device("meta", 0)) == []


def test_script_finds_the_forgotten_labels(tmp_path):
    result = run_snippet("troubleshooting/same_device.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "labels is on cpu, not" in result.stdout
    assert "1 tensor(s) to move with .to(device)" in result.stdout
    assert "after labels.to(device): 0 tensor(s) on another device" in result.stdout


@pytest.mark.directml
def test_check_explains_the_unbox_error_on_directml():
    import torch_directml

    device = torch_directml.device()
    model = nn.Linear(4, 3).to(device)
    labels = torch.tensor([0, 2])
    assert same_device.tensors_off_device(model, {"labels": labels}, device) == [f"labels is on cpu, not {device}"]
    assert same_device.tensors_off_device(model, {"labels": labels.to(device)}, device) == []
