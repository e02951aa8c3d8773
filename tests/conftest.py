"""Shared test set-up: real Fashion-MNIST data and the site built once per run. The DirectML policy, the
run's summary and the browser tests' fixtures are plugins."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest
from filelock import FileLock

import site_server
from fetch_fashion_mnist import FILES, SOURCE, unpack
from run_requirements import skip_or_fail

# tests/ is on sys.path (pyproject.toml's pytest pythonpath), so the plugins import by name.
pytest_plugins = ["directml_policy", "run_summary", "browser_support", "codeblocks_run"]


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--current-torch",
        action="store_true",
        help="the run on current torch (README's second command): leaves out the tests marked any_torch, whose "
        "result does not depend on torch's version; the run on the pins has them",
    )
    parser.addoption(
        "--held-out",
        action="store_true",
        help="tests/site/test_search_eval.py prints the held-out part's totals too (run it on demand, with -s)",
    )
    parser.addoption(
        "--update-rewrites",
        action="store_true",
        help="tests/site/test_search_eval.py writes tests/site/search_rewrites.yml anew from this run",
    )


# The tiers by what a test costs, set here from what it asks for, so that a new test gets its tier without anyone
# marking it. `browser`: it needs the built site (a full `mkdocs build`, a minute or more) or Chromium; every
# fixture that serves the site or drives the browser depends on one of these two. `ci`: it checks the workflows,
# .ci/run and the scripts they run (the folders tests/repo and tests/scripts), which a change to a page or a
# snippet cannot break. `train`: it trains on real Fashion-MNIST (it asks for `fashion_mnist_root`, or it is a
# page's Python block run with the data): each starts Python and torch and runs epochs, seconds to minutes.
# `network`: it asks PyPI (it asks for `pypi_index`): pip resolves a page's install command, seconds each, and
# fails without the network. Every other test is `quick`, which the README's quick command runs.
BROWSER_FIXTURES = {"built_site", "browser"}
CI_FOLDERS = ("repo", "scripts")
TESTS = Path(__file__).resolve().parent


def tier_marks(item) -> list[str]:
    marks = []
    fixtures = set(getattr(item, "fixturenames", ()))
    if BROWSER_FIXTURES & fixtures:
        marks.append("browser")
    block_args = [str(a) for mark in item.iter_markers("args") for a in mark.args]
    if "fashion_mnist_root" in fixtures or any("{fashion_mnist}" in a for a in block_args):
        marks.append("train")
    if item.path.is_relative_to(TESTS) and item.path.relative_to(TESTS).parts[0] in CI_FOLDERS:
        marks.append("ci")
    if "pypi_index" in fixtures:
        marks.append("network")
    return marks or ["quick"]


@pytest.hookimpl(tryfirst=True)  # before -m selects by marker
def pytest_collection_modifyitems(config, items) -> None:
    """Each test gets its tier marks (above). With --current-torch, the tests marked any_torch are deselected
    (each says why its result cannot depend on torch's version). Under pytest-xdist, the files that hold a slow
    test (the whole-site sweeps, minutes each) go to the workers first, and the many short files fill in
    behind them, so that no worker starts a sweep while the others run out of work. (pyproject.toml's
    --no-loadscope-reorder keeps this order: xdist would otherwise hand out the files with the most tests
    first, and these have few.)"""
    for item in items:
        for mark in tier_marks(item):
            item.add_marker(mark)
    if config.getoption("--current-torch"):
        once = [item for item in items if item.get_closest_marker("any_torch")]
        if once:
            config.hook.pytest_deselected(items=once)
            items[:] = [item for item in items if not item.get_closest_marker("any_torch")]
    if not hasattr(config, "workerinput"):
        return
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: each file's own order is kept


@pytest.fixture(scope="session")
def pypi_index() -> str:
    """PyPI's index, for a test that resolves or reads packages there (the `network` tier)."""
    return "https://pypi.org/simple"


@pytest.fixture(scope="session")
def fashion_mnist_root(tmp_path_factory) -> Path:
    """A torchvision dataset root holding real Fashion-MNIST: <root>/FashionMNIST/raw/*-ubyte."""
    sources = [SOURCE / f"{name}.gz" for name in FILES]
    missing = [s for s in sources if not s.is_file()]
    if missing:
        message = (
            f"Fashion-MNIST is missing ({missing[0]}): apt-get install dataset-fashion-mnist, or set FASHION_MNIST_DIR"
        )
        skip_or_fail("data", message)
    return unpack(SOURCE, tmp_path_factory.mktemp("data"))


class BuiltSite(NamedTuple):
    path: Path  # the site folder, as `mkdocs build --strict` writes it
    result: subprocess.CompletedProcess  # the build's exit status and output (stdout, stderr)


@pytest.fixture(scope="session")
def built_site(request, tmp_path_factory) -> BuiltSite:
    """The site of this checkout, built ONCE per test run (without SITE_URL, as a local build) and shared by
    every test that reads the built site or serves it (browser_support's ``site``). Read it, never write
    into it. A failed build fails each test that asks for it, with MkDocs' output. The only other full
    build a run may make is the sub-path one (tests/site/test_site_subpath.py); tests/run_summary.py
    fails a run that builds more. Under pytest-xdist (``-n``) the workers share one build: the first to
    ask builds it into the run's base folder, under a file lock, and the others read what it left."""
    if not hasattr(request.config, "workerinput"):  # one process: its own base folder
        site = tmp_path_factory.mktemp("built-site")
        result = site_server.build(site)
    else:  # an xdist worker: each has its own base folder under the run's
        site, result = _build_once(tmp_path_factory.getbasetemp().parent / "built-site")
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}", pytrace=False)
    return BuiltSite(site, result)


def _build_once(site: Path) -> tuple[Path, subprocess.CompletedProcess]:
    """The build in ``site``, made by the first worker that gets here; the others wait on the lock and
    read its result (exit status and output) from ``site``.json."""
    record = site.with_suffix(".json")
    with FileLock(site.with_suffix(".lock")):
        if not record.is_file():
            result = site_server.build(site)
            record.write_text(json.dumps([result.returncode, result.stdout, result.stderr]), encoding="utf-8")
        returncode, stdout, stderr = json.loads(record.read_text(encoding="utf-8"))
    return site, subprocess.CompletedProcess(str(site), returncode, stdout, stderr)
