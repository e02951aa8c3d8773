"""tests/run_summary.py, the plugin that ends every run: it counts the site's builds and fails a run that
builds more than site_server.MAX_BUILDS times, and it counts the page blocks by their test function."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from guide_harness import ROOT

TESTS = ROOT / "tests"

# A test that "builds" the site: it records a build as site_server.build does, without running MkDocs.
BUILDING = """
import site_server

def test_build_{n}(tmp_path):
    site_server.BUILDS.append((tmp_path, {{}}))
"""


def run_with_builds(tmp_path: Path, builds: int) -> subprocess.CompletedProcess:
    """A pytest run of ``builds`` such tests, with the run summary plugin (tests/ and docs/hooks/ importable, as pyproject.toml sets them)."""
    tests = tmp_path / "test_building.py"
    tests.write_text("".join(BUILDING.format(n=n) for n in range(builds)), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in ("tests", "tests/tools", "docs/hooks")))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "run_summary",
         "--rootdir", str(tmp_path), str(tests)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip


def test_a_run_with_a_third_build_fails(tmp_path):
    result = run_with_builds(tmp_path, 3)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "3 passed" in result.stdout and "built 3 times, at most 2" in result.stdout, result.stdout


def test_two_builds_pass_and_are_counted(tmp_path):
    result = run_with_builds(tmp_path, 2)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "full builds of the site: 2 (at most 2)" in result.stdout, result.stdout


def _builds_mkdocs(node: ast.Call) -> bool:
    strings = [a.value for a in ast.walk(node) if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return "mkdocs" in strings and "build" in strings


def test_only_site_server_builds_this_checkouts_site():
    """Every test that needs the built site asks for built_site; a test may build only a copy of the
    site's sources in its tmp_path (cwd=tmp_path), which is not the run's site and is not counted."""
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if "node_modules" in path.parts or path == TESTS / "site_server.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _builds_mkdocs(node):
                cwd = next((k.value for k in node.keywords if k.arg == "cwd"), None)
                if not (isinstance(cwd, ast.Name) and cwd.id == "tmp_path"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"full builds outside tests/site_server.py (use the built_site fixture): {found}"


def test_the_slow_tier_is_the_whole_site_sweeps_and_the_ci_self_simulation():
    """`pytest -m "not slow"` (the README's quick run) leaves out exactly these, and CI runs them."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only", "-m", "slow",
         "tests/site", "tests/repo/test_workflow_legs.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, REQUIRE_BROWSER="1"),  # collected even where the browser tests would skip
    )  # fmt: skip
    slow = {line.split("[")[0] for line in result.stdout.splitlines() if "::" in line}
    assert slow == {
        "tests/site/test_site_links.py::test_every_heading_link_lands_on_its_heading",
        "tests/site/test_site_browser.py::test_axe_finds_no_violations",
        "tests/repo/test_workflow_legs.py::test_site_test_leg_runs_as_the_workflow_lists_it_on_main",
    }, result.stdout + result.stderr
    assert '-m pytest -m "not slow"' in (ROOT / "README.md").read_text(encoding="utf-8")
