"""site.yml: when it deploys (evaluated for every event and ref), its two legs, the build's URLs, and
the Pages steps run as GitHub runs a bash step. Split out of tests/repo/test_workflows.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from workflow_rules import ROOT, SITE, data_problems, load, steps, triggers

DEPLOY_CONTEXTS = {
    # (event, ref, in a fork): should this run deploy?
    ("push", "refs/heads/main", False): True,
    ("workflow_dispatch", "refs/heads/main", False): True,
    ("workflow_dispatch", "refs/heads/feature", False): False,
    ("push", "refs/heads/feature", False): False,
    ("push", "refs/tags/v1", False): False,
    ("pull_request", "refs/pull/7/merge", False): False,
    ("pull_request", "refs/heads/main", False): False,
    # A fork's main has no Pages of this project: its deploy would end red (review m4).
    ("push", "refs/heads/main", True): False,
    ("workflow_dispatch", "refs/heads/main", True): False,
}


def evaluate_condition(expression: str, event: str, ref: str, group: str = "test", fork: bool = False) -> bool:
    """Evaluate a workflow `if:` built from github.event_name, github.ref, github.event.repository.fork,
    matrix.group, ==, !=, !, &&, || and ().

    `group` is the site workflow's matrix leg; the deploy contexts are those of the leg that builds the site.
    """
    tokens = re.findall(
        r"github\.event\.repository\.fork|github\.event_name|github\.ref|matrix\.group|'[^']*'|==|!=|!|&&|\|\||\(|\)|\S+",
        expression,
    )
    python = []
    for token in tokens:
        if token == "matrix.group":
            python.append(repr(group))
        elif token == "github.event_name":
            python.append(repr(event))
        elif token == "github.event.repository.fork":
            python.append(repr(fork))
        elif token == "!":
            python.append("not")
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
        for event, ref, fork in DEPLOY_CONTEXTS:
            assert not evaluate_condition(condition, event, ref, group="test-current", fork=fork), (name, event, ref)


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
        for (event, ref, fork), expected in DEPLOY_CONTEXTS.items():
            try:
                got = evaluate_condition(condition, event, ref, fork=fork)
            except (ValueError, SyntaxError) as error:
                problems.append(f"{name}: {error}")
                break
            if got != expected:
                problems.append(
                    f"{name}: {event} on {ref}{' in a fork' if fork else ''} {'deploys' if got else 'does not deploy'}"
                )
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
    # A pull request's branch runs as pull_request only, not twice (review m3).
    assert triggers(workflow)["push"] == {"branches": ["main"]}
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    assert build["runs-on"] == "ubuntu-24.04"
    assert build["permissions"] == {"contents": "read", "pages": "read"}
    runs = "\n".join(s.get("run", "") for s in steps(build))
    # The real-data tests need Fashion-MNIST (they fail, not skip, under REQUIRE_DATA=1 when it is missing).
    assert data_problems(workflow) == []
    assert 'python -m pip install --require-hashes -r "$LOCK"' in runs
    assert "python -m pytest $TESTS" in runs
    assert "mkdocs build --strict" in runs
    # Two legs: the whole suite on torch-directml's pins, and the README's current-torch tests.
    legs = {leg["group"]: leg["tests"] for leg in build["strategy"]["matrix"]["include"]}
    assert legs == {"test": "", "test-current": "--current-torch tests/snippets tests/pages/expanded/en"}
    locks = {leg["group"]: leg["lock"] for leg in build["strategy"]["matrix"]["include"]}
    assert locks == {g: f".github/locks/{g}-linux-py3.12.txt" for g in legs}
    assert build["env"] == {
        "GROUP": "${{ matrix.group }}",
        "LOCK": "${{ matrix.lock }}",
        "TESTS": "${{ matrix.tests }}",
        "REQUIRE_DATA": "1",
    }
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


# --- the Pages steps, run as GitHub runs a bash step, with a stand-in `gh` ----------------------------


def _pages_step(job: str, name_or_id: str) -> dict:
    return next(s for s in steps(load(SITE)["jobs"][job]) if name_or_id in (s.get("id"), s.get("name")))


def run_bash_step(
    run: str, tmp_path: Path, gh: str, repository: str = "Owner/Repo"
) -> tuple[subprocess.CompletedProcess, str]:
    """The step's script as GitHub runs `shell: bash` (bash --noprofile --norc -eo pipefail FILE), with
    a `gh` that prints or fails as ``gh`` says; returns the result and what it wrote to $GITHUB_OUTPUT."""
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
        "GH_TOKEN": "t",
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
def test_the_build_does_not_need_pages_to_be_on(tmp_path):
    result, output = run_bash_step(_pages_step("build", "pages")["run"], tmp_path, PAGES_OFF)
    assert result.returncode == 0, result.stdout + result.stderr
    assert output == "base_url=https://owner.github.io/Repo/\n"
    warnings = [line for line in result.stdout.splitlines() if line.startswith("::warning")]
    assert len(warnings) == 1 and "Settings > Pages > Source: GitHub Actions" in warnings[0]


@needs_bash
@pytest.mark.parametrize(
    "repository, gh, url",
    [
        (
            "Owner/Repo",
            "echo https://docs.example.org/",
            "https://docs.example.org/",
        ),  # a custom domain, as GitHub says
        ("Owner/owner.github.io", PAGES_OFF, "https://owner.github.io/"),  # a user site lives at the root
    ],
)
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
