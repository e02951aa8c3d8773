"""The DirectML policy, as a pytest plugin (loaded by tests/conftest.py).

Tests marked ``directml`` skip, with the reason, where torch-directml has no adapter; under
REQUIRE_DIRECTML=1 (the Windows GPU runner) such a skip fails the run, and so does a whole-suite run in
which no DirectML test passed. Every run's header says what torch-directml sees.

A software adapter is no DirectML GPU: Microsoft's WARP ("Microsoft Basic Render Driver") is Direct3D 12
emulated on the CPU, which a GPU-less virtual machine (a GitHub-hosted runner) may expose. Where it is all
torch-directml finds, the DirectML tests skip and say so, and the shell blocks run with TORCH_DEVICE=cpu
(tests/pages/test_site_shell_blocks.py), so that no full-MNIST epoch is computed on WARP.
DIRECTML_ALLOW_SOFTWARE_ADAPTER=1 counts it as an adapter after all (to try DirectML's code paths there).
"""

from __future__ import annotations

import os
import re
from functools import cache

import pytest

REQUIRE_DIRECTML = os.environ.get("REQUIRE_DIRECTML") == "1"
ALLOW_SOFTWARE = "DIRECTML_ALLOW_SOFTWARE_ADAPTER"
# Microsoft's software rasterizer (WARP), as DXGI names it.
SOFTWARE_ADAPTER = re.compile(r"Microsoft Basic Render Driver|\bWARP\b", re.I)


def is_software(name: str) -> bool:
    return bool(SOFTWARE_ADAPTER.search(name))


@cache
def directml_status() -> tuple[bool, str]:
    """(usable, why) for torch-directml on this machine: usable only with a hardware adapter."""
    try:
        import torch_directml  # noqa: F401 - the import error is the reason
    except Exception as error:  # not installed, or broken against this torch
        return False, f"torch-directml does not import ({type(error).__name__}: {error})"
    names = directml_adapters()
    if not names:
        return False, "torch-directml found no DirectML adapter"
    hardware = [name for name in names if not is_software(name)]
    if not hardware and os.environ.get(ALLOW_SOFTWARE) != "1":
        return False, (
            f"torch-directml found only a software adapter ({names[0]}: Direct3D 12 on the CPU), "
            f"which counts as no DirectML GPU ({ALLOW_SOFTWARE}=1 counts it)"
        )
    return True, f"{len(names)} DirectML adapter(s)"


def software_adapter_only() -> bool:
    """True where torch-directml sees adapters, all of them software, and they do not count."""
    names = directml_adapters()
    return bool(names) and not directml_status()[0] and all(is_software(name) for name in names)


def directml_adapters() -> list[str]:
    """The adapter names torch-directml reports, in its order; empty without torch-directml."""
    try:
        import torch_directml
    except Exception:
        return []
    return [torch_directml.device_name(i) for i in range(torch_directml.device_count())]


def pytest_report_header(config) -> list[str]:
    # What torch-directml sees, at the top of every run (on a hosted runner: a software adapter, or none).
    _, why = directml_status()
    lines = [f"torch-directml: {why}"]
    lines += [
        f"  [{i}] {name}{' (software)' if is_software(name) else ''}" for i, name in enumerate(directml_adapters())
    ]
    return lines


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
    if REQUIRE_DIRECTML and not session.config.option.collectonly and _directml_run_is_incomplete(session):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if _directml_skips or _directml_passed or REQUIRE_DIRECTML:
        terminalreporter.write_sep("-", "DirectML")
        line = f"{len(_directml_passed)} DirectML tests passed, {len(_directml_skips)} skipped"
        if REQUIRE_DIRECTML and config.option.collectonly:
            line += " (REQUIRE_DIRECTML=1; --collect-only runs none)"
        elif REQUIRE_DIRECTML:
            failed = _directml_run_is_incomplete(_session[0])
            line += " (FAILED: REQUIRE_DIRECTML=1 needs all of them to run)" if failed else " (REQUIRE_DIRECTML=1)"
        else:
            line += " (set REQUIRE_DIRECTML=1 to require them)"
        terminalreporter.write_line(line)
