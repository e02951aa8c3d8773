"""ruff, pinned in pyproject.toml, lints the project and formats what readers copy (snippets/).

Its line length (pyproject.toml's [tool.ruff]) is what a code block shows without scrolling at the
site's desktop width, so a snippet line that would scroll fails here.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib

import pytest

from guide_harness import ROOT

pytest.importorskip("ruff", reason="ruff is in the test group: pip install --group test")


def ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args, "--no-cache"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_ruff_is_the_pinned_version():
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]["test"]
    pinned = next(p.split("==")[1] for p in pins if isinstance(p, str) and p.startswith("ruff=="))
    assert ruff("--version").stdout.split() == ["ruff", pinned]


def test_ruff_check():
    result = ruff("check", ".", "--output-format", "concise")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format():
    result = ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
