"""Fixtures of the snippets' tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bad_input import trained_checkpoint
from gpu_stand_in import STAND_IN_TABLE


@pytest.fixture(scope="module")
def trained(fashion_mnist_root, tmp_path_factory) -> Path:
    """A checkpoint after epoch 1 of the bad-input tables' training run (tests/bad_input.py's TRAIN)."""
    return trained_checkpoint(fashion_mnist_root, tmp_path_factory.mktemp("trained"))


@pytest.fixture
def device_table(tmp_path, monkeypatch) -> Path:
    """The stand-in table written where gpu_identity.py reads it (never at snippets/gpu_devices.json)."""
    import json

    from guide_harness import load_snippet

    path = tmp_path / "gpu_devices.json"
    path.write_text(json.dumps(STAND_IN_TABLE), encoding="utf-8")
    monkeypatch.setattr(load_snippet("gpu_identity"), "TABLE", path)
    return path
