"""The end of every run, as a pytest plugin (loaded by tests/conftest.py): the torch it tested, what
happened to the site's code and shell blocks (how many ran, which were skipped or are manual, and why),
and how many times the run built the site: more than site_server.MAX_BUILDS fails the run.

Under pytest-xdist (``-n``) the reports reach the controller, which prints this summary; each worker sends
the builds it made (site_server.BUILDS) in its workeroutput when it ends, and the controller counts them all.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import site_server

# The tests the summary counts, by their function (pytest's originalname), each tagged with its kind in
# item.user_properties at collection, which every report of the test carries.
# pytest-codeblocks' items (the pages' Python blocks, tests/codeblocks_run.py) are site blocks.
COUNTED = {
    ("test_site_shell_blocks.py", "test_site_shell_block_runs"): "site shell block",
}
KIND = "run_summary.kind"


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        if type(item).__name__ == "TestBlock":
            kind = "site block"
        else:
            kind = COUNTED.get((item.path.name, getattr(item, "originalname", item.name)))
        if kind:
            item.user_properties.append((KIND, kind))


def _of_kind(stats, kind: str) -> dict[str, list]:
    return {
        outcome: [r for r in stats.get(outcome, []) if (KIND, kind) in getattr(r, "user_properties", ())]
        for outcome in ("passed", "failed", "error", "skipped")
    }


def too_many_builds() -> str | None:
    """Why this run built the site too often, or None."""
    if len(site_server.BUILDS) <= site_server.MAX_BUILDS:
        return None
    builds = "; ".join(f"{folder.name} {urls or '(no URL variables)'}" for folder, urls in site_server.BUILDS)
    return (
        f"the site was built {len(site_server.BUILDS)} times, at most {site_server.MAX_BUILDS} allowed: "
        f"use the built_site fixture (tests/conftest.py). Builds: {builds}"
    )


WORKER_BUILDS = "run_summary.builds"


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: the controller counts and judges
        workeroutput[WORKER_BUILDS] = [(str(folder), urls) for folder, urls in site_server.BUILDS]
        return
    if too_many_builds() and exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    """xdist's controller, as each worker ends: the builds that worker made count as this run's."""
    builds = getattr(node, "workeroutput", {}).get(WORKER_BUILDS, [])
    site_server.BUILDS.extend((Path(folder), urls) for folder, urls in builds)


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


def pytest_report_header(config) -> str:
    return f"tested with {torch_versions()}"


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    terminalreporter.write_sep("-", "versions")
    terminalreporter.write_line(f"tested with {torch_versions()}")
    stats = terminalreporter.stats
    if site_server.BUILDS:
        terminalreporter.write_sep("-", "site builds")
        terminalreporter.write_line(
            f"full builds of the site: {len(site_server.BUILDS)} (at most {site_server.MAX_BUILDS})"
        )
        problem = too_many_builds()
        if problem:
            terminalreporter.write_line(f"error: {problem}", red=True)
    site = _of_kind(stats, "site block")
    if any(site.values()):
        ran = len(site["passed"]) + len(site["failed"])
        terminalreporter.write_sep("-", "site code blocks")
        terminalreporter.write_line(
            f"{ran} site blocks ran ({len(site['passed'])} passed, {len(site['failed'])} failed), "
            f"{len(site['skipped'])} skipped, {len(site['error'])} errors"
        )
        for report in site["skipped"]:
            terminalreporter.write_line(f"  skipped {report.nodeid.split('[', 1)[-1].rstrip(']')}: {_reason(report)}")
    shell = _of_kind(stats, "site shell block")
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
