"""What each workflow leg's pytest selection runs on that leg's OS, computed from the files: the modules it
collects there (a module skipped on Windows drops out of a Windows leg) and the pages' shell blocks that run,
with their installs.

Each rule is a first Windows run that would fail: on a Windows leg the shell blocks run once, in the leg
itself, never again inside a nested suite; on the GPU PC no shell block that installs runs at all (it keeps
what a job leaves, so only the hash-locked step installs); and the environments they build fit the hosted
image's free disk (tests/windows_environments.json).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from guide_harness import ROOT, all_shell_blocks
from shell_environments import (
    environment_key,
    installs_setting,
    measured,
    peak_megabytes,
    runs_of,
    skip_reason,
)
from workflow_rules import leg_env, legs, load

SHELL_BLOCKS_MODULE = "tests/pages/test_site_shell_blocks.py"
# (workflow, job, the pytest selection of its test step, the OS of its runner); [] is the whole suite.
JOBS = [
    ("site.yml", "build", None, "Linux"),  # the legs' selections come from the matrix
    ("windows.yml", "readme", [], "Windows"),
    ("directml.yml", "gpu-tests", [], "Windows"),
]
# windows-2025 has about 31-33 GB free on C: (runner-images issues 12416, 12609); the plan stays under 5 GB.
HOSTED_WINDOWS_DISK_MB = 5 * 1024
HOSTED_TOOLS = {"pwsh", "powershell", "cmd"}
NESTED_PYTEST = re.compile(r"""["']-m["'],\s*["']pytest["']""")
TEST_PATH = re.compile(r"^tests/[\w/]+(\.py)?$")


def skipped_on_windows(source: str) -> bool:
    """The module's own `pytestmark = pytest.mark.skipif(<os.name or sys.platform>, reason=...)`."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            text = ast.unparse(node.value)
            if "skipif" in text and re.search(r"os\.name|sys\.platform", text) and "reason=" in text:
                return True
    return False


def modules(selection: list[str]) -> list[Path]:
    """The test files a selection collects ([] is the testpaths, tests/)."""
    found = set()
    for item in selection or ["tests"]:
        path = ROOT / item.split("::")[0]
        found |= {path} if path.is_file() else set(path.rglob("test_*.py"))
    return sorted(p for p in found if "node_modules" not in p.parts)


def test_no_test_runs_the_projects_own_tests_in_a_nested_suite():
    """A nested pytest run over the project's test files runs the pages' shell blocks again inside a Windows leg:
    70 runs, 17 of them pip installs, past the job's time limit. A nested run of a suite a test writes into
    tmp_path (no project path in the module) is fine."""
    found = []
    for path in modules([]):
        source = path.read_text(encoding="utf-8")
        if NESTED_PYTEST.search(source):
            found += [
                f"{path.relative_to(ROOT).as_posix()}: {node.value}"
                for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and TEST_PATH.match(node.value)
                and (ROOT / node.value).exists()
            ]
    assert not found, found


def what_runs(selection: list[str], runner_os: str, setting: str, blocks) -> tuple[list[Path], list]:
    """The modules a selection collects on ``runner_os``, and the shell-block runs among them."""
    on_windows = runner_os == "Windows"
    collected = [
        p for p in modules(selection) if not (on_windows and skipped_on_windows(p.read_text(encoding="utf-8")))
    ]
    if ROOT / SHELL_BLOCKS_MODULE not in collected:
        return collected, []
    runs = [
        (b, shell, environment_key(b))
        for b, shell in runs_of(blocks)
        if skip_reason(b, shell, on_windows, setting, have=HOSTED_TOOLS.__contains__) is None
    ]
    return collected, runs


def installs(runs) -> list:
    return [run for run in runs if re.search(r"pip3?\s+install", run[0].code)]


def leg_cases():
    for workflow, job, selection, runner_os in JOBS:
        body = load(workflow)["jobs"][job]
        for leg in legs(body):
            tests = selection if selection is not None else leg.get("tests", "").split()
            env = leg_env(load(workflow), body, leg)
            hosted = "self-hosted" not in str(body.get("runs-on"))
            name = f"{workflow}:{job}:{leg.get('group') or leg.get('shell') or ''}"
            yield pytest.param(tests, runner_os, installs_setting(env), hosted, id=name)


BLOCKS = all_shell_blocks()
FIGURES = measured(ROOT / "tests" / "windows_environments.json")
SIZES = {key: env["unpacked_mb"] for key, env in FIGURES["environments"].items()}
SUITE_MB = FIGURES["environments"]["the suite (--group test, the Windows lock)"]["unpacked_mb"]


def budget_problems(shell_runs: list, runner_os: str, hosted: bool) -> list:
    problems = []
    if not hosted and installs(shell_runs):
        problems.append(
            f"the GPU PC would run {len(installs(shell_runs))} shell blocks that pip-install without hashes"
        )
    if runner_os == "Windows" and hosted:
        peak = SUITE_MB + peak_megabytes([key for _, _, key in installs(shell_runs)], SIZES)
        if peak > HOSTED_WINDOWS_DISK_MB:
            problems.append(f"{peak:.0f} MB of environments at the peak, over {HOSTED_WINDOWS_DISK_MB} MB")
    return problems


@pytest.mark.parametrize("tests, runner_os, setting, hosted", list(leg_cases()))
def test_each_leg_fits_its_budget(tests, runner_os, setting, hosted):
    collected, shell_runs = what_runs(tests, runner_os, setting, BLOCKS)
    assert collected, "the leg collects nothing"
    assert budget_problems(shell_runs, runner_os, hosted) == []
    # The Windows legs run the pages' shell blocks; on Linux they skip.
    assert bool(shell_runs) == (runner_os == "Windows")
