"""Every job of the three workflows that runs the suite, read statically: what it requires (data, DirectML)
and what it installs in shell blocks, from the variables GitHub gives it (tests/tools/run_workflow.py reads
them as the runner sets them: CI, GITHUB_ACTIONS, RUNNER_OS, the workflow's and the job's env:), and that
the tests it names exist. What the suite decides from those variables (skip or fail) is held by
tests/repo/test_run_requirements.py and tests/repo/test_directml_marker.py on small files of their own;
this file no longer starts a nested collection of the whole suite per leg (issue 39).
"""

from __future__ import annotations

import os

import pytest

from guide_harness import ROOT
from run_workflow import job_environment, legs, load

SWITCHES = (
    "CI",
    "GITHUB_ACTIONS",
    "RUNNER_OS",
    "REQUIRE_BROWSER",
    "REQUIRE_DATA",
    "REQUIRE_DIRECTML",
    "SHELL_BLOCK_INSTALLS",
    "DIRECTML_ALLOW_SOFTWARE_ADAPTER",
    "FASHION_MNIST_DIR",
    "CHROMIUM",
)
# (workflow, job, the pytest arguments of its test step, the OS of its runner)
JOBS = [
    ("site.yml", "build", None, "Linux"),  # its legs' tests come from the matrix
    ("windows.yml", "readme", [], "Windows"),  # the README's test command: the whole suite
    ("directml.yml", "gpu-tests", [], "Windows"),
]


def leg_cases():
    for workflow, job, args, runner_os in JOBS:
        for leg in legs(load(workflow)["jobs"][job]):
            tests = args if args is not None else leg.get("tests", "").split()
            name = f"{workflow}:{job}:{leg.get('group') or leg.get('shell') or ''}"
            yield pytest.param(workflow, job, leg, tests, runner_os, id=name)


def leg_env(workflow: str, job: str, leg: dict, runner_os: str, tmp_path) -> dict[str, str]:
    wf = load(workflow)
    env = {k: v for k, v in os.environ.items() if k not in SWITCHES}
    env.update(job_environment(wf, wf["jobs"][job], leg, runner_os, str(tmp_path)))
    return env


def test_every_job_is_covered():
    covered = {(w, j) for w, j, _, _ in JOBS}
    for workflow in ("site.yml", "windows.yml", "directml.yml"):
        for job, body in load(workflow)["jobs"].items():
            if any(
                "pytest" in str(s.get("run", "")) or "readme_commands.py run test" in str(s.get("run", ""))
                for s in body.get("steps") or []
            ):
                assert (workflow, job) in covered, f"{workflow}: job {job} runs the suite but has no leg case"


def test_what_each_leg_requires_and_installs(tmp_path):
    """One check over every leg, every failure listed."""
    problems = []
    for case in leg_cases():
        workflow, job, leg, tests, runner_os = case.values
        name = case.id
        env = leg_env(workflow, job, leg, runner_os, tmp_path)
        if not (env.get("CI") == env.get("GITHUB_ACTIONS") == "true" and env.get("RUNNER_OS") == runner_os):
            problems.append(f"{name}: not GitHub's CI variables")
        if env.get("REQUIRE_DATA") != "1":
            problems.append(f"{name}: does not require the data it fetches (REQUIRE_DATA=1)")
        if (env.get("REQUIRE_DIRECTML") == "1") != (workflow == "directml.yml"):
            problems.append(f"{name}: REQUIRE_DIRECTML={env.get('REQUIRE_DIRECTML')} (only the GPU runner requires it)")
        if env.get("REQUIRE_BROWSER") == "1":
            problems.append(f"{name}: requires a browser that no job installs")
        installs = {"windows.yml": "pypi", "directml.yml": "none"}.get(workflow)
        if env.get("SHELL_BLOCK_INSTALLS") != installs:
            problems.append(f"{name}: SHELL_BLOCK_INSTALLS={env.get('SHELL_BLOCK_INSTALLS')}, not {installs}")
        for test in tests:
            if not test.startswith("-") and not (ROOT / test.split("::")[0]).exists():
                problems.append(f"{name}: names {test}, which does not exist")
    assert not problems, "\n".join(problems)
