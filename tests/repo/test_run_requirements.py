"""The run's switches: CI=true alone requires nothing; REQUIRE_BROWSER / REQUIRE_DATA make a missing need fail each
test that needs it, and never stop the run at collection (GitHub sets CI=true in every step)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

import pytest

from guide_harness import ROOT

SWITCHES = ("CI", "GITHUB_ACTIONS", "REQUIRE_BROWSER", "REQUIRE_DATA", "REQUIRE_DIRECTML")
# The module run beside the browser tests: all its tests pass wherever they run.
BESIDE = ROOT / "tests" / "scripts" / "test_ci_packages.py"
BESIDE_TESTS = len(re.findall(r"^def test_", BESIDE.read_text(encoding="utf-8"), re.M))


def pytest_run(tmp_path, args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in SWITCHES}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.parametrize("env", [{}, {"CI": "true", "GITHUB_ACTIONS": "true"}], ids=["local", "CI=true"])
def test_no_browser_is_a_skip_unless_required(tmp_path, env):
    tests = ["tests/site/test_site_browser.py", "tests/scripts/test_ci_packages.py"]
    result = pytest_run(tmp_path, tests, CHROMIUM=str(tmp_path / "none"), **env)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert f"{BESIDE_TESTS} passed, 1 skipped" in out and "no Chromium at" in out
    assert "Interrupted" not in out


def test_required_browser_fails_each_test_and_collection_goes_on(tmp_path):
    result = pytest_run(
        tmp_path,
        ["tests/site/test_site_browser.py", "tests/scripts/test_ci_packages.py"],
        CHROMIUM=str(tmp_path / "none"),
        CI="true",
        REQUIRE_BROWSER="1",
    )
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "Interrupted" not in out and "error during collection" not in out
    assert "REQUIRE_BROWSER=1 but the browser tests cannot run: no Chromium at" in out
    assert f"{BESIDE_TESTS} passed" in out  # the other module still ran


def first_test_using(module: str, fixture: str) -> str:
    """The node id of the first test in ``module`` that asks for ``fixture`` (read from its source)."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            if fixture in {a.arg for a in node.args.args}:
                return f"{module}::{node.name}"
    raise AssertionError(f"no test of {module} asks for {fixture}")


# A test of each data fixture (check_mnist_files' own fixture once skipped by itself, unlike the others), alone: the
# fixture decides, so one test of each says what all of them do (the whole modules took minutes).
@pytest.mark.parametrize(
    "module, fixture",
    [
        ("tests/snippets/test_mnist_data.py", "fashion_mnist_root"),
        ("tests/snippets/test_check_mnist_files.py", "gz_copy"),
    ],
)
def test_missing_data_is_a_skip_under_ci_and_a_failure_when_required(tmp_path, module, fixture):
    test = first_test_using(module, fixture)
    empty = tmp_path / "no-data"
    skipped = pytest_run(tmp_path, [test], CI="true", FASHION_MNIST_DIR=str(empty))
    assert skipped.returncode == 0, skipped.stdout
    assert re.search(r"SKIPPED .*Fashion-MNIST (\.gz files )?(is|are) missing", skipped.stdout), skipped.stdout[-2000:]
    failed = pytest_run(tmp_path, [test], CI="true", REQUIRE_DATA="1", FASHION_MNIST_DIR=str(empty))
    assert failed.returncode == 1, failed.stdout[-2000:]
    assert re.search(r"REQUIRE_DATA=1 but Fashion-MNIST (\.gz files )?(is|are) missing", failed.stdout)
    assert "skipped" not in failed.stdout.splitlines()[-1], failed.stdout.splitlines()[-1]
