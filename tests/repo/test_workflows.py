"""Checks on the GitHub Actions workflows in .github/workflows/.

* zizmor (static security analysis) finds nothing, offline; with .github/zizmor.yml it also requires
  every action to be pinned to a commit SHA, and it flags a checkout that keeps its credentials;
* the workflows validate against the GitHub workflow JSON schema (check-jsonschema);
* structural rules: least privilege, verified releases of the pinned actions, and a DirectML workflow
  that can never run code from a pull request.

Each rule is a function that returns a list of problems, so the same code checks
the real files and deliberately broken copies (to prove that the rule can fail).
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
GITHUB_DIR = ROOT / ".github"
WORKFLOWS_DIR = GITHUB_DIR / "workflows"
SITE = WORKFLOWS_DIR / "site.yml"
DIRECTML = WORKFLOWS_DIR / "directml.yml"
FRESHNESS = WORKFLOWS_DIR / "freshness.yml"
WORKFLOW_FILES = sorted(WORKFLOWS_DIR.glob("*.y*ml"))

DIRECTML_LABELS = {"self-hosted", "windows", "x64", "directml"}
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


# A write scope beyond Pages and OIDC, allowed to one job of one workflow only.
EXTRA_WRITES = {("freshness.yml", "report"): {"issues"},
                ("run-report.yml", "comment"): {"issues"}, ("run-report.yml", "propose"): {"contents", "pull-requests"}}


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
        installs = [line.strip() for s in run_steps for line in s["run"].splitlines() if re.search(r"\bpip\s+install\b", line)]
        if not installs:
            problems.append(f"job {name}: installs nothing")
        picked = any(re.search(r"\.github[\\/]locks[\\/]pick\.py \.github[\\/]locks[\\/]\S+ setuptools > \S*build-backend\.txt", s["run"])
                     for s in run_steps)
        for line in installs:
            from_lock = re.search(r"--require-hashes (--no-build-isolation )?-r \.github[\\/]locks[\\/]\S+", line)
            backend = picked and re.search(r"--require-hashes --no-deps -r \S*build-backend\.txt", line)
            if not (from_lock or backend):
                problems.append(f"job {name}: `{line}` does not install from a lock with --require-hashes")
            if from_lock and not from_lock.group(1):
                problems.append(f"job {name}: `{line}`: jieba's build backend would come unhashed (no --no-build-isolation)")
        if not picked:
            problems.append(f"job {name}: the build backend (setuptools) is not installed from the lock first")
        if (job.get("env") or {}).get("SHELL_BLOCK_INSTALLS") != "none":
            problems.append(f"job {name}: shell blocks that install unhashed packages would run (SHELL_BLOCK_INSTALLS: none)")
        for i in suite:
            if not re.search(r"--basetemp \"?\$env:RUNNER_TEMP\\\w{1,4}\"?", run_steps[i]["run"]):
                problems.append(f"job {name}: pytest needs a short --basetemp under $env:RUNNER_TEMP (MAX_PATH)")
        if any(str(s.get("uses", "")).startswith("actions/cache@") for s in steps(job)):
            problems.append(f"job {name}: actions/cache on the GPU PC (a restore writes before anything is checked)")
        uploads = [s for s in steps(job) if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
        if not uploads:
            problems.append(f"job {name}: no actions/upload-artifact step for the JUnit report")
    return problems


# --- tests: external tools ------------------------------------------------------


def test_there_are_workflows():
    assert {SITE, DIRECTML, WINDOWS, FRESHNESS} <= set(WORKFLOW_FILES)


@pytest.mark.parametrize("persona", ["regular", "pedantic", "auditor"])
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
    # With this project's .github/zizmor.yml: every action hash-pinned, GitHub's own included.
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    shutil.copy(GITHUB_DIR / "zizmor.yml", tmp_path / ".github" / "zizmor.yml")
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
    assert {"unpinned-uses", "template-injection", "dangerous-triggers", "artipacked"} <= idents
    assert result.returncode != 0


def test_zizmor_requires_hash_pins_for_every_action():
    config = yaml.safe_load((GITHUB_DIR / "zizmor.yml").read_text(encoding="utf-8"))
    assert config["rules"]["unpinned-uses"]["config"]["policies"] == {"*": "hash-pin"}


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
    assert least_privilege_problems(load(path), path.name) == []


def test_directml_workflow():
    assert directml_problems(load(DIRECTML)) == []


def test_directml_sets_require_directml_and_the_labels_literally():
    workflow = load(DIRECTML)
    (job,) = workflow["jobs"].values()
    assert job["env"]["REQUIRE_DIRECTML"] == "1"
    assert job["runs-on"] == ["self-hosted", "windows", "x64", "directml"]
    assert triggers(workflow) == {"push": {"branches": ["main"]}, "workflow_dispatch": None}


WINDOWS = WORKFLOWS_DIR / "windows.yml"
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
            problems.append(f"job {name}: downloads with torchvision instead of tests/tools/fetch_fashion_mnist.py")
        if not fetch or fetch[0] > suite[0]:
            problems.append(f"job {name}: does not run tests/tools/fetch_fashion_mnist.py before the suite")
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
            if "fashion-mnist" not in cached or "hashFiles('tests/tools/fetch_fashion_mnist.py')" not in str(
                    (job_steps[cache[0]].get("with") or {}).get("key", "")):
                problems.append(f"job {name}: the cache must hold the fetched folder, keyed on the fetcher")
        if (job.get("env") or {}).get("REQUIRE_DATA") != "1":
            problems.append(f"job {name}: fetches the data but does not set REQUIRE_DATA: \"1\" (a missing file would skip)")
        if "fashion-mnist" not in runs[fetch[0]]:
            problems.append(f"job {name}: the fetcher does not write the fashion-mnist folder")
        if not re.search(r"FASHION_MNIST_DIR\W+.*fashion-mnist", runs[suite[0]]):
            problems.append(f"job {name}: the suite's FASHION_MNIST_DIR is not the fetched folder")
    return problems


@pytest.mark.parametrize("path", [SITE, DIRECTML, WINDOWS], ids=lambda p: p.name)
def test_workflows_fetch_the_test_data_with_the_one_fetcher(path):
    assert data_problems(load(path)) == []


@pytest.mark.parametrize("change", ["torchvision", "no fetch", "no cache", "fetch after suite", "wrong dir", "not required"])
def test_data_rule_catches(change):
    workflow = load(SITE)
    job = workflow["jobs"]["build"]
    fetch = next(s for s in job["steps"] if FETCHER.search(str(s.get("run", ""))))
    if change == "torchvision":
        fetch["run"] = "python -c \"import torchvision; torchvision.datasets.FashionMNIST('d', download=True)\""
    elif change == "no fetch":
        job["steps"].remove(fetch)
    elif change == "no cache":
        job["steps"] = [s for s in job["steps"] if not str(s.get("uses", "")).startswith("actions/cache@")]
    elif change == "fetch after suite":
        job["steps"].remove(fetch)
        job["steps"].append(fetch)
    elif change == "not required":
        del job["env"]["REQUIRE_DATA"]
    else:
        suite = next(s for s in job["steps"] if SUITE.search(str(s.get("run", ""))))
        suite["run"] = suite["run"].replace("fashion-mnist", "data")
    assert data_problems(workflow) != []


def windows_problems(workflow: dict) -> list:
    """The hosted Windows job: push + pull_request + dispatch, hosted image, read-only, both PowerShells."""
    problems = []
    on = triggers(workflow)
    if set(on) != {"push", "pull_request", "workflow_dispatch"}:
        problems.append(f"triggers are {sorted(map(str, on))}, not push + pull_request + workflow_dispatch")
    if "pull_request_target" in on:
        problems.append("pull_request_target runs with a write token: never")
    if "push" in on and on["push"] != {"branches": ["main"]}:
        # push and pull_request both fire for a pull request's own branch: two hour-long runs per push.
        problems.append(f"push trigger is {on['push']!r}, not {{branches: [main]}} (pull requests run as pull_request)")
    for name, job in (workflow.get("jobs") or {}).items():
        labels = runs_on_labels(job)
        if len(labels) != 1 or not next(iter(labels)).startswith("windows-") or "self-hosted" in labels:
            problems.append(f"job {name}: runs-on {job.get('runs-on')!r} is not one GitHub-hosted windows-* image")
        if job.get("permissions") not in ({}, {"contents": "read"}):
            problems.append(f"job {name}: permissions {job.get('permissions')!r}")
        if not isinstance(job.get("timeout-minutes"), int):
            problems.append(f"job {name}: no timeout-minutes")
        text = yaml.safe_dump(job)
        if "secrets." in text:
            problems.append(f"job {name}: uses a secret")
        env = {k: str(v) for k, v in (job.get("env") or {}).items()}
        if env.get("REQUIRE_DIRECTML") == "1":
            problems.append(f"job {name}: REQUIRE_DIRECTML=1 belongs to the GPU runner only")
        shells = set((job.get("strategy") or {}).get("matrix", {}).get("shell") or [])
        if shells != {"pwsh", "powershell"}:
            problems.append(f"job {name}: matrix shells {sorted(shells)}, not pwsh and powershell")
        if (job.get("defaults") or {}).get("run", {}).get("shell") != "${{ matrix.shell }}" \
                or env.get("README_SHELL") != "${{ matrix.shell }}":
            problems.append(f"job {name}: steps and README commands must run in the matrix shell")
        runs = [str(s.get("run", "")) for s in steps(job)]
        for wanted in ("readme_commands.py serve --shell $env:README_SHELL",
                       "readme_commands.py run test --shell $env:README_SHELL"):
            if not any(wanted in r for r in runs):
                problems.append(f"job {name}: does not run `{wanted}`")
        shows = [s for s in steps(job) if "device_count()" in str(s.get("run", ""))]
        if not shows or "!cancelled()" not in str(shows[0].get("if", "")) or "device_name(" not in shows[0]["run"]:
            problems.append(f"job {name}: does not print torch-directml's adapters (count and names) every time")
    return problems


def test_windows_workflow():
    assert windows_problems(load(WINDOWS)) == []


def _windows_mutants():
    def mutate(change):
        wf = load(WINDOWS)
        change(wf, wf["jobs"]["readme"], wf.get("on", wf.get(True)))
        return wf

    def drop_run(needle):
        return lambda wf, job, on: job.update(steps=[s for s in job["steps"] if needle not in str(s.get("run", ""))])

    return {
        "no pull_request": mutate(lambda wf, job, on: on.pop("pull_request")),
        "push on every branch": mutate(lambda wf, job, on: on.update(push=None)),
        "pull_request_target": mutate(lambda wf, job, on: on.update(pull_request_target=None)),
        "self-hosted": mutate(lambda wf, job, on: job.update({"runs-on": ["self-hosted", "windows"]})),
        "ubuntu": mutate(lambda wf, job, on: job.update({"runs-on": "ubuntu-latest"})),
        "write token": mutate(lambda wf, job, on: job.update(permissions={"contents": "write"})),
        "no timeout": mutate(lambda wf, job, on: job.pop("timeout-minutes")),
        "a secret": mutate(lambda wf, job, on: job["env"].update(TOKEN="${{ secrets.PAT }}")),
        "required DirectML": mutate(lambda wf, job, on: job["env"].update(REQUIRE_DIRECTML="1")),
        "pwsh only": mutate(lambda wf, job, on: job["strategy"]["matrix"].update(shell=["pwsh"])),
        "fixed shell": mutate(lambda wf, job, on: job["defaults"]["run"].update(shell="pwsh")),
        "no serve": mutate(drop_run("readme_commands.py serve")),
        "no test": mutate(drop_run("readme_commands.py run test")),
        "no adapters": mutate(drop_run("device_count()")),
    }


@pytest.mark.parametrize("name", list(_windows_mutants()))
def test_windows_rule_catches(name):
    assert windows_problems(_windows_mutants()[name]) != []


# Each action at a release checked against the action's own repository (tag -> commit with
# `git rev-list -n1 TAG` in a mirror) and the runtime its action.yml names at that commit.
# GitHub removed Node 20 from its runners in 2026; a pin not in this table fails until checked.
VERIFIED_ACTIONS = {
    "actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1": ("v7.0.1", "node24"),
    "actions/setup-python@5fda3b95a4ea91299a34e894583c3862153e4b97": ("v7.0.0", "node24"),
    "actions/upload-artifact@bbbca2ddaa5d8feaa63e36b76fdaad77386f024f": ("v7.0.0", "node24"),
    # composite; its one JavaScript step is actions/upload-artifact@bbbca2dd (v7.0.0, node24)
    "actions/upload-pages-artifact@fc324d3547104276b827a68afc52ff2a11cc49c9": ("v5.0.0", "composite"),
    "actions/deploy-pages@cd2ce8fcbc39b97be8ca5fce6e763baed58fa128": ("v5.0.0", "node24"),
    "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae": ("v5.0.5", "node24"),
    # composite; it downloads the lychee release named by its lycheeVersion input (pinned in the workflow)
    "lycheeverse/lychee-action@8646ba30535128ac92d33dfc9133794bfdd9b411": ("v2.8.0", "composite"),
}
SUPPORTED_RUNTIMES = {"node24", "composite", "docker"}


def action_pins(text: str) -> list[tuple[str, str]]:
    """(action@sha, version comment) of every remote `uses:` line."""
    pins = []
    for line in text.splitlines():
        match = USES_LINE.match(line)
        if match and not match.group(1).startswith("./"):
            comment = VERSION_COMMENT.search(match.group(2) or "")
            pins.append((match.group(1), comment.group(0).lstrip("# ").strip() if comment else ""))
    return pins


def action_problems(text: str) -> list:
    problems = []
    for target, version in action_pins(text):
        if target not in VERIFIED_ACTIONS:
            problems.append(f"{target}: not a verified release; check its tag and runtime and add it")
            continue
        tag, runtime = VERIFIED_ACTIONS[target]
        if version != tag:
            problems.append(f"{target}: the comment says {version}, the commit is {tag}")
        if runtime not in SUPPORTED_RUNTIMES:
            problems.append(f"{target}: runs on {runtime}")
    return problems


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_every_action_is_a_verified_release_on_a_supported_runtime(path):
    assert action_problems(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "line",
    [
        "        uses: actions/deploy-pages@d6db90164ac5ed86f2b6aed7e0febac5b3c0c03e # v4.0.5",  # node20
        "        uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.0",  # wrong comment
        "        uses: actions/checkout@9c091bb21b7c1c1d1991bb908d89e4e9dddfe3e0 # v7.0.1",  # v7.0.0's commit
    ],
)
def test_action_rule_catches(line):
    assert action_problems(line) != []


DEPLOY_CONTEXTS = {
    # (event, ref): should this run deploy?
    ("push", "refs/heads/main"): True,
    ("workflow_dispatch", "refs/heads/main"): True,
    ("workflow_dispatch", "refs/heads/feature"): False,
    ("push", "refs/heads/feature"): False,
    ("push", "refs/tags/v1"): False,
    ("pull_request", "refs/pull/7/merge"): False,
    ("pull_request", "refs/heads/main"): False,
}


def evaluate_condition(expression: str, event: str, ref: str, group: str = "test") -> bool:
    """Evaluate a workflow `if:` built from github.event_name, github.ref, matrix.group, ==, !=, &&, || and ().

    `group` is the site workflow's matrix leg; the deploy contexts are those of the leg that builds the site.
    """
    tokens = re.findall(r"github\.event_name|github\.ref|matrix\.group|'[^']*'|==|!=|&&|\|\||\(|\)|\S+", expression)
    python = []
    for token in tokens:
        if token == "matrix.group":
            python.append(repr(group))
        elif token == "github.event_name":
            python.append(repr(event))
        elif token == "github.ref":
            python.append(repr(ref))
        elif token in {"==", "!=", "(", ")"} or token.startswith("'"):
            python.append(token)
        elif token in {"&&", "||"}:
            python.append({"&&": "and", "||": "or"}[token])
        else:
            raise ValueError(f"cannot evaluate {token!r} in {expression!r}")
    return bool(eval(" ".join(python), {"__builtins__": {}}))  # noqa: S307 - tokens checked above


def test_only_the_pinned_torch_leg_uploads_the_site():
    """The current-torch leg never looks up the Pages URL nor uploads: one artifact per run."""
    for name, condition in deploy_conditions(load(SITE)).items():
        if name == "deploy job":
            continue
        for event, ref in DEPLOY_CONTEXTS:
            assert not evaluate_condition(condition, event, ref, group="test-current"), (name, event, ref)


def deploy_conditions(workflow: dict) -> dict:
    """Every `if:` that gates the Pages deploy: the URL lookup, the upload, the deploy job."""
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    gated = {"deploy job": deploy.get("if", "")}
    for step in steps(build):
        if step.get("id") == "pages" or str(step.get("uses", "")).startswith("actions/upload-pages-artifact@"):
            gated[step.get("name", step.get("uses"))] = step.get("if", "")
    return gated


def deploy_condition_problems(workflow: dict) -> list:
    problems = []
    for name, condition in deploy_conditions(workflow).items():
        for (event, ref), expected in DEPLOY_CONTEXTS.items():
            try:
                got = evaluate_condition(condition, event, ref)
            except (ValueError, SyntaxError) as error:
                problems.append(f"{name}: {error}")
                break
            if got != expected:
                problems.append(f"{name}: {event} on {ref} {'deploys' if got else 'does not deploy'}")
    return problems


def test_site_deploys_on_push_and_manual_dispatch_on_main_only():
    workflow = load(SITE)
    assert len(deploy_conditions(workflow)) == 3
    assert deploy_condition_problems(workflow) == []


@pytest.mark.parametrize(
    "condition",
    [
        "github.event_name == 'push' && github.ref == 'refs/heads/main'",  # a manual dispatch never deploys
        "github.event_name == 'workflow_dispatch' || github.ref == 'refs/heads/main'",
        "github.ref == 'refs/heads/main'",
        "",
    ],
)
def test_deploy_condition_rule_catches(condition):
    workflow = load(SITE)
    workflow["jobs"]["deploy"]["if"] = condition
    assert deploy_condition_problems(workflow) != []


def test_site_build_gets_its_urls_from_the_workflow():
    """mkdocs.yml reads site_url, repo_url, edit_uri from the environment; the build step sets them."""
    from guide_harness import load_mkdocs_yml

    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for key, variable in (("site_url", "SITE_URL"), ("repo_url", "REPO_URL"), ("edit_uri", "EDIT_URI")):
        assert re.search(rf"^{key}: !ENV {variable}$", text, re.M), key
    assert "content.action.edit" in load_mkdocs_yml(text)["theme"]["features"]
    (build_step,) = [s for s in steps(load(SITE)["jobs"]["build"]) if "mkdocs build" in s.get("run", "")]
    assert build_step["env"] == {
        "SITE_URL": "${{ steps.pages.outputs.base_url }}",
        "REPO_URL": "${{ github.server_url }}/${{ github.repository }}",
        "EDIT_URI": "edit/${{ github.event.repository.default_branch }}/docs/",
    }
    (lookup,) = [s for s in steps(load(SITE)["jobs"]["build"]) if s.get("id") == "pages"]
    assert 'gh api "repos/${GITHUB_REPOSITORY}/pages" --jq .html_url' in lookup["run"]
    assert '>> "$GITHUB_OUTPUT"' in lookup["run"]


def test_site_workflow():
    workflow = load(SITE)
    assert set(triggers(workflow)) == {"push", "pull_request", "workflow_dispatch"}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert build["runs-on"] == "ubuntu-latest"
    assert build["permissions"] == {"contents": "read", "pages": "read"}
    runs = "\n".join(s.get("run", "") for s in steps(build))
    # The real-data tests need Fashion-MNIST (they fail, not skip, under REQUIRE_DATA=1 when it is missing).
    assert data_problems(workflow) == []
    assert 'python -m pip install --require-hashes -r "$LOCK"' in runs
    assert "python -m pytest $TESTS" in runs
    assert "mkdocs build --strict" in runs
    # Two legs: the whole suite on torch-directml's pins, and the README's current-torch tests.
    legs = {leg["group"]: leg["tests"] for leg in build["strategy"]["matrix"]["include"]}
    assert legs == {"test": "", "test-current": "tests/snippets tests/pages/test_site_blocks.py"}
    locks = {leg["group"]: leg["lock"] for leg in build["strategy"]["matrix"]["include"]}
    assert locks == {g: f".github/locks/{g}-linux-py3.12.txt" for g in legs}
    assert build["env"] == {"GROUP": "${{ matrix.group }}", "LOCK": "${{ matrix.lock }}", "TESTS": "${{ matrix.tests }}", "REQUIRE_DATA": "1"}
    groups = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["dependency-groups"]
    assert set(legs) <= set(groups)
    assert build["strategy"]["fail-fast"] is False
    site_build = next(s for s in steps(build) if "mkdocs build" in s.get("run", ""))
    assert site_build["if"] == "matrix.group == 'test'"
    python = [s for s in steps(build) if str(s.get("uses", "")).startswith("actions/setup-python@")]
    assert python and python[0]["with"]["python-version"] == "3.12"
    # pip's download cache, keyed on the lock the job installs
    assert python[0]["with"]["cache"] == "pip"
    assert python[0]["with"]["cache-dependency-path"] == "${{ matrix.lock }}"
    upload = [s for s in steps(build) if str(s.get("uses", "")).startswith("actions/upload-pages-artifact@")]
    assert upload and "matrix.group == 'test'" in upload[0]["if"]  # one artifact, from the leg that built the site
    # Deploy (see test_site_deploys_on_push_and_manual_dispatch_on_main_only): only Pages + OIDC,
    # serialized, never cancelled.
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
        "unlocked install": mutate(lambda wf: [
            s.update({"run": "python -m pip install --group test"})
            for s in wf["jobs"][job]["steps"] if "pip install" in s.get("run", "")
        ]),
        "build isolation": mutate(lambda wf: [
            s.update({"run": s["run"].replace("--no-build-isolation ", "")}) for s in wf["jobs"][job]["steps"] if "run" in s
        ]),
        "no hashed backend": mutate(lambda wf: wf["jobs"][job].update(
            steps=[s for s in wf["jobs"][job]["steps"] if "pick.py" not in s.get("run", "")])),
        "installing blocks": mutate(lambda wf: wf["jobs"][job]["env"].pop("SHELL_BLOCK_INSTALLS")),
        "long basetemp": mutate(lambda wf: [
            s.update({"run": s["run"].replace('--basetemp "$env:RUNNER_TEMP\\pt" ', "")}) for s in wf["jobs"][job]["steps"] if "run" in s
        ]),
        "a cache": mutate(lambda wf: wf["jobs"][job]["steps"].insert(4, {
            "uses": "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae", "with": {"path": "x", "key": "y"}})),
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


ACTIONLINT = GITHUB_DIR / "actionlint.yaml"
DEFAULT_RUNNER_LABELS = {"self-hosted", "windows", "linux", "macos", "x64", "arm64", "arm"}


def actionlint_label_problems(config: dict, workflows: list[dict]) -> list:
    """Every custom label of a self-hosted job is in .github/actionlint.yaml (else actionlint calls it unknown)."""
    known = set((config.get("self-hosted-runner") or {}).get("labels") or [])
    problems = []
    for workflow in workflows:
        for name, job in (workflow.get("jobs") or {}).items():
            labels = runs_on_labels(job)
            if "self-hosted" in labels:
                problems += [f"job {name}: label {label!r} is not in actionlint.yaml"
                             for label in sorted(labels - DEFAULT_RUNNER_LABELS - known)]
    return problems


def test_actionlint_knows_the_runner_labels():
    assert actionlint_label_problems(yaml.safe_load(ACTIONLINT.read_text(encoding="utf-8")), [load(p) for p in WORKFLOW_FILES]) == []


def test_actionlint_label_rule_catches():
    assert actionlint_label_problems({}, [load(DIRECTML)]) == ["job gpu-tests: label 'directml' is not in actionlint.yaml"]


# --- the Pages steps, run as GitHub runs a bash step, with a stand-in `gh` ----------------------------


def _pages_step(job: str, name_or_id: str) -> dict:
    return next(s for s in steps(load(SITE)["jobs"][job]) if name_or_id in (s.get("id"), s.get("name")))


def run_bash_step(run: str, tmp_path: Path, gh: str, repository: str = "Owner/Repo") -> tuple[subprocess.CompletedProcess, str]:
    """The step's script as GitHub runs `shell: bash` (bash --noprofile --norc -eo pipefail FILE), with
    a `gh` that prints or fails as ``gh`` says; returns the result and what it wrote to $GITHUB_OUTPUT."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "gh").write_text(f"#!/bin/sh\n{gh}\n", encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    script, output = tmp_path / "step.sh", tmp_path / "output"
    script.write_text(run, encoding="utf-8")
    output.write_text("", encoding="utf-8")
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "GITHUB_REPOSITORY": repository,
           "GITHUB_OUTPUT": str(output), "GH_TOKEN": "t"}
    result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                            capture_output=True, text=True, env=env, timeout=60)
    return result, output.read_text(encoding="utf-8")


PAGES_OFF = "echo 'gh: Not Found (HTTP 404)' >&2; exit 1"
needs_bash = pytest.mark.skipif(shutil.which("bash") is None or os.name == "nt", reason="GitHub runs these steps in Linux bash")


@needs_bash
def test_the_build_does_not_need_pages_to_be_on(tmp_path):
    result, output = run_bash_step(_pages_step("build", "pages")["run"], tmp_path, PAGES_OFF)
    assert result.returncode == 0, result.stdout + result.stderr
    assert output == "base_url=https://owner.github.io/Repo/\n"
    warnings = [line for line in result.stdout.splitlines() if line.startswith("::warning")]
    assert len(warnings) == 1 and "Settings > Pages > Source: GitHub Actions" in warnings[0]


@needs_bash
@pytest.mark.parametrize("repository, gh, url", [
    ("Owner/Repo", "echo https://docs.example.org/", "https://docs.example.org/"),  # a custom domain, as GitHub says
    ("Owner/owner.github.io", PAGES_OFF, "https://owner.github.io/"),  # a user site lives at the root
])
def test_the_build_takes_the_pages_url(tmp_path, repository, gh, url):
    result, output = run_bash_step(_pages_step("build", "pages")["run"], tmp_path, gh, repository)
    assert result.returncode == 0, result.stderr
    assert output == f"base_url={url}\n"


@needs_bash
@pytest.mark.parametrize("gh, source", [(PAGES_OFF, "off"), ("echo legacy", "legacy")])
def test_the_deploy_stops_in_one_line_when_pages_does_not_publish_from_actions(tmp_path, gh, source):
    check = _pages_step("deploy", "Check that GitHub Pages publishes from GitHub Actions")
    result, _ = run_bash_step(check["run"], tmp_path, gh)
    assert result.returncode == 1
    lines = (result.stdout + result.stderr).splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"::error title=GitHub Pages source is {source}")
    assert "Settings > Pages > Build and deployment > Source: GitHub Actions" in lines[0]
    result, _ = run_bash_step(check["run"], tmp_path, "echo workflow")
    assert result.returncode == 0, result.stdout


def test_the_deploy_checks_pages_before_deploying():
    deploy = steps(load(SITE)["jobs"]["deploy"])
    names = [s.get("name") for s in deploy]
    assert names.index("Check that GitHub Pages publishes from GitHub Actions") < names.index("Deploy")


def test_pick_prints_the_locks_own_setuptools_with_its_hashes():
    lock = GITHUB_DIR / "locks" / "test-windows-py3.12.txt"
    result = subprocess.run([sys.executable, str(GITHUB_DIR / "locks" / "pick.py"), str(lock), "setuptools"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"setuptools==[\d.]+ \\", lines[0]) and lines[0].split(" ")[0] in lock.read_text(encoding="utf-8")
    assert len(lines) >= 2 and all(re.fullmatch(r"    --hash=sha256:[0-9a-f]{64}( \\)?", line) for line in lines[1:])
    missing = subprocess.run([sys.executable, str(GITHUB_DIR / "locks" / "pick.py"), str(lock), "not-a-package"],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and missing.stderr.strip() == "error: not in the lock: not-a-package"


# What docs/contributing/first-run.md says each first run prints, and the file that prints it.
FIRST_RUN_QUOTES = {
    "Pages URL: ": ".github/workflows/site.yml",
    "GitHub Pages is off": ".github/workflows/site.yml",
    "GitHub Pages publishes from GitHub Actions": ".github/workflows/site.yml",
    "torch-directml: ": "tests/directml_policy.py",
    "(software)": "tests/directml_policy.py",
    "DirectML tests passed, ": "tests/directml_policy.py",
    "(REQUIRE_DIRECTML=1)": "tests/directml_policy.py",
    "SHELL_BLOCK_INSTALLS=all installs it": "tests/shell_environments.py",
    "axe-core is not installed": "tests/site_server.py",
    "no Chromium": "tests/site_server.py",
    "does not import": "tests/directml_policy.py",
    "job-started hook: allowed: event ": "tests/repo/test_runner_hook.py",  # which runs the hook and checks its line
    'print("OK:"': "snippets/verify_directml.py",
}


def test_the_first_run_page_quotes_what_the_workflows_print():
    page = (ROOT / "docs" / "contributing" / "first-run.md").read_text(encoding="utf-8")
    for quote, source in FIRST_RUN_QUOTES.items():
        text = (ROOT / source).read_text(encoding="utf-8").replace("{INSTALLS_VARIABLE}", "SHELL_BLOCK_INSTALLS")
        assert quote in text, f"{source} no longer prints {quote!r}: update first-run.md"
        shown = quote.removeprefix('print("').rstrip('"')
        assert shown.strip() in page, f"first-run.md does not show {shown!r}"
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))["nav"]
    contributing = next(item["Contributing"] for item in nav if isinstance(item, dict) and "Contributing" in item)
    assert {"First run": "contributing/first-run.md"} in contributing


# --- the freshness workflow -------------------------------------------------------------------

LYCHEE_CONFIG = GITHUB_DIR / "lychee.toml"


def freshness_problems(workflow: dict, lychee: dict) -> list:
    """Weekly + by hand; the check job reads only; only the report job may write issues; the logic is the script."""
    problems = []
    on = triggers(workflow)
    if set(on) != {"schedule", "workflow_dispatch"}:
        problems.append(f"triggers are {sorted(map(str, on))}, not schedule + workflow_dispatch")
    crons = [c.get("cron", "") for c in (on.get("schedule") or [])]
    if len(crons) != 1 or len(crons[0].split()) != 5 or crons[0].split()[4] == "*" or crons[0].split()[2] != "*":
        problems.append(f"schedule {crons!r} is not one weekly cron")
    jobs = workflow.get("jobs") or {}
    check, report = jobs.get("check") or {}, jobs.get("report") or {}
    if check.get("permissions") != {"contents": "read"}:
        problems.append(f"check job: permissions {check.get('permissions')!r}, not contents: read")
    if report.get("permissions") != {"contents": "read", "issues": "write"}:
        problems.append(f"report job: permissions {report.get('permissions')!r}, not contents: read + issues: write")
    if report.get("needs") != "check" or "needs.check.outputs.body != ''" not in str(report.get("if", "")):
        problems.append("report job: must need check and run only when check wrote an issue text")
    for name, job in jobs.items():
        if not isinstance(job.get("timeout-minutes"), int):
            problems.append(f"job {name}: no timeout-minutes")
        if "secrets." in yaml.safe_dump(job):
            problems.append(f"job {name}: uses a secret (GITHUB_TOKEN is enough)")
    runs = [str(s.get("run", "")) for s in steps(check)]
    if not any(re.search(r"--require-hashes -r \.github/locks/\S+", r) for r in runs):
        problems.append("check job: does not install from a hash lock")
    if not any("mkdocs build --strict" in r for r in runs):
        problems.append("check job: does not build the site")
    script = [r for r in runs if "tests/tools/freshness.py check" in r]
    if not script or "--links lychee/out.md" not in script[0] or "--body" not in script[0]:
        problems.append("check job: does not run `tests/tools/freshness.py check --body ... --links lychee/out.md`")
    uses = [str(s.get("uses", "")) for s in steps(check)]
    lychee_at = [i for i, u in enumerate(uses) if u.startswith("lycheeverse/lychee-action@")]
    cache_at = [i for i, s in enumerate(steps(check)) if ".lycheecache" in str((s.get("with") or {}).get("path", ""))]
    if not lychee_at:
        problems.append("check job: no lychee step")
    else:
        given = steps(check)[lychee_at[0]].get("with") or {}
        if "--config .github/lychee.toml" not in str(given.get("args", "")) or "site/" not in str(given.get("args", "")):
            problems.append("lychee: must check the built site/ with .github/lychee.toml")
        if not re.fullmatch(r"v\d+\.\d+\.\d+", str(given.get("lycheeVersion", ""))):
            problems.append("lychee: lycheeVersion must pin a release")
        if given.get("fail") is not False:
            problems.append("lychee: fail must be false (the script reports broken links in the issue)")
        if not cache_at or cache_at[0] > lychee_at[0]:
            problems.append("check job: no cache of .lycheecache before lychee")
    if not lychee.get("cache") or int(lychee.get("max_retries", 0)) < 2 or not lychee.get("retry_wait_time"):
        problems.append("lychee.toml: needs cache = true and a retry policy (max_retries >= 2, retry_wait_time)")
    issue_runs = [str(s.get("run", "")) for s in steps(report)]
    if not any("tests/tools/freshness.py issue" in r for r in issue_runs):
        problems.append("report job: does not run `tests/tools/freshness.py issue`")
    env = {k: str(v) for s in steps(report) for k, v in (s.get("env") or {}).items()}
    if env.get("GH_TOKEN") != "${{ github.token }}":
        problems.append("report job: gh must use the job's GITHUB_TOKEN")
    return problems


def load_lychee() -> dict:
    return tomllib.loads(LYCHEE_CONFIG.read_text(encoding="utf-8"))


def test_freshness_workflow():
    assert freshness_problems(load(FRESHNESS), load_lychee()) == []


def test_every_left_out_host_says_why():
    """Each exclude pattern in .github/lychee.toml has a comment above it (the reason)."""
    lines = LYCHEE_CONFIG.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("exclude = ["))
    patterns = [i for i in range(start + 1, len(lines)) if lines[i].strip().startswith("'")]
    assert patterns == [i for i in range(start + 1, len(lines)) if lines[i].strip().startswith(("'", '"'))]
    assert len(patterns) == len(load_lychee()["exclude"]) >= 1
    for i in patterns:
        assert lines[i - 1].strip().startswith("#"), f"lychee.toml: {lines[i].strip()} has no reason above it"


def _freshness_mutants():
    def mutate(change):
        wf, lychee = load(FRESHNESS), load_lychee()
        change(wf, wf["jobs"]["check"], wf["jobs"]["report"], wf.get("on", wf.get(True)), lychee)
        return wf, lychee

    def lychee_with(**given):
        return lambda wf, check, report, on, ly: next(
            s for s in check["steps"] if str(s.get("uses", "")).startswith("lycheeverse/")
        )["with"].update(given)

    return {
        "push": mutate(lambda wf, check, report, on, ly: on.update(push=None)),
        "daily": mutate(lambda wf, check, report, on, ly: on.update(schedule=[{"cron": "17 5 * * *"}])),
        "check writes issues": mutate(lambda wf, check, report, on, ly: check["permissions"].update(issues="write")),
        "report writes contents": mutate(lambda wf, check, report, on, ly: report["permissions"].update(contents="write")),
        "report always": mutate(lambda wf, check, report, on, ly: report.pop("if")),
        "a secret": mutate(lambda wf, check, report, on, ly: report["steps"][-1]["env"].update(GH_TOKEN="${{ secrets.PAT }}")),
        "no site build": mutate(lambda wf, check, report, on, ly: check.update(
            steps=[s for s in check["steps"] if "mkdocs build" not in str(s.get("run", ""))])),
        "lychee fails the job": mutate(lychee_with(fail=True)),
        "lychee unpinned": mutate(lychee_with(lycheeVersion="latest")),
        "no lychee config": mutate(lychee_with(args="site/")),
        "no cache": mutate(lambda wf, check, report, on, ly: check.update(
            steps=[s for s in check["steps"] if ".lycheecache" not in str(s.get("with", ""))])),
        "no retries": mutate(lambda wf, check, report, on, ly: ly.update(max_retries=0)),
        "no script": mutate(lambda wf, check, report, on, ly: report["steps"][-1].update(run="gh issue create")),
    }


@pytest.mark.parametrize("name", list(_freshness_mutants()))
def test_freshness_rule_catches(name):
    assert freshness_problems(*_freshness_mutants()[name]) != []


def test_only_the_report_job_may_write_issues():
    workflow = load(FRESHNESS)
    assert least_privilege_problems(workflow, "freshness.yml") == []
    assert least_privilege_problems(workflow, "site.yml") != []  # the exception is this file's alone
    workflow["jobs"]["check"]["permissions"]["issues"] = "write"
    assert least_privilege_problems(workflow, "freshness.yml") != []
