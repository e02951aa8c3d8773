"""What the workflow tests share: the workflow files, reading them, and the rules more than one
workflow's tests apply (least privilege, the test data). Moved from tests/repo/test_workflows.py."""

from __future__ import annotations

import re
import shutil
import sysconfig
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
GITHUB_DIR = ROOT / ".github"
WORKFLOWS_DIR = GITHUB_DIR / "workflows"
SITE = WORKFLOWS_DIR / "site.yml"
DIRECTML = WORKFLOWS_DIR / "directml.yml"
FRESHNESS = WORKFLOWS_DIR / "freshness.yml"
WORKFLOW_FILES = sorted(WORKFLOWS_DIR.glob("*.y*ml"))

DIRECTML_LABELS = {"self-hosted", "windows", "x64", "directml"}
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)\s*(#.*)?$")
VERSION_COMMENT = re.compile(r"#\s*v\d+(\.\d+)*\b")
WINDOWS = WORKFLOWS_DIR / "windows.yml"


# --- helpers -----------------------------------------------------------------


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def triggers(workflow: dict) -> dict:
    """The `on:` block as a dict. PyYAML (YAML 1.1) reads the key `on` as True."""
    on = workflow.get("on", workflow.get(True))
    if on is None:
        return {}
    if isinstance(on, str):
        return {on: None}
    if isinstance(on, list):
        return {name: None for name in on}
    return dict(on)


def steps(job: dict) -> list:
    return job.get("steps") or []


def effective_env(workflow: dict, job: dict, step: dict) -> dict:
    env = {}
    for level in (workflow, job, step):
        env.update({k: str(v) for k, v in (level.get("env") or {}).items()})
    return env


def runs_on_labels(job: dict) -> set:
    runs_on = job.get("runs-on")
    if isinstance(runs_on, str):
        runs_on = [runs_on]
    if isinstance(runs_on, dict):  # {group: ..., labels: [...]}
        runs_on = runs_on.get("labels") or []
        runs_on = [runs_on] if isinstance(runs_on, str) else runs_on
    return {str(label).lower() for label in (runs_on or [])}


def find_tool(name: str) -> str:
    """The tool installed next to this interpreter (the venv), else on PATH."""
    found = shutil.which(name, path=sysconfig.get_path("scripts")) or shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed; install the `test` dependency group")
    return found


# --- rules (each returns a list of problems) ---------------------------------


# A write scope beyond Pages and OIDC, allowed to one job of one workflow only.
EXTRA_WRITES = {
    ("freshness.yml", "report"): {"issues"},
    ("run-report.yml", "comment"): {"issues"},
    ("run-report.yml", "propose"): {"contents", "pull-requests", "actions"},
}


def least_privilege_problems(workflow: dict, file_name: str = "") -> list:
    problems = []
    if workflow.get("permissions") != {}:
        problems.append(f"top-level permissions are {workflow.get('permissions')!r}, not {{}}")
    for name, job in (workflow.get("jobs") or {}).items():
        perms = job.get("permissions")
        if not isinstance(perms, dict):
            problems.append(f"job {name}: permissions must be an explicit mapping")
            continue
        for scope, level in perms.items():
            if level == "write" and scope not in {"pages", "id-token"} | EXTRA_WRITES.get((file_name, name), set()):
                problems.append(f"job {name}: {scope}: write is not allowed")
    return problems


FETCHER = re.compile(r"tests[\\/]tools[\\/]fetch_fashion_mnist\.py\b")
SUITE = re.compile(r"-m pytest\b|readme_commands\.py run test\b")


def data_problems(workflow: dict) -> list:
    """A job that runs the suite fetches Fashion-MNIST with the one fetcher, cached, and points the suite at it."""
    problems = []
    for name, job in (workflow.get("jobs") or {}).items():
        job_steps = steps(job)
        runs = [str(s.get("run", "")) for s in job_steps]
        suite = [i for i, r in enumerate(runs) if SUITE.search(r)]
        if not suite:
            continue
        fetch = [i for i, r in enumerate(runs) if FETCHER.search(r)]
        cache = [i for i, s in enumerate(job_steps) if str(s.get("uses", "")).startswith("actions/cache@")]
        if "torchvision.datasets.FashionMNIST(" in "".join(runs):
            problems.append(f"job {name}: downloads with torchvision instead of .github/scripts/fetch_fashion_mnist.py")
        if not fetch or fetch[0] > suite[0]:
            problems.append(f"job {name}: does not run .github/scripts/fetch_fashion_mnist.py before the suite")
            continue
        if "self-hosted" in runs_on_labels(job):
            # The GPU PC keeps what a job writes; a cache restore unpacks a tar (absolute paths allowed)
            # before the fetcher checks anything. It fetches every time (30 MB, SHA-256 checked).
            if cache:
                problems.append(f"job {name}: no actions/cache on the self-hosted runner")
        elif not cache or cache[0] > fetch[0]:
            problems.append(f"job {name}: no actions/cache step before the fetch")
        else:
            cached = str((job_steps[cache[0]].get("with") or {}).get("path", ""))
            if "fashion-mnist" not in cached or "hashFiles('.github/scripts/fetch_fashion_mnist.py')" not in str(
                (job_steps[cache[0]].get("with") or {}).get("key", "")
            ):
                problems.append(f"job {name}: the cache must hold the fetched folder, keyed on the fetcher")
        if (job.get("env") or {}).get("REQUIRE_DATA") != "1":
            problems.append(
                f'job {name}: fetches the data but does not set REQUIRE_DATA: "1" (a missing file would skip)'
            )
        if "fashion-mnist" not in runs[fetch[0]]:
            problems.append(f"job {name}: the fetcher does not write the fashion-mnist folder")
        if not re.search(r"FASHION_MNIST_DIR\W+.*fashion-mnist", runs[suite[0]]):
            problems.append(f"job {name}: the suite's FASHION_MNIST_DIR is not the fetched folder")
    return problems
