"""Shared test set-up: real Fashion-MNIST data. The DirectML policy, the run's summary and the browser
tests' fixtures are plugins."""

from __future__ import annotations

from pathlib import Path

import pytest

from fetch_fashion_mnist import FILES, SOURCE, unpack
from run_requirements import skip_or_fail

# tests/ is on sys.path (pyproject.toml's pytest pythonpath), so the plugins import by name.
pytest_plugins = ["directml_policy", "run_summary", "browser_support"]


@pytest.fixture(scope="session")
def fashion_mnist_root(tmp_path_factory) -> Path:
    """A torchvision dataset root holding real Fashion-MNIST: <root>/FashionMNIST/raw/*-ubyte."""
    sources = [SOURCE / f"{name}.gz" for name in FILES]
    missing = [s for s in sources if not s.is_file()]
    if missing:
        message = f"Fashion-MNIST is missing ({missing[0]}): apt-get install dataset-fashion-mnist, or set FASHION_MNIST_DIR"
        skip_or_fail("data", message)
    return unpack(SOURCE, tmp_path_factory.mktemp("data"))
