"""Every job of the three workflows, under the environment GitHub gives it: the suite collects, and what is
required, run or skipped is what the job intends.

Each leg's variables come from its workflow file (tests/tools/run_workflow.py reads them as the runner
sets them: CI, GITHUB_ACTIONS, RUNNER_OS, the workflow's and the job's env:), with no browser and the data
the job fetches. site.yml's `test` leg runs through run_workflow.py itself, on main: every step as the
workflow lists them, its test step collecting only (the whole suite runs in .ci/run). RUNNER_OS=Windows
cannot be simulated on Linux: for the Windows jobs this tests what the suite decides from the variables;
what only Windows shows (the shell blocks running, torch-directml's adapters) is on the first-run page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from guide_harness import ROOT
from run_workflow import (
    environment_python,
    find_python,
    fresh_clone,
    job_environment,
    legs,
    load,
)

# Linux only: run_workflow.py runs the steps in bash with a Linux venv, and on Windows each nested run
# below would run the pages' shell blocks for real (70 runs, 17 pip installs, 600 s each: review B1).
pytestmark = pytest.mark.skipif(
    os.name == "nt", reason="simulates GitHub's jobs from Linux: run_workflow.py runs bash steps in a Linux venv"
)

DATA = "/usr/share/datasets/fashion-mnist"
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
    env["FASHION_MNIST_DIR"] = DATA  # what the job's fetch step leaves (the same four files)
    env["CHROMIUM"] = str(tmp_path / "no-chromium")  # no job installs the browser tools
    return env


def pytest_run(args: list[str], env: dict, timeout: int = 600) -> subprocess.CompletedProcess:
    """A nested run that installs nothing, whatever the leg says: it checks decisions, not the blocks."""
    env = {**env, "SHELL_BLOCK_INSTALLS": "none"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_every_job_is_covered():
    covered = {(w, j) for w, j, _, _ in JOBS}
    for workflow in ("site.yml", "windows.yml", "directml.yml"):
        for job, body in load(workflow)["jobs"].items():
            if any(
                "pytest" in str(s.get("run", "")) or "readme_commands.py run test" in str(s.get("run", ""))
                for s in body.get("steps") or []
            ):
                assert (workflow, job) in covered, f"{workflow}: job {job} runs the suite but has no leg test"


def _first_leg_of_each_job(cases):
    """site.yml's legs differ in what they collect; windows.yml's two only in the README's shell."""
    seen = set()
    for case in cases:
        workflow, job, leg = case.values[:3]
        key = (workflow, job, leg.get("group"))
        if key not in seen and (workflow, leg.get("group")) != ("site.yml", "test"):  # test: run_workflow.py below
            seen.add(key)
            yield case


@pytest.mark.parametrize("workflow, job, leg, tests, runner_os", list(_first_leg_of_each_job(leg_cases())))
def test_the_leg_collects(workflow, job, leg, tests, runner_os, tmp_path):
    result = pytest_run(["--collect-only", "-q", *tests], leg_env(workflow, job, leg, runner_os, tmp_path))
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-3000:]
    assert not re.search(r"\d+ errors?\b|ERROR collecting|Interrupted", out), out[-3000:]
    collected = int(re.search(r"(\d+) tests collected", out).group(1))
    assert collected >= (200 if tests else 900), out[-500:]


@pytest.mark.parametrize("workflow, job, leg, tests, runner_os", list(leg_cases()))
def test_what_the_leg_requires_and_skips(workflow, job, leg, tests, runner_os, tmp_path):
    env = leg_env(workflow, job, leg, runner_os, tmp_path)
    assert env["CI"] == env["GITHUB_ACTIONS"] == "true" and env["RUNNER_OS"] == runner_os
    result = pytest_run(
        [
            "-q",
            "-rs",
            "tests/site/test_site_browser.py",
            "tests/repo/test_ci_packages.py",
            "tests/pages/test_site_shell_blocks.py",
        ],
        env,
    )
    out = result.stdout
    # No browser anywhere: the browser tests skip with their reason, never fail: no job requires them.
    assert env.get("REQUIRE_BROWSER") != "1"
    assert "no Chromium at" in out and "Interrupted" not in out, out[-2000:]
    assert int(re.search(r"(\d+) passed[^\n]* in [\d.]+s", out).group(1)) >= 7, out[-2000:]  # the modules beside ran
    # DirectML: required on the GPU runner only (this machine has none: there, a failure, as intended).
    if env.get("REQUIRE_DIRECTML") == "1":
        assert (workflow, runner_os) == ("directml.yml", "Windows")
        assert result.returncode == 1 and "REQUIRE_DIRECTML=1 but torch-directml" in out, out[-2000:]
    else:
        assert result.returncode == 0 and "needs DirectML" in out, out[-2000:]
    # Data: every job that runs the suite fetches it and requires it.
    assert env.get("REQUIRE_DATA") == "1"
    # Installs in shell blocks: from PyPI on the hosted Windows job, none on the GPU PC (tests/shell_environments.py).
    expected = {"windows.yml": "pypi", "directml.yml": "none"}.get(workflow)
    assert env.get("SHELL_BLOCK_INSTALLS") == expected


@pytest.mark.slow
def test_site_test_leg_runs_as_the_workflow_lists_it_on_main():
    """run_workflow.py, as on a push to main: every step of the `test` leg, the build and the upload
    included; the test step collects (the whole suite runs in .ci/run)."""
    # This interpreter's environment, installed from the leg's group, stands in for the lock's install: on
    # GitHub's test leg that is setup-python's Python, and a second install would add 5.6 GB (review m2).
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "tools" / "run_workflow.py"),
            "--leg",
            "test",
            "--ref",
            "refs/heads/main",
            "--collect-only",
            "--environment",
            sys.prefix,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env={k: v for k, v in os.environ.items() if k not in SWITCHES},
    )
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-4000:]
    assert "run_workflow: all steps passed" in out
    assert re.search(r"\d{3,} tests collected", out)
    assert re.search(r"--- 1\. Check out: a fresh clone of HEAD in \S+", out)  # no site/, no .cache/ (review m1)
    assert f"--- 3. Install the dependency group, hash-locked: stood in: {sys.prefix}" in out
    assert "--- 8. Build the site (strict): exit 0" in out
    assert "::warning title=GitHub Pages is off::" in out  # no Pages here: the build goes on
    assert re.search(r"--- 9\. Upload the site for GitHub Pages: \S+github-pages\.tar", out)
    assert "=== job deploy: not run here" in out


def test_each_leg_starts_from_a_fresh_clone_of_head(tmp_path):
    """What actions/checkout gives: HEAD's files, nothing an earlier build or run left (site/, .cache/)."""
    work = fresh_clone(tmp_path)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    assert subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True).stdout == head
    tracked = subprocess.run(["git", "ls-files"], cwd=work, capture_output=True, text=True).stdout.split()
    assert "mkdocs.yml" in tracked and (work / "mkdocs.yml").is_file()
    assert not (work / ".cache").exists() and not (work / "site").exists() and not (work / ".venv").exists()


def test_the_legs_python_is_found_or_refused():
    here = f"{sys.version_info.major}.{sys.version_info.minor}"
    found = find_python(here)
    assert found and subprocess.run(
        [found, "-c", "import sys; print(sys.version_info[:2])"], capture_output=True, text=True
    ).stdout.strip() == str(sys.version_info[:2])
    assert find_python("3.99") is None


def test_a_stand_in_environment_without_python_is_refused_in_one_line(tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "tools" / "run_workflow.py"), "--environment", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [f"run_workflow: --environment {tmp_path}: no bin/python or bin/python3 there"]
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python3").symlink_to(sys.executable)  # setup-python's layout: bin/python3
    assert environment_python(tmp_path) == tmp_path / "bin" / "python3"
