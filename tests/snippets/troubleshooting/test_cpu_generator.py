"""Tests for snippets/troubleshooting/cpu_generator.py: CPU generators, reproducible, moved to the device."""

from __future__ import annotations

import pytest
import torch

from guide_harness import load_snippet, run_snippet

cpu_generator = load_snippet("troubleshooting/cpu_generator")


def test_generator_is_on_the_cpu_and_reproducible():
    generator = cpu_generator.seeded_generator(7)
    assert generator.device.type == "cpu"
    first = cpu_generator.random_on(torch.device("cpu"), (3, 2), generator)
    second = cpu_generator.random_on(torch.device("cpu"), (3, 2), cpu_generator.seeded_generator(7))
    other = cpu_generator.random_on(torch.device("cpu"), (3, 2), cpu_generator.seeded_generator(8))
    assert first.shape == (3, 2)
    assert torch.equal(first, second)
    assert not torch.equal(first, other)


def test_script_runs(tmp_path):
    result = run_snippet("troubleshooting/cpu_generator.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "reproducible with the same seed" in result.stdout
    assert "split 8/2" in result.stdout


@pytest.mark.directml
def test_random_numbers_reach_directml():
    import torch_directml

    device = torch_directml.device()
    noise = cpu_generator.random_on(device, (4,), cpu_generator.seeded_generator(0))
    assert noise.device.type == "privateuseone"
    assert torch.equal(noise.cpu(), torch.randn(4, generator=torch.Generator().manual_seed(0)))
