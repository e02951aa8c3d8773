"""The workflows in .github/workflows/ and .ci/run, read as files: each check is named for the failure it
prevents on a workflow's first run on GitHub (or on a fork's, or on the GPU PC's), where a red run costs a
round trip of minutes and a push. Nothing here runs a job: what a step's own shell does when GitHub Pages is
off is the one exception, run in bash with a stand-in for `gh`, as the first run of a new repository meets it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib

import pytest
import yaml

from workflow_rules import (
    GITHUB_DIR,
    ROOT,
    WORKFLOW_FILES,
    leg_env,
    legs,
    load,
    runs_on_labels,
    steps,
    triggers,
    with_matrix,
)

WORKFLOWS = {path.name: load(path) for path in WORKFLOW_FILES}
# The jobs that run the test suite, with the OS of their runner.
SUITE_JOBS = {
    ("site.yml", "build"): "Linux",
    ("windows.yml", "readme"): "Windows",
    ("directml.yml", "gpu-tests"): "Windows",
}
SUITE = re.compile(r"-m pytest\b|readme_commands\.py run test\b")


def find_tool(name: str) -> str:
    """The tool installed next to this interpreter (the venv), else on PATH."""
    found = shutil.which(name, path=sysconfig.get_path("scripts")) or shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed; install the `test` dependency group")
    return found


def all_jobs():
    for file, workflow in WORKFLOWS.items():
        for name, job in (workflow.get("jobs") or {}).items():
            yield file, name, job


def test_github_accepts_every_workflow():
    """A workflow file GitHub cannot read starts no job at all, and says so only on the Actions tab."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "check_jsonschema",
            "--builtin-schema",
            "vendor.github-workflows",
            *map(str, WORKFLOW_FILES),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_finds_no_injection_unpinned_action_or_kept_credential():
    """zizmor's strictest persona, offline, with .github/zizmor.yml (every action pinned to a commit): a
    template injection or a checkout that keeps its token is a hole from the first run on. Each accepted
    finding is an inline `# zizmor: ignore[...]` with its reason."""
    result = subprocess.run(
        [find_tool("zizmor"), "--offline", "--persona=auditor", "--format=json", str(GITHUB_DIR)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    findings = json.loads(result.stdout or "null")
    assert findings == [], json.dumps(findings, indent=1)[:4000]
    assert result.returncode == 0, result.stderr[-2000:]


# A repository path in a step's command, .ci/run or an action's input: a folder of the repository, then a file.
REPO_PATH = re.compile(
    r"(?<![\w$/\\.-])(?:\.[\\/])?((?:\.github|\.ci|tests|snippets|docs)(?:[\\/][\w.-]+)+)(?![\w.$*{-])"
)
MADE_BY_THE_RUN = ("tests/pages/expanded/",)  # written by tests/codeblocks_run.py when pytest starts


def strings(value) -> list[str]:
    """Every string in a workflow's structure (mappings, lists), as written."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


def missing_paths(text: str) -> list[str]:
    found = (m.group(1).replace("\\", "/") for m in REPO_PATH.finditer(text))
    return sorted({p for p in found if not p.startswith(MADE_BY_THE_RUN) and not (ROOT / p).exists()})


def test_every_file_a_step_names_exists():
    """A step that runs a moved or renamed script stops with "can't open file" (and `hashFiles` of a missing
    file is an empty cache key): every repository path in a step's command, its inputs, the matrix and
    .ci/run exists, with Windows' backslashes read as slashes."""
    problems = [f".ci/run: {p}" for p in missing_paths((ROOT / ".ci" / "run").read_text(encoding="utf-8"))]
    for file, name, job in all_jobs():
        for leg in legs(job):
            text = "\n".join(strings([leg, job.get("env"), steps(job)]))
            problems += [f"{file}: job {name}: {p}" for p in missing_paths(with_matrix(text, leg))]
    assert not problems, "\n".join(sorted(set(problems)))


# A write scope a job needs, and only that job: without it the job fails with "Resource not accessible by
# integration" on its first run; with more, a compromised step could write what it never needed.
WRITES = {
    ("site.yml", "deploy"): {"pages", "id-token"},
    ("freshness.yml", "report"): {"issues"},
    ("run-report.yml", "comment"): {"issues"},
    ("run-report.yml", "propose"): {"contents", "pull-requests", "actions"},
}


def test_each_job_may_write_exactly_what_it_writes():
    problems = [
        f"{file}: top-level permissions are not {{}}" for file, w in WORKFLOWS.items() if w.get("permissions") != {}
    ]
    for file, name, job in all_jobs():
        permissions = job.get("permissions")
        if not isinstance(permissions, dict):
            problems.append(f"{file}: job {name}: no permissions: mapping of its own")
            continue
        writes = {scope for scope, level in permissions.items() if level == "write"}
        if writes != WRITES.get((file, name), set()):
            problems.append(
                f"{file}: job {name}: writes {sorted(writes)}, needs {sorted(WRITES.get((file, name), []))}"
            )
    assert not problems, "\n".join(problems)


# Each action at a release checked against the action's own repository (tag -> commit with
# `git rev-list -n1 TAG` in a mirror) and the runtime its action.yml names at that commit.
# GitHub removed Node 20 from its runners in 2026: an action on it fails at its first step.
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
USES_LINE = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)\s*(?:#\s*(v[\d.]+))?")


def test_every_action_is_a_checked_release_on_a_runtime_github_still_runs():
    problems = []
    for path in WORKFLOW_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = USES_LINE.match(line)
            if not match or match.group(1).startswith("./"):
                continue
            target, comment = match.groups()
            if target not in VERIFIED_ACTIONS:
                problems.append(f"{path.name}: {target}: not a checked release; check its tag and runtime and add it")
            elif comment != VERIFIED_ACTIONS[target][0]:
                problems.append(
                    f"{path.name}: {target}: the comment says {comment}, the commit is {VERIFIED_ACTIONS[target][0]}"
                )
            elif VERIFIED_ACTIONS[target][1] not in {"node24", "composite", "docker"}:
                problems.append(f"{path.name}: {target}: runs on {VERIFIED_ACTIONS[target][1]}, which GitHub dropped")
    assert not problems, "\n".join(problems)


def test_no_hosted_runner_floats_to_a_new_image():
    """`-latest` moves to a new OS under the workflow (a first run on the new image), unannounced."""
    floating = [
        f"{f}: job {n}" for f, n, job in all_jobs() if any(label.endswith("-latest") for label in runs_on_labels(job))
    ]
    assert not floating, floating


def test_each_suite_job_fetches_the_data_it_requires():
    """A job that runs the suite requires Fashion-MNIST (REQUIRE_DATA=1: a missing file fails, not skips), so it
    fetches it first with the one fetcher, cached on hosted runners (keyed on the fetcher), and points the suite
    at the folder; otherwise every data test of the first run fails."""
    problems = []
    for (file, name), _ in SUITE_JOBS.items():
        job = WORKFLOWS[file]["jobs"][name]
        runs = [str(s.get("run", "")) for s in steps(job)]
        suite = next(i for i, r in enumerate(runs) if SUITE.search(r))
        fetch = [i for i, r in enumerate(runs) if re.search(r"scripts[\\/]fetch_fashion_mnist\.py .*fashion-mnist", r)]
        caches = [s for s in steps(job) if str(s.get("uses", "")).startswith("actions/cache@")]
        if not fetch or fetch[0] > suite:
            problems.append(f"{file}: job {name}: does not fetch Fashion-MNIST before the suite")
        if (job.get("env") or {}).get("REQUIRE_DATA") != "1":
            problems.append(f'{file}: job {name}: does not set REQUIRE_DATA: "1"')
        if not re.search(r"FASHION_MNIST_DIR\W+.*fashion-mnist", runs[suite]):
            problems.append(f"{file}: job {name}: the suite's FASHION_MNIST_DIR is not the fetched folder")
        hosted = "self-hosted" not in runs_on_labels(job)
        # The GPU PC keeps what a job writes; a cache restore there would unpack a tar before any check.
        if hosted != any(
            "hashFiles('.github/scripts/fetch_fashion_mnist.py')" in str(c["with"]["key"]) for c in caches
        ):
            problems.append(f"{file}: job {name}: a cache keyed on the fetcher belongs on hosted runners only")
    assert not problems, "\n".join(problems)


def test_each_suite_job_requires_only_what_it_installs():
    """REQUIRE_BROWSER=1 where no step installs Chromium fails every browser test; REQUIRE_DIRECTML=1 off the GPU
    PC fails every DirectML test; SHELL_BLOCK_INSTALLS other than `pypi` on hosted Windows leaves the pages'
    install blocks unrun, and anything but `none` on the GPU PC (which keeps what a job leaves) installs there."""
    runs_suite = {(f, n) for f, n, job in all_jobs() if any(SUITE.search(str(s.get("run", ""))) for s in steps(job))}
    problems = [f"{f}: job {n} runs the suite: add it to SUITE_JOBS" for f, n in sorted(runs_suite - set(SUITE_JOBS))]
    for (file, name), runner_os in SUITE_JOBS.items():
        workflow = WORKFLOWS[file]
        job = workflow["jobs"][name]
        self_hosted = "self-hosted" in runs_on_labels(job)
        for leg in legs(job):
            env = leg_env(workflow, job, leg)
            where = f"{file}: job {name} {leg or ''}"
            if env.get("REQUIRE_BROWSER") == "1":
                problems.append(f"{where}: requires a browser that no step installs")
            if (env.get("REQUIRE_DIRECTML") == "1") != self_hosted:
                problems.append(
                    f"{where}: REQUIRE_DIRECTML={env.get('REQUIRE_DIRECTML')} (the GPU PC alone requires it)"
                )
            wanted = "none" if self_hosted else ("pypi" if runner_os == "Windows" else None)
            if env.get("SHELL_BLOCK_INSTALLS") != wanted:
                problems.append(f"{where}: SHELL_BLOCK_INSTALLS={env.get('SHELL_BLOCK_INSTALLS')}, not {wanted}")
    assert not problems, "\n".join(problems)


def test_the_gpu_workflow_never_runs_a_pull_requests_code():
    """The GPU PC is persistent: a pull request's code run there stays there. The workflow runs on a push to main
    and on a manual dispatch only (the runner's job-started hook checks the same from its side:
    tests/repo/test_runner_hook.py), never in a fork, on the labels the runner is registered with
    (docs/contributing/gpu-runner.md: `directml`), or its job waits for a runner forever."""
    workflow = WORKFLOWS["directml.yml"]
    job = workflow["jobs"]["gpu-tests"]
    assert triggers(workflow) == {"push": {"branches": ["main"]}, "workflow_dispatch": None}
    assert job["if"] == "${{ !github.event.repository.fork }}"
    assert runs_on_labels(job) == {"self-hosted", "windows", "x64", "directml"}
    assert "label `directml`" in (ROOT / "docs" / "contributing" / "gpu-runner.md").read_text(encoding="utf-8")


def test_the_gpu_pcs_first_run_installs_hash_locked_and_keeps_its_paths_short():
    """On the GPU PC: jieba's build backend comes from the lock first (with pick.py's exit checked: pwsh checks
    only a step's last command, and an empty file would install nothing and pass), the suite's install builds
    without isolation (else pip fetches setuptools unhashed and --require-hashes refuses it), the adapter is
    checked before the suite (tests/repo/test_windows_paths.py: the short --basetemp that keeps Windows' paths
    short), and the JUnit upload runs only where the report was written (else a second red step hides the first)."""
    job = WORKFLOWS["directml.yml"]["jobs"]["gpu-tests"]
    runs = [str(s.get("run", "")) for s in steps(job)]
    text = "\n".join(runs)
    pick = next(r for r in runs if "pick.py" in r)
    assert "if ($LASTEXITCODE) { exit $LASTEXITCODE }" in pick
    installs = [line for r in runs for line in r.splitlines() if re.search(r"\bpip\s+install\b", line)]
    assert len(installs) == 2 and all("--require-hashes" in line for line in installs), installs
    assert "--no-build-isolation -r .github\\locks\\test-windows-py3.12.txt" in installs[1]
    assert text.index("verify_directml.py") < text.index("-m pytest")
    upload = next(s for s in steps(job) if str(s.get("uses", "")).startswith("actions/upload-artifact@"))
    assert "hashFiles('reports/directml-junit.xml') != ''" in upload["if"]


# A fork's main or a pull request has no Pages of this project: a deploy from there ends red.
ON_MAIN = "github.ref == 'refs/heads/main' && (github.event_name == 'push' || github.event_name == 'workflow_dispatch') && !github.event.repository.fork"


def test_only_a_push_or_dispatch_on_mains_own_repository_deploys():
    site = WORKFLOWS["site.yml"]["jobs"]
    conditions = {s.get("name"): s.get("if") for s in steps(site["build"])}
    assert site["deploy"]["if"] == ON_MAIN
    assert conditions["Look up the GitHub Pages URL"] == conditions["Upload the site for GitHub Pages"]
    assert conditions["Upload the site for GitHub Pages"] == f"matrix.group == 'test' && {ON_MAIN}"
    # The build takes its URLs from the workflow: the Pages URL looked up above, this repository's, its branch.
    build = next(s for s in steps(site["build"]) if s.get("name") == "Build the site (strict)")
    assert build["env"] == {
        "SITE_URL": "${{ steps.pages.outputs.base_url }}",
        "REPO_URL": "${{ github.server_url }}/${{ github.repository }}",
        "EDIT_URI": "edit/${{ github.event.repository.default_branch }}/docs/",
    }


def pages_step(job: str, name: str) -> str:
    return next(s for s in steps(WORKFLOWS["site.yml"]["jobs"][job]) if s.get("name") == name)["run"]


def run_bash_step(run: str, tmp_path, gh: str, repository: str = "Owner/Repo"):
    """The step's script in bash as GitHub runs it, with a `gh` that runs ``gh`` (a shell line)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "gh").write_text(f"#!/bin/sh\n{gh}\n", encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    script, output = tmp_path / "step.sh", tmp_path / "output"
    script.write_text(run, encoding="utf-8")
    output.write_text("", encoding="utf-8")
    env = {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "GITHUB_REPOSITORY": repository,
        "GITHUB_OUTPUT": str(output),
    }
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    return result, output.read_text(encoding="utf-8")


PAGES_OFF = "echo 'gh: Not Found (HTTP 404)' >&2; exit 1"
needs_bash = pytest.mark.skipif(
    shutil.which("bash") is None or os.name == "nt", reason="GitHub runs these steps in Linux bash"
)


@needs_bash
@pytest.mark.parametrize(
    "repository, gh, url",
    [
        ("Owner/Repo", PAGES_OFF, "https://owner.github.io/Repo/"),  # Pages not on yet: the first run
        ("Owner/Repo", "echo https://docs.example.org/", "https://docs.example.org/"),  # a custom domain
        ("Owner/owner.github.io", PAGES_OFF, "https://owner.github.io/"),  # a user site lives at the root
    ],
)
def test_a_new_repository_without_pages_still_builds_for_its_pages_url(tmp_path, repository, gh, url):
    result, output = run_bash_step(pages_step("build", "Look up the GitHub Pages URL"), tmp_path, gh, repository)
    assert result.returncode == 0, result.stdout + result.stderr
    assert output == f"base_url={url}\n"
    warnings = [line for line in result.stdout.splitlines() if line.startswith("::warning")]
    assert len(warnings) == (gh == PAGES_OFF) and all("Source: GitHub Actions" in w for w in warnings)


@needs_bash
@pytest.mark.parametrize("gh, source", [(PAGES_OFF, "off"), ("echo legacy", "legacy")])
def test_a_deploy_to_pages_that_are_off_stops_in_one_line_naming_the_setting(tmp_path, gh, source):
    check = pages_step("deploy", "Check that GitHub Pages publishes from GitHub Actions")
    result, _ = run_bash_step(check, tmp_path, gh)
    lines = (result.stdout + result.stderr).splitlines()
    assert result.returncode == 1 and len(lines) == 1, lines
    assert (
        lines[0].startswith(f"::error title=GitHub Pages source is {source}") and "Source: GitHub Actions" in lines[0]
    )
    assert run_bash_step(check, tmp_path, "echo workflow")[0].returncode == 0
    names = [s.get("name") for s in steps(WORKFLOWS["site.yml"]["jobs"]["deploy"])]
    assert names.index("Check that GitHub Pages publishes from GitHub Actions") < names.index("Deploy")


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


def test_the_first_run_page_quotes_what_the_first_run_prints():
    """A maintainer reads a first run's output against docs/contributing/first-run.md: a line it quotes that
    nothing prints any more sends them looking for a failure that is not there."""
    page = (ROOT / "docs" / "contributing" / "first-run.md").read_text(encoding="utf-8")
    for quote, source in FIRST_RUN_QUOTES.items():
        text = (ROOT / source).read_text(encoding="utf-8").replace("{INSTALLS_VARIABLE}", "SHELL_BLOCK_INSTALLS")
        assert quote in text, f"{source} no longer prints {quote!r}: update first-run.md"
        shown = quote.removeprefix('print("').rstrip('"')
        assert shown.strip() in page, f"first-run.md does not show {shown!r}"
    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!ENV", ""))["nav"]
    contributing = next(item["Contributing"] for item in nav if isinstance(item, dict) and "Contributing" in item)
    assert {"First run": "contributing/first-run.md"} in contributing, "a maintainer finds the page in the menu"


def test_the_link_check_fails_only_on_a_gone_link():
    """The weekly link check (freshness.yml) runs lychee pinned, with the project's config over the built site,
    retries and a cache that keeps no failure, and never fails the job itself: its findings go into the one
    freshness issue, whose job alone may write issues. Each host it leaves out says why."""
    check = WORKFLOWS["freshness.yml"]["jobs"]["check"]
    lychee = next(s for s in steps(check) if str(s.get("uses", "")).startswith("lycheeverse/"))["with"]
    assert re.fullmatch(r"v\d+\.\d+\.\d+", lychee["lycheeVersion"]) and lychee["fail"] is False
    assert "--config .github/lychee.toml" in lychee["args"] and "--root-dir" in lychee["args"]
    config_text = (GITHUB_DIR / "lychee.toml").read_text(encoding="utf-8")
    config = tomllib.loads(config_text)
    assert config["max_retries"] >= 1 and config["cache_exclude_status"] == "400..=599"
    lines = config_text.splitlines()
    patterns = [i for i, line in enumerate(lines) if line.strip().startswith("'^")]
    assert len(patterns) == len(config["exclude"])
    assert all(lines[i - 1].strip().startswith("#") for i in patterns), "a left-out host without its reason"
