"""Tests for snippets/troubleshooting/tutorial_device.py: the tutorials' torch.accelerator line and its replacement.

Whether torch.accelerator exists is asked of the torch under test and compared with its version: absent before
2.6 (torch-directml's torch), present from 2.6 on (the current-torch run), so the page's claim fails on either
torch if it stops being true.
"""

from __future__ import annotations

import re

import pytest
import torch
from torch.torch_version import TorchVersion

from guide_harness import SNIPPETS, assert_one_line_error, load_snippet, run_snippet

SCRIPT = "troubleshooting/tutorial_device.py"
TUTORIAL_LINE = 'device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"'
NEW_IN = "2.6"

tutorial_device = load_snippet("troubleshooting/tutorial_device")


def test_torch_accelerator_exists_from_2_6_on():
    assert tutorial_device.has_accelerator_api() == (TorchVersion(torch.__version__) >= NEW_IN)


def test_the_tutorial_line_fails_before_2_6_with_the_quoted_message():
    if TorchVersion(torch.__version__) >= NEW_IN:
        exec(TUTORIAL_LINE, {"torch": torch})  # runs as the tutorials say
        return
    with pytest.raises(AttributeError) as raised:
        exec(TUTORIAL_LINE, {"torch": torch})
    assert str(raised.value) == "module 'torch' has no attribute 'accelerator'"


def test_script_runs_and_names_its_device(tmp_path):
    # choose_device.py sits beside it in the reader's project folder; here snippets/ is that folder.
    result = run_snippet(SCRIPT, cwd=tmp_path, PYTHONPATH=str(SNIPPETS))
    assert result.returncode == 0, result.stderr
    assert re.search(r"^Using (cpu|privateuseone:\d+|xpu:\d+|cuda:\d+) device \(", result.stdout, re.M), result.stdout
    assert "a model ran on" in result.stdout
    expected = "has torch.accelerator" if tutorial_device.has_accelerator_api() else "has no torch.accelerator"
    assert f"torch {torch.__version__} {expected}" in result.stdout


def test_script_says_where_choose_device_must_be(tmp_path):
    result = run_snippet(SCRIPT, cwd=tmp_path)  # without choose_device.py beside it
    assert_one_line_error(result, "No module named 'choose_device'", "save choose_device.py")
