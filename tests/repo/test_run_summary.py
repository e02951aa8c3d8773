"""tests/run_summary.py, the plugin that ends every run: it counts the site's builds and fails a run that
builds more than site_server.MAX_BUILDS times, and it counts the page blocks by their test function."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

from guide_harness import ROOT

TESTS = ROOT / "tests"

# A test that "builds" the site: it records a build as site_server.build does, without running MkDocs.
BUILDING = """
import site_server

def test_build_{n}(tmp_path):
    site_server.BUILDS.append((tmp_path, {{}}))
"""


def nested_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in tmp_path with the run summary plugin (tests/ and docs/hooks/ importable, as pyproject.toml
    sets them, and tmp_path: a plugin written there loads with -p), then what this run's PYTHONPATH holds."""
    paths = [str(ROOT / p) for p in ("tests", ".github/scripts", "docs/hooks")] + [str(tmp_path)]
    paths += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "run_summary",
         "--import-mode=importlib", "--rootdir", str(tmp_path), *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip


def run_with_builds(tmp_path: Path, builds: int, *args: str) -> subprocess.CompletedProcess:
    """A pytest run of ``builds`` such tests."""
    tests = tmp_path / "test_building.py"
    tests.write_text("".join(BUILDING.format(n=n) for n in range(builds)), encoding="utf-8")
    return nested_run(tmp_path, *args, str(tests))


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


def test_the_quick_tier_leaves_out_the_site_build_chromium_training_pypi_and_the_ci_checks():
    """The README's quick command selects by the marks tests/conftest.py sets from what a test asks for: a test
    that needs the built site or Chromium (directly or through a fixture that does) is `browser`, one in
    tests/repo or tests/scripts is `ci`, one that trains on real Fashion-MNIST is `train`, one that asks PyPI is
    `network`, and any other is `quick`, whatever folder it sits in."""
    spec = importlib.util.spec_from_file_location("tiers_under_test", ROOT / "tests" / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    tests = ROOT / "tests"

    def marks(folder: str, *fixtures: str, args: tuple = ()) -> list[str]:
        item = SimpleNamespace(path=tests / folder / "test_x.py", fixturenames=list(fixtures))
        item.iter_markers = lambda name: [SimpleNamespace(args=args)] if name == "args" and args else []
        return conftest.tier_marks(item)

    assert marks("guide", "built_site", "tmp_path") == ["browser"]  # a machinery check on the built pages
    assert marks("site", "site", "browser", "built_site") == ["browser"]  # `site` depends on built_site
    assert marks("site") == ["quick"]  # a test of tests/site that needs neither
    assert marks("repo", "tmp_path") == ["ci"] and marks("scripts") == ["ci"]
    assert marks("snippets", "fashion_mnist_root", "tmp_path") == ["train"]  # epochs on real data
    assert marks("snippets", "tmp_path") == ["quick"]
    assert marks("pages", "pypi_index") == ["network"]
    assert marks("pages", args=("--data-dir", "{fashion_mnist}")) == ["train"]  # a page block run with the data
    assert marks("pages", args=("--epochs", "1")) == ["quick"]
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert {m.split(":")[0] for m in markers["markers"]} >= {"browser", "ci", "train", "network", "quick"}
    quick = "-m pytest -n auto -m quick"
    assert quick in (ROOT / "README.md").read_text(encoding="utf-8")
