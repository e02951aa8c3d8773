"""Checks on the GitHub Actions workflows in .github/workflows/.

* zizmor (static security analysis) finds nothing, offline;
* the workflows validate against the GitHub workflow JSON schema (check-jsonschema);
* structural rules: least privilege, SHA-pinned actions, and a DirectML workflow
  that can never run code from a pull request.

Each rule is a function that returns a list of problems, so the same code checks
the real files and deliberately broken copies (to prove that the rule can fail).
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
GITHUB_DIR = ROOT / ".github"
WORKFLOWS_DIR = GITHUB_DIR / "workflows"
SITE = WORKFLOWS_DIR / "site.yml"
DIRECTML = WORKFLOWS_DIR / "directml.yml"
WORKFLOW_FILES = sorted(WORKFLOWS_DIR.glob("*.y*ml"))

DIRECTML_LABELS = {"self-hosted", "windows", "x64", "directml"}
SHA_PIN = re.compile(r"^[^@\s]+@[0-9a-f]{40}$")
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)\s*(#.*)?$")
VERSION_COMMENT = re.compile(r"#\s*v\d+(\.\d+)*\b")


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


def least_privilege_problems(workflow: dict) -> list:
    problems = []
    if workflow.get("permissions") != {}:
        problems.append(f"top-level permissions are {workflow.get('permissions')!r}, not {{}}")
    for name, job in (workflow.get("jobs") or {}).items():
        perms = job.get("permissions")
        if not isinstance(perms, dict):
            problems.append(f"job {name}: permissions must be an explicit mapping")
            continue
        for scope, level in perms.items():
            if level == "write" and scope not in {"pages", "id-token"}:
                problems.append(f"job {name}: {scope}: write is not allowed")
    return problems


def pinning_problems(text: str) -> list:
    """Every `uses:` is a local action or pinned to a full commit SHA with a version comment."""
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        match = USES_LINE.match(line)
        if not match:
            continue
        target, comment = match.group(1), match.group(2) or ""
        if target.startswith("./"):
            continue
        if not SHA_PIN.match(target):
            problems.append(f"line {number}: {target} is not pinned to a 40-hex commit SHA")
        elif not VERSION_COMMENT.search(comment):
            problems.append(f"line {number}: {target} has no '# vX.Y.Z' version comment")
    return problems


def checkout_problems(workflow: dict) -> list:
    problems = []
    for name, job in (workflow.get("jobs") or {}).items():
        for step in steps(job):
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                if (step.get("with") or {}).get("persist-credentials") is not False:
                    problems.append(f"job {name}: checkout without persist-credentials: false")
    return problems


def directml_problems(workflow: dict) -> list:
    problems = []
    on = triggers(workflow)
    if set(on) != {"push", "workflow_dispatch"}:
        problems.append(f"triggers are {sorted(map(str, on))}, not push + workflow_dispatch")
    for forbidden in ("pull_request", "pull_request_target", "workflow_run", "issue_comment"):
        if forbidden in on:
            problems.append(f"forbidden trigger {forbidden}")
    if "push" in on and on["push"] != {"branches": ["main"]}:
        problems.append(f"push trigger is {on['push']!r}, not {{branches: [main]}}")
    concurrency = workflow.get("concurrency") or {}
    if not concurrency.get("group") or concurrency.get("cancel-in-progress") is not False:
        problems.append("needs a concurrency group with cancel-in-progress: false")

    jobs = workflow.get("jobs") or {}
    if not jobs:
        problems.append("no jobs")
    for name, job in jobs.items():
        if runs_on_labels(job) != DIRECTML_LABELS:
            problems.append(f"job {name}: runs-on {job.get('runs-on')!r}")
        if not isinstance(job.get("timeout-minutes"), int):
            problems.append(f"job {name}: no timeout-minutes")
        if job.get("permissions") not in ({}, {"contents": "read"}):
            problems.append(f"job {name}: permissions {job.get('permissions')!r}")
        run_steps = [s for s in steps(job) if "run" in s]
        verify = [
            i for i, s in enumerate(run_steps)
            if re.search(r"snippets[\\/]verify_directml\.py", s["run"])
        ]
        suite = [
            i for i, s in enumerate(run_steps)
            if re.search(r"-m pytest\b", s["run"]) and "--junitxml" in s["run"]
        ]
        if not verify:
            problems.append(f"job {name}: does not run snippets/verify_directml.py")
        if not suite:
            problems.append(f"job {name}: does not run `python -m pytest --junitxml=...`")
        if verify and suite and verify[0] > suite[0]:
            problems.append(f"job {name}: verification must run before the suite")
        for i in suite:
            if effective_env(workflow, job, run_steps[i]).get("REQUIRE_DIRECTML") != "1":
                problems.append(f"job {name}: the suite runs without REQUIRE_DIRECTML=1")
        uploads = [s for s in steps(job) if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
        if not uploads:
            problems.append(f"job {name}: no actions/upload-artifact step for the JUnit report")
    return problems


# --- tests: external tools ------------------------------------------------------


def test_there_are_workflows():
    assert SITE in WORKFLOW_FILES and DIRECTML in WORKFLOW_FILES


@pytest.mark.parametrize("persona", ["regular", "auditor"])
def test_zizmor_finds_nothing(persona):
    # Ignores are inline `# zizmor: ignore[...]` comments, each with its reason.
    result = subprocess.run(
        [find_tool("zizmor"), "--offline", f"--persona={persona}", "--format=json", str(GITHUB_DIR)],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    findings = json.loads(result.stdout or "null")
    assert findings == [], json.dumps(findings, indent=1)[:4000]
    assert result.returncode == 0, result.stderr[-2000:]


def test_zizmor_catches_a_bad_workflow(tmp_path):
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request_target\n"
        "jobs:\n"
        "  build:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - uses: actions/checkout@v5\n"
        "        with:\n"
        "          ref: ${{ github.event.pull_request.head.sha }}\n"
        "      - run: echo ${{ github.event.pull_request.title }}\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [find_tool("zizmor"), "--offline", "--format=json", str(tmp_path / ".github")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    idents = {finding["ident"] for finding in json.loads(result.stdout)}
    assert {"unpinned-uses", "template-injection", "dangerous-triggers"} <= idents
    assert result.returncode != 0


def _check_jsonschema(*paths):
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema",
         "--builtin-schema", "vendor.github-workflows", *map(str, paths)],
        capture_output=True, text=True, timeout=300,
    )


def test_workflows_match_the_github_workflow_schema():
    result = _check_jsonschema(*WORKFLOW_FILES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_schema_check_rejects_an_invalid_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n"
        "    timeout-minutes: soon\n    steps:\n      - nme: typo\n",
        encoding="utf-8",
    )
    result = _check_jsonschema(bad)
    assert result.returncode != 0


# --- tests: rules on the real files -----------------------------------------------


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_least_privilege(path):
    assert least_privilege_problems(load(path)) == []


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_commit_sha(path):
    text = path.read_text(encoding="utf-8")
    assert "uses:" in text
    assert pinning_problems(text) == []


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_checkout_does_not_persist_credentials(path):
    assert checkout_problems(load(path)) == []


def test_directml_workflow():
    assert directml_problems(load(DIRECTML)) == []


def test_directml_sets_require_directml_and_the_labels_literally():
    workflow = load(DIRECTML)
    (job,) = workflow["jobs"].values()
    assert job["env"]["REQUIRE_DIRECTML"] == "1"
    assert job["runs-on"] == ["self-hosted", "windows", "x64", "directml"]
    assert triggers(workflow) == {"push": {"branches": ["main"]}, "workflow_dispatch": None}


def test_directml_workflow_fetches_the_test_data():
    (job,) = load(DIRECTML)["jobs"].values()
    runs = [s.get("run", "") for s in steps(job)]
    fetch = next(i for i, r in enumerate(runs) if "torchvision.datasets.FashionMNIST(" in r)
    suite = next(i for i, r in enumerate(runs) if "-m pytest" in r)
    assert fetch < suite and "FASHION_MNIST_DIR" in runs[suite]


def test_site_workflow():
    workflow = load(SITE)
    assert set(triggers(workflow)) == {"push", "pull_request", "workflow_dispatch"}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert build["runs-on"] == "ubuntu-latest"
    assert build["permissions"] == {"contents": "read"}
    runs = "\n".join(s.get("run", "") for s in steps(build))
    # The real-data tests need Fashion-MNIST (they fail, not skip, when CI is set and it is missing).
    assert "torchvision.datasets.FashionMNIST(" in runs and "download=True" in runs
    assert "FASHION_MNIST_DIR" in runs
    assert 'python -m pip install -U "pip>=25.1"' in runs
    assert 'python -m pip install --group "$GROUP"' in runs
    assert "python -m pytest $TESTS" in runs
    assert "mkdocs build --strict" in runs
    # Two legs: the whole suite on torch-directml's pins, and the README's current-torch tests.
    legs = {leg["group"]: leg["tests"] for leg in build["strategy"]["matrix"]["include"]}
    assert legs == {"test": "", "test-current": "tests/snippets tests/test_site_blocks.py"}
    assert build["env"] == {"GROUP": "${{ matrix.group }}", "TESTS": "${{ matrix.tests }}"}
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    assert set(legs) <= set(groups)
    assert build["strategy"]["fail-fast"] is False
    site_build = next(s for s in steps(build) if "mkdocs build" in s.get("run", ""))
    assert site_build["if"] == "matrix.group == 'test'"
    python = [s for s in steps(build) if str(s.get("uses", "")).startswith("actions/setup-python@")]
    assert python and python[0]["with"]["python-version"] == "3.12"
    upload = [s for s in steps(build) if str(s.get("uses", "")).startswith("actions/upload-pages-artifact@")]
    assert upload and "refs/heads/main" in upload[0]["if"] and "push" in upload[0]["if"]
    assert "matrix.group == 'test'" in upload[0]["if"]  # one artifact, from the leg that built the site
    # Deploy: only on a push to main, only Pages + OIDC, serialized, never cancelled.
    assert "github.event_name == 'push'" in deploy["if"]
    assert "github.ref == 'refs/heads/main'" in deploy["if"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    assert any(str(s.get("uses", "")).startswith("actions/deploy-pages@") for s in steps(deploy))


# --- tests: the rules can fail ------------------------------------------------------


def _mutants():
    base = load(DIRECTML)
    on_key = "on" if "on" in base else True

    def mutate(change):
        wf = copy.deepcopy(base)
        change(wf)
        return wf

    job = next(iter(base["jobs"]))
    return {
        "pull_request": mutate(lambda wf: wf[on_key].update({"pull_request": None})),
        "pull_request_target": mutate(lambda wf: wf[on_key].update({"pull_request_target": {"branches": ["main"]}})),
        "push to any branch": mutate(lambda wf: wf[on_key].update({"push": None})),
        "push to a feature branch": mutate(lambda wf: wf[on_key].update({"push": {"branches": ["main", "feature/*"]}})),
        "no REQUIRE_DIRECTML": mutate(lambda wf: wf["jobs"][job]["env"].pop("REQUIRE_DIRECTML")),
        "REQUIRE_DIRECTML=0": mutate(lambda wf: wf["jobs"][job]["env"].update({"REQUIRE_DIRECTML": "0"})),
        "hosted runner": mutate(lambda wf: wf["jobs"][job].update({"runs-on": "windows-latest"})),
        "cancel in progress": mutate(lambda wf: wf["concurrency"].update({"cancel-in-progress": True})),
        "no timeout": mutate(lambda wf: wf["jobs"][job].pop("timeout-minutes")),
        "write token": mutate(lambda wf: wf["jobs"][job].update({"permissions": {"contents": "write"}})),
    }


@pytest.mark.parametrize("name", list(_mutants()))
def test_directml_rule_catches(name):
    assert directml_problems(_mutants()[name]) != []


def test_least_privilege_rule_catches_broad_permissions():
    workflow = load(SITE)
    workflow["permissions"] = "write-all"
    assert least_privilege_problems(workflow) != []
    workflow = load(SITE)
    workflow["jobs"]["build"]["permissions"] = {"contents": "write"}
    assert least_privilege_problems(workflow) != []
    workflow = load(SITE)
    del workflow["jobs"]["build"]["permissions"]
    assert least_privilege_problems(workflow) != []


@pytest.mark.parametrize(
    "line",
    [
        "      - uses: actions/checkout@v5",
        "      - uses: actions/checkout@main",
        "        uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a",  # 39 hex
        "        uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8",  # no comment
    ],
)
def test_pinning_rule_catches(line):
    assert pinning_problems(line) != []


def test_checkout_rule_catches_persisted_credentials():
    workflow = load(SITE)
    workflow["jobs"]["build"]["steps"][0]["with"].pop("persist-credentials")
    assert checkout_problems(workflow) != []
