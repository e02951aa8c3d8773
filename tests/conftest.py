"""Shared test set-up: the DirectML marker, real Fashion-MNIST data, and the run's summary."""

from __future__ import annotations

import gzip
import os
import shutil
import sys
from functools import cache
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests/guide_harness.py

REQUIRE_DIRECTML = os.environ.get("REQUIRE_DIRECTML") == "1"
# Debian's dataset-fashion-mnist; elsewhere (the Windows runner) a folder of the same *-ubyte.gz files.
FASHION_MNIST_SOURCE = Path(os.environ.get("FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist"))
FASHION_MNIST_FILES = (
    "train-images-idx3-ubyte",
    "train-labels-idx1-ubyte",
    "t10k-images-idx3-ubyte",
    "t10k-labels-idx1-ubyte",
)


@cache
def directml_status() -> tuple[bool, str]:
    """(usable, why) for torch-directml on this machine."""
    try:
        import torch_directml
    except Exception as error:  # not installed, or broken against this torch
        return False, f"torch-directml does not import ({type(error).__name__}: {error})"
    count = torch_directml.device_count()
    if count == 0:
        return False, "torch-directml found no DirectML adapter"
    return True, f"{count} DirectML adapter(s)"


def directml_adapters() -> list[str]:
    """The adapter names torch-directml reports, in its order; empty without torch-directml."""
    try:
        import torch_directml
    except Exception:
        return []
    return [torch_directml.device_name(i) for i in range(torch_directml.device_count())]


def pytest_report_header(config) -> list[str]:
    # What torch-directml sees, at the top of every run (on a hosted runner: a software adapter, or none).
    usable, why = directml_status()
    lines = [f"torch-directml: {why}"]
    if usable:
        lines += [f"  [{i}] {name}" for i, name in enumerate(directml_adapters())]
    return [f"tested with {torch_versions()}", *lines]


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("directml") is None:
        return
    usable, why = directml_status()
    if usable:
        return
    if REQUIRE_DIRECTML:
        pytest.fail(f"REQUIRE_DIRECTML=1 but {why}", pytrace=False)
    pytest.skip(f"needs DirectML: {why}")


_directml_skips: list[str] = []
_directml_passed: list[str] = []
_session: list[pytest.Session] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    _session.append(session)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "directml" not in report.keywords:
        return
    if report.skipped:
        _directml_skips.append(report.nodeid)
    elif report.when == "call" and report.passed:
        _directml_passed.append(report.nodeid)


def _directml_run_is_incomplete(session: pytest.Session) -> bool:
    """Under REQUIRE_DIRECTML=1: a DirectML test was skipped, or (in a whole-suite run) none passed."""
    whole_suite = not session.config.option.keyword and not session.config.option.markexpr
    return bool(_directml_skips) or (whole_suite and session.testscollected > 0 and not _directml_passed)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # Belt and braces: on the GPU runner a skipped DirectML test is a failed run, whoever skipped it,
    # and so is a run in which no DirectML test passed at all (markers lost, tests deselected).
    if REQUIRE_DIRECTML and _directml_run_is_incomplete(session):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _reason(report) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def torch_versions() -> str:
    """The torch this run tested: the scripts serve torch-directml's pins and current torch alike."""
    from importlib import metadata

    found = []
    for name in ("torch", "torchvision", "torch-directml"):
        try:
            found.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found) + f"; Python {sys.version.split()[0]}"


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    terminalreporter.write_sep("-", "versions")
    terminalreporter.write_line(f"tested with {torch_versions()}")
    stats = terminalreporter.stats
    site = {
        outcome: [r for r in stats.get(outcome, []) if "test_site_blocks.py::test_site_block_runs" in r.nodeid]
        for outcome in ("passed", "failed", "error", "skipped")
    }
    if any(site.values()):
        ran = len(site["passed"]) + len(site["failed"])
        terminalreporter.write_sep("-", "site code blocks")
        terminalreporter.write_line(
            f"{ran} site blocks ran ({len(site['passed'])} passed, {len(site['failed'])} failed), "
            f"{len(site['skipped'])} skipped, {len(site['error'])} errors"
        )
        for report in site["skipped"]:
            terminalreporter.write_line(f"  skipped {report.nodeid.split('[', 1)[-1].rstrip(']')}: {_reason(report)}")
    shell = {
        outcome: [r for r in stats.get(outcome, []) if "test_site_shell_blocks.py::test_site_shell_block_runs" in r.nodeid]
        for outcome in ("passed", "failed", "error", "skipped")
    }
    if any(shell.values()):
        manual: dict[str, list[str]] = {}
        skipped: dict[str, list[str]] = {}
        for report in shell["skipped"]:
            where, _, shell_name = report.nodeid.split("[", 1)[-1].rstrip("]").rpartition(":")
            reason = _reason(report)
            if reason.startswith("manual: "):
                manual.setdefault(f"{where} ({reason.removeprefix('manual: ')})", []).append(shell_name)
            else:
                skipped.setdefault(reason, []).append(f"{where}:{shell_name}")
        ran = len(shell["passed"]) + len(shell["failed"])
        terminalreporter.write_sep("-", "site shell blocks")
        terminalreporter.write_line(
            f"{ran} shell block runs ({len(shell['passed'])} passed, {len(shell['failed'])} failed), "
            f"{len(manual)} blocks not run unattended (marked manual on their page), "
            f"{sum(map(len, skipped.values()))} runs skipped, {len(shell['error'])} errors"
        )
        for block, shells in manual.items():
            terminalreporter.write_line(f"  manual {block.replace(' (', f' [{chr(44).join(shells)}] (', 1)}")
        for reason, runs in skipped.items():
            terminalreporter.write_line(f"  skipped {len(runs)}: {reason}")
    if _directml_skips or _directml_passed or REQUIRE_DIRECTML:
        terminalreporter.write_sep("-", "DirectML")
        line = f"{len(_directml_passed)} DirectML tests passed, {len(_directml_skips)} skipped"
        if REQUIRE_DIRECTML:
            failed = _directml_run_is_incomplete(_session[0])
            line += " (FAILED: REQUIRE_DIRECTML=1 needs all of them to run)" if failed else " (REQUIRE_DIRECTML=1)"
        else:
            line += " (set REQUIRE_DIRECTML=1 to require them)"
        terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def fashion_mnist_root(tmp_path_factory) -> Path:
    """A torchvision dataset root holding real Fashion-MNIST: <root>/FashionMNIST/raw/*-ubyte."""
    sources = [FASHION_MNIST_SOURCE / f"{name}.gz" for name in FASHION_MNIST_FILES]
    missing = [s for s in sources if not s.is_file()]
    if missing:
        message = f"Fashion-MNIST is missing ({missing[0]}): apt-get install dataset-fashion-mnist, or set FASHION_MNIST_DIR"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    root = tmp_path_factory.mktemp("data")
    raw = root / "FashionMNIST" / "raw"
    raw.mkdir(parents=True)
    for source, name in zip(sources, FASHION_MNIST_FILES):
        with gzip.open(source, "rb") as packed, open(raw / name, "wb") as unpacked:
            shutil.copyfileobj(packed, unpacked)
    return root
