"""Tests for snippets/troubleshooting/move_between_adapters.py: a copy between two DirectML adapters goes through the CPU."""

from __future__ import annotations

import pytest
import torch

from guide_harness import load_snippet, run_snippet

move_between_adapters = load_snippet("troubleshooting/move_between_adapters")

D = torch.device


@pytest.mark.parametrize(
    "source, target, crosses",
    [
        (D("privateuseone:0"), D("privateuseone:1"), True),  # the copy of microsoft/DirectML#443
        (D("privateuseone:1"), D("privateuseone:0"), True),
        (D("privateuseone:0"), D("privateuseone:0"), False),
        (D("privateuseone"), D("privateuseone:0"), False),  # no index means adapter 0
        (D("cpu"), D("privateuseone:1"), False),
        (D("privateuseone:1"), D("cpu"), False),
        (D("cuda:0"), D("cuda:1"), False),
    ],
)
def test_only_adapter_to_adapter_copies_go_through_the_cpu(source, target, crosses):
    assert move_between_adapters.crosses_adapters(source, target) is crosses


def test_move_keeps_values_on_other_devices():
    values = torch.randn(5)
    assert torch.equal(move_between_adapters.move(values, D("cpu")), values)
    assert move_between_adapters.move(values, D("meta")).device == D("meta")


def test_script_explains_itself_on_one_adapter(tmp_path):
    result = run_snippet("troubleshooting/move_between_adapters.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    if "a move between two adapters needs two" in result.stdout:
        assert "goes through the CPU: True" in result.stdout
    else:
        assert "copy through the CPU keeps them:   True" in result.stdout


@pytest.mark.directml
def test_move_keeps_values_on_directml():
    import torch_directml

    values = torch.randn(8)
    last = torch_directml.device(torch_directml.device_count() - 1)  # adapter 1 where there are two
    moved = move_between_adapters.move(values.to(torch_directml.device(0)), last)
    assert torch.equal(moved.cpu(), values)
