"""Fixtures of the snippets' tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import generated_cases
from bad_input import link_folder, trained_checkpoint
from gpu_stand_in import STAND_IN_TABLE
from guide_harness import load_snippet


@pytest.fixture(scope="module")
def trained(fashion_mnist_root, tmp_path_factory) -> Path:
    """A checkpoint after epoch 1 of the bad-input tables' training run (tests/bad_input.py's TRAIN)."""
    return trained_checkpoint(fashion_mnist_root, tmp_path_factory.mktemp("trained"))


@pytest.fixture
def device_table(tmp_path, monkeypatch) -> Path:
    """The stand-in table written where gpu_identity.py reads it (never at snippets/gpu_devices.json)."""
    path = tmp_path / "gpu_devices.json"
    path.write_text(json.dumps(STAND_IN_TABLE), encoding="utf-8")
    monkeypatch.setattr(load_snippet("gpu_identity"), "TABLE", path)
    return path


@pytest.fixture(scope="module")
def place(tmp_path_factory, fashion_mnist_root) -> Path:
    """The folder the generated cases run in (their working directory): broken data, a file where a folder should
    be, an existing folder, and the real data (``real``, never written)."""
    for script in generated_cases.SCRIPTS:  # each imported once, here
        load_snippet(script)
    root = tmp_path_factory.mktemp("generated")
    link_folder(fashion_mnist_root, root / "real")
    generated_cases.furnish(root)
    return root
