"""The DirectML policy, as a pytest plugin (loaded by tests/conftest.py).

Tests marked ``directml`` skip, with the reason, where torch-directml has no adapter; under
REQUIRE_DIRECTML=1 (the Windows GPU runner) such a skip fails the run, and so does a whole-suite run in
which no DirectML test passed. Every run's header says what torch-directml sees.
"""

from __future__ import annotations

import os
from functools import cache

import pytest

REQUIRE_DIRECTML = os.environ.get("REQUIRE_DIRECTML") == "1"


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
    if REQUIRE_DIRECTML and _directml_run_is_incomplete(session):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    if _directml_skips or _directml_passed or REQUIRE_DIRECTML:
        terminalreporter.write_sep("-", "DirectML")
        line = f"{len(_directml_passed)} DirectML tests passed, {len(_directml_skips)} skipped"
        if REQUIRE_DIRECTML:
            failed = _directml_run_is_incomplete(_session[0])
            line += " (FAILED: REQUIRE_DIRECTML=1 needs all of them to run)" if failed else " (REQUIRE_DIRECTML=1)"
        else:
            line += " (set REQUIRE_DIRECTML=1 to require them)"
        terminalreporter.write_line(line)
