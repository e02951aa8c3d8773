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

import json
import shutil
import subprocess
import sys

import pytest
import yaml

from workflow_rules import (
    DIRECTML,
    FETCHER,
    FRESHNESS,
    GITHUB_DIR,
    ROOT,
    SITE,
    SUITE,
    USES_LINE,
    VERSION_COMMENT,
    WINDOWS,
    WORKFLOW_FILES,
    data_problems,
    find_tool,
    least_privilege_problems,
    load,
    runs_on_labels,
)

# --- tests: external tools ------------------------------------------------------


def test_there_are_workflows():
    assert {SITE, DIRECTML, WINDOWS, FRESHNESS} <= set(WORKFLOW_FILES)


@pytest.mark.parametrize("persona", ["regular", "pedantic", "auditor"])
def test_zizmor_finds_nothing(persona):
    # Ignores are inline `# zizmor: ignore[...]` comments, each with its reason.
    result = subprocess.run(
        [find_tool("zizmor"), "--offline", f"--persona={persona}", "--format=json", str(GITHUB_DIR)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
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
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    idents = {finding["ident"] for finding in json.loads(result.stdout)}
    assert {"unpinned-uses", "template-injection", "dangerous-triggers", "artipacked"} <= idents
    assert result.returncode != 0


def test_zizmor_requires_hash_pins_for_every_action():
    config = yaml.safe_load((GITHUB_DIR / "zizmor.yml").read_text(encoding="utf-8"))
    assert config["rules"]["unpinned-uses"]["config"]["policies"] == {"*": "hash-pin"}


def _check_jsonschema(*paths):
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
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


@pytest.mark.parametrize("path", [SITE, DIRECTML, WINDOWS], ids=lambda p: p.name)
def test_workflows_fetch_the_test_data_with_the_one_fetcher(path):
    assert data_problems(load(path)) == []


@pytest.mark.parametrize(
    "change", ["torchvision", "no fetch", "no cache", "fetch after suite", "wrong dir", "not required"]
)
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
                problems += [
                    f"job {name}: label {label!r} is not in actionlint.yaml"
                    for label in sorted(labels - DEFAULT_RUNNER_LABELS - known)
                ]
    return problems


def test_actionlint_knows_the_runner_labels():
    assert (
        actionlint_label_problems(
            yaml.safe_load(ACTIONLINT.read_text(encoding="utf-8")), [load(p) for p in WORKFLOW_FILES]
        )
        == []
    )


def test_actionlint_label_rule_catches():
    assert actionlint_label_problems({}, [load(DIRECTML)]) == [
        "job gpu-tests: label 'directml' is not in actionlint.yaml"
    ]


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


def floating_runner_problems(workflow: dict) -> list:
    """A hosted image named by version: `-latest` moves to a new OS under the workflow (Ubuntu 26.04 is in preview)."""
    return [
        f"job {name}: runs-on {label} floats: name the version (ubuntu-24.04, windows-2025)"
        for name, job in (workflow.get("jobs") or {}).items()
        for label in sorted(runs_on_labels(job))
        if label.endswith("-latest")
    ]


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_every_hosted_runner_names_its_image_version(path):
    assert floating_runner_problems(load(path)) == []


def test_floating_runner_rule_catches():
    workflow = load(SITE)
    workflow["jobs"]["build"]["runs-on"] = "ubuntu-latest"
    assert floating_runner_problems(workflow) == [
        "job build: runs-on ubuntu-latest floats: name the version (ubuntu-24.04, windows-2025)"
    ]
