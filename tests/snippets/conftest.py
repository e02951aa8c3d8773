"""Fixtures of the snippets' tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from bad_input import trained_checkpoint


@pytest.fixture(scope="module")
def trained(fashion_mnist_root, tmp_path_factory) -> Path:
    """A checkpoint after epoch 1 of the bad-input tables' training run (tests/bad_input.py's TRAIN)."""
    return trained_checkpoint(fashion_mnist_root, tmp_path_factory.mktemp("trained"))
