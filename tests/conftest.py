"""Shared test set-up: real Fashion-MNIST data and the site built once per run. The DirectML policy, the
run's summary and the browser tests' fixtures are plugins."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

from fetch_fashion_mnist import FILES, SOURCE, unpack
from run_requirements import skip_or_fail
from site_server import build

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


class BuiltSite(NamedTuple):
    path: Path  # the site folder, as `mkdocs build --strict` writes it
    result: subprocess.CompletedProcess  # the build's exit status and output (stdout, stderr)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> BuiltSite:
    """The site of this checkout, built ONCE per test run (without SITE_URL, as a local build) and shared by
    every test that reads the built site or serves it (browser_support's ``site``). Read it, never write
    into it. A failed build fails each test that asks for it, with MkDocs' output. The only other full
    build a run may make is the sub-path one (tests/site/test_site_subpath.py); tests/run_summary.py
    fails a run that builds more."""
    site = tmp_path_factory.mktemp("built-site")
    result = build(site)
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}", pytrace=False)
    return BuiltSite(site, result)
