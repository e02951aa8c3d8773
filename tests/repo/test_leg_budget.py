"""What each workflow leg's pytest selection runs on that leg's OS, computed from the files: the modules it
collects there (a module skipped on Windows drops out of a Windows leg), the nested suites they start over the
project's own test files, and the pages' shell blocks that run, outer and nested, with their installs.

Each rule is a first Windows run that would fail: on a Windows leg the shell blocks run once, in the leg
itself, never again inside a nested suite (each repeats 70 runs, 17 of them pip installs, past the job's time
limit); on the GPU PC no shell block that installs runs at all (it keeps what a job leaves, so only the
hash-locked step installs); and the environments they build fit the hosted image's free disk
(tests/windows_environments.json).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from guide_harness import ROOT, all_shell_blocks
from shell_environments import (
    INSTALLS_VARIABLE,
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


def nested(path: Path) -> tuple[list[str], str] | None:
    """(the project's test files a module's nested pytest runs select, their installs setting), or None."""
    source = path.read_text(encoding="utf-8")
    if not NESTED_PYTEST.search(source):
        return None
    paths = sorted(
        {
            node.value
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and TEST_PATH.match(node.value)
            and (ROOT / node.value).exists()
        }
    )
    if not paths:
        return None  # it runs a suite it writes into tmp_path
    forced = re.search(rf"""["']{INSTALLS_VARIABLE}["']:\s*["']none["']""", source)
    return paths, "none" if forced else "pypi"


def what_runs(selection: list[str], runner_os: str, setting: str, blocks) -> dict:
    """Modules, nested suites and shell-block runs (outer and nested) of a selection on ``runner_os``."""
    on_windows = runner_os == "Windows"
    plan = {"modules": [], "nested": [], "shell runs": [], "nested shell runs": []}

    def shell_runs(installs: str) -> list:
        return [
            (b, shell, environment_key(b))
            for b, shell in runs_of(blocks)
            if skip_reason(b, shell, on_windows, installs, have=HOSTED_TOOLS.__contains__) is None
        ]

    def visit(paths: list[str], installs: str, depth: int) -> None:
        for path in modules(paths):
            if on_windows and skipped_on_windows(path.read_text(encoding="utf-8")):
                continue
            name = path.relative_to(ROOT).as_posix()
            if depth == 0:
                plan["modules"].append(name)
            if name == SHELL_BLOCKS_MODULE:
                plan["shell runs" if depth == 0 else "nested shell runs"] += shell_runs(installs)
            inner = nested(path)
            if inner and depth < 3:
                plan["nested"].append((name, inner[0]))
                visit(*inner, depth + 1)

    visit(selection, setting, 0)
    return plan


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


def budget_problems(plan: dict, runner_os: str, hosted: bool) -> list:
    problems = []
    if runner_os == "Windows" and plan["nested shell runs"]:
        problems.append(
            f"{len(plan['nested shell runs'])} shell-block runs again inside nested suites "
            f"({len(installs(plan['nested shell runs']))} installs): {plan['nested']}"
        )
    if not hosted:
        unhashed = installs(plan["shell runs"] + plan["nested shell runs"])
        if unhashed:
            problems.append(f"the GPU PC would run {len(unhashed)} shell blocks that pip-install without hashes")
    if runner_os == "Windows" and hosted:
        peak = SUITE_MB + peak_megabytes([key for _, _, key in installs(plan["shell runs"])], SIZES)
        if peak > HOSTED_WINDOWS_DISK_MB:
            problems.append(f"{peak:.0f} MB of environments at the peak, over {HOSTED_WINDOWS_DISK_MB} MB")
    return problems


@pytest.mark.parametrize("tests, runner_os, setting, hosted", list(leg_cases()))
def test_each_leg_fits_its_budget(tests, runner_os, setting, hosted):
    plan = what_runs(tests, runner_os, setting, BLOCKS)
    assert plan["modules"], "the leg collects nothing"
    assert budget_problems(plan, runner_os, hosted) == []
    if runner_os == "Windows":
        assert plan["shell runs"], "the Windows legs run the pages' shell blocks"
    else:
        assert plan["shell runs"] == plan["nested shell runs"] == []  # Linux: shell blocks skip
