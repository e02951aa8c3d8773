"""What a Windows leg of a workflow runs, computed from the files: the pages' shell blocks run there once, in the
leg itself, never again inside a nested suite, and the environments they build fit the hosted image's free disk
(tests/windows_environments.json). Each rule is a first Windows run that would fail. (The GPU PC runs no block
that installs: tests/pages/test_shell_block_budget.py and tests/repo/test_workflows.py.)
"""

from __future__ import annotations

import ast
import re

import pytest

from guide_harness import ROOT, all_shell_blocks
from shell_environments import environment_key, installs_setting, measured, peak_megabytes, runs_of, skip_reason
from workflow_rules import leg_env, legs, load, runs_on_labels

# windows-2025 has about 31-33 GB free on C: (runner-images issues 12416, 12609); the plan stays under 5 GB.
HOSTED_WINDOWS_DISK_MB = 5 * 1024
HOSTED_TOOLS = {"pwsh", "powershell", "cmd"}
NESTED_PYTEST = re.compile(r"""["']-m["'],\s*["']pytest["']""")
TEST_PATH = re.compile(r"^tests/[\w/]+(\.py)?$")


def test_no_test_runs_the_projects_own_tests_in_a_nested_suite():
    """A nested pytest run over the project's test files runs the pages' shell blocks again inside a Windows leg:
    70 runs, 17 of them pip installs, past the job's time limit. A nested run of a suite a test writes into
    tmp_path (no project path in the module) is fine."""
    found = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        if "node_modules" in path.parts or not NESTED_PYTEST.search(source):
            continue
        found += [
            f"{path.relative_to(ROOT).as_posix()}: {node.value}"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and TEST_PATH.match(node.value)
            and (ROOT / node.value).exists()
        ]
    assert not found, found


def hosted_windows_legs():
    """The legs of the one hosted Windows job that runs the suite (tests/repo/test_workflows.py: SUITE_JOBS)."""
    workflow = load("windows.yml")
    job = workflow["jobs"]["readme"]
    assert "self-hosted" not in runs_on_labels(job)
    for leg in legs(job):
        yield pytest.param(installs_setting(leg_env(workflow, job, leg)), id=f"windows.yml:readme:{leg}")


FIGURES = measured(ROOT / "tests" / "windows_environments.json")
SIZES = {key: env["unpacked_mb"] for key, env in FIGURES["environments"].items()}
SUITE_MB = FIGURES["environments"]["the suite (--group test, the Windows lock)"]["unpacked_mb"]


@pytest.mark.parametrize("setting", list(hosted_windows_legs()))
def test_each_hosted_windows_leg_fits_the_disk(setting):
    installs = [
        environment_key(block)
        for block, shell in runs_of(all_shell_blocks())
        if skip_reason(block, shell, True, setting, have=HOSTED_TOOLS.__contains__) is None
        and re.search(r"pip3?\s+install", block.code)
    ]
    peak = SUITE_MB + peak_megabytes(installs, SIZES)
    assert peak <= HOSTED_WINDOWS_DISK_MB, (
        f"{peak:.0f} MB of environments at the peak, over {HOSTED_WINDOWS_DISK_MB} MB"
    )
