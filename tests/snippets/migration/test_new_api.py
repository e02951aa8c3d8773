"""Tests for snippets/migration/new_api.py: the new API, with and without an adapter."""

from __future__ import annotations

import re

import pytest

import fake_directml
from guide_harness import run_snippet


def test_runs_on_the_cpu_without_directml(tmp_path):
    result = run_snippet("migration/new_api.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    if "running the same code on the CPU" in result.stdout:
        assert "device: cpu, (a + b).sum() = 9.0" in result.stdout


def test_lists_adapters_with_the_new_calls(tmp_path):
    fake = fake_directml.install(tmp_path, ["Intel(R) UHD Graphics 770", "AMD Radeon RX 6700 XT"])
    result = run_snippet("migration/new_api.py", cwd=tmp_path, PYTHONPATH=fake)
    assert result.returncode == 0, result.stderr
    assert "[0] Intel(R) UHD Graphics 770\n[1] AMD Radeon RX 6700 XT\n" in result.stdout
    assert "(a + b).sum() = 9.0" in result.stdout


@pytest.mark.directml
def test_runs_on_directml(tmp_path):
    result = run_snippet("migration/new_api.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert re.search(r"device: privateuseone:\d+, \(a \+ b\)\.sum\(\) = 9\.0", result.stdout), result.stdout
