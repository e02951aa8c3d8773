"""Tests for the self-hosted runner's job-started hook (.github/runner/)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOOK = ROOT / ".github" / "runner" / "job_started_hook.py"
WRAPPER = ROOT / ".github" / "runner" / "job_started_hook.ps1"
REPO = "example-owner/directml-guide"
WORKFLOW_REF = f"{REPO}/.github/workflows/directml.yml@refs/heads/main"


def _load_hook():
    spec = importlib.util.spec_from_file_location("job_started_hook", HOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


hook = _load_hook()


def env(**overrides):
    base = {
        "DIRECTML_ALLOWED_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": "push",
        "GITHUB_REF": "refs/heads/main",
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_WORKFLOW_REF": WORKFLOW_REF,
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not None}


def test_allows_push_to_main():
    ok, message = hook.check(env())
    assert ok
    assert message.startswith("job-started hook: allowed:")
    assert "'push'" in message and "'refs/heads/main'" in message


def test_allows_workflow_dispatch():
    ok, message = hook.check(
        env(GITHUB_EVENT_NAME="workflow_dispatch", GITHUB_REF="refs/heads/main")
    )
    assert ok
    assert "'workflow_dispatch'" in message


def test_allows_repository_name_in_other_case():
    ok, _ = hook.check(env(GITHUB_REPOSITORY=REPO.upper()))
    assert ok
    ok, _ = hook.check(env(GITHUB_WORKFLOW_REF=WORKFLOW_REF.replace(REPO, REPO.upper())))
    assert ok


# A dispatch runs the workflow file of the branch it is started from: anyone who can
# push a branch (or holds a token with actions:write) could run that branch's code.
@pytest.mark.parametrize(
    "ref",
    ["refs/heads/feature", "refs/heads/main-old", "refs/heads/Main", "refs/tags/v1", "refs/pull/7/merge", ""],
)
def test_refuses_workflow_dispatch_from_another_ref(ref):
    workflow_ref = f"{REPO}/.github/workflows/directml.yml@{ref}"
    ok, message = hook.check(
        env(GITHUB_EVENT_NAME="workflow_dispatch", GITHUB_REF=ref, GITHUB_WORKFLOW_REF=workflow_ref)
    )
    assert not ok
    assert "refused" in message


@pytest.mark.parametrize(
    "workflow_ref",
    [
        # another workflow file of the same repository, on main
        f"{REPO}/.github/workflows/site.yml@refs/heads/main",
        f"{REPO}/.github/workflows/directml.yaml@refs/heads/main",
        f"{REPO}/.github/workflows/Directml.yml@refs/heads/main",
        f"{REPO}/.github/workflows/sub/directml.yml@refs/heads/main",
        # the right file from another branch or tag (GITHUB_REF says main)
        f"{REPO}/.github/workflows/directml.yml@refs/heads/feature",
        f"{REPO}/.github/workflows/directml.yml@refs/tags/v1",
        f"{REPO}/.github/workflows/directml.yml",
        # the right file in another repository (a reusable workflow called from elsewhere)
        "attacker/fork/.github/workflows/directml.yml@refs/heads/main",
        f"{REPO}-fork/.github/workflows/directml.yml@refs/heads/main",
        "directml.yml@refs/heads/main",
    ],
)
@pytest.mark.parametrize("event", ["workflow_dispatch", "push"])
def test_refuses_any_other_workflow(event, workflow_ref):
    ok, message = hook.check(env(GITHUB_EVENT_NAME=event, GITHUB_WORKFLOW_REF=workflow_ref))
    assert not ok
    assert message.startswith("job-started hook: refused:")
    assert f"workflow {workflow_ref!r} is not {WORKFLOW_REF!r}" in message


@pytest.mark.parametrize(
    "event, ref",
    [
        ("pull_request", "refs/pull/7/merge"),
        ("pull_request", "refs/heads/main"),
        ("pull_request_target", "refs/heads/main"),
        ("issue_comment", "refs/heads/main"),
        ("workflow_run", "refs/heads/main"),
        ("schedule", "refs/heads/main"),
    ],
)
def test_refuses_other_events(event, ref):
    ok, message = hook.check(env(GITHUB_EVENT_NAME=event, GITHUB_REF=ref))
    assert not ok
    assert message.startswith("job-started hook: refused:")
    assert repr(event) in message


@pytest.mark.parametrize(
    "ref",
    ["refs/heads/feature", "refs/heads/main-old", "refs/tags/v1", "refs/heads/Main", ""],
)
def test_refuses_push_to_other_refs(ref):
    ok, message = hook.check(env(GITHUB_REF=ref))
    assert not ok
    assert "refused" in message


def test_refuses_other_repository():
    ok, message = hook.check(env(GITHUB_REPOSITORY="attacker/fork"))
    assert not ok
    assert "'attacker/fork'" in message
    assert f"only serves {REPO!r}" in message


@pytest.mark.parametrize("name", ["GITHUB_EVENT_NAME", "GITHUB_REF", "GITHUB_REPOSITORY", "GITHUB_WORKFLOW_REF"])
def test_refuses_when_a_variable_is_missing(name):
    ok, message = hook.check(env(**{name: None}))
    assert not ok
    assert message == f"job-started hook: refused: missing {name}"


def test_refuses_when_all_job_variables_are_missing():
    ok, message = hook.check({"DIRECTML_ALLOWED_REPOSITORY": REPO})
    assert not ok
    assert message == (
        "job-started hook: refused: missing GITHUB_EVENT_NAME, GITHUB_REF, GITHUB_REPOSITORY, "
        "GITHUB_WORKFLOW_REF"
    )


@pytest.mark.parametrize("value", [None, "", "   "])
def test_fails_closed_without_allowed_repository(value):
    ok, message = hook.check(env(DIRECTML_ALLOWED_REPOSITORY=value))
    assert not ok
    assert "DIRECTML_ALLOWED_REPOSITORY is not set" in message


def _run_script(extra_env):
    # Start from an environment without any GITHUB_* / allow-list variables, so a
    # CI run (where GITHUB_* are set) cannot leak into the test.
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GITHUB_") and k != "DIRECTML_ALLOWED_REPOSITORY"
    }
    clean.update(extra_env)
    return subprocess.run(
        [sys.executable, "-I", str(HOOK)],
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_script_exits_zero_for_push_to_main():
    result = _run_script(env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        f"job-started hook: allowed: event 'push' on 'refs/heads/main' in {REPO!r}"
    ]
    assert result.stderr == ""


def test_script_exits_zero_for_workflow_dispatch():
    result = _run_script(env(GITHUB_EVENT_NAME="workflow_dispatch"))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("event", ["pull_request", "pull_request_target"])
def test_script_exits_non_zero_with_one_error_line(event):
    result = _run_script(env(GITHUB_EVENT_NAME=event, GITHUB_REF="refs/pull/7/merge"))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"::error::job-started hook: refused: event {event!r} on 'refs/pull/7/merge' "
        f"in {REPO!r}; this runner only runs a push to refs/heads/main or a "
        "workflow_dispatch on refs/heads/main"
    ]


def test_script_refuses_a_dispatch_from_another_branch():
    result = _run_script(
        env(
            GITHUB_EVENT_NAME="workflow_dispatch",
            GITHUB_REF="refs/heads/feature",
            GITHUB_WORKFLOW_REF=f"{REPO}/.github/workflows/directml.yml@refs/heads/feature",
        )
    )
    assert result.returncode == 1
    assert result.stdout.startswith("::error::job-started hook: refused: event 'workflow_dispatch' on 'refs/heads/feature'")


def test_script_exits_non_zero_without_any_variables():
    result = _run_script({})
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("::error::job-started hook: refused:")


def test_script_escapes_workflow_command_data():
    result = _run_script(env(GITHUB_REF="refs/heads/100%\nx"))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    assert "100%25" in lines[0]


def test_wrapper_calls_the_python_hook_and_passes_its_exit_code():
    text = WRAPPER.read_text(encoding="utf-8")
    assert "job_started_hook.py" in text
    assert "exit $LASTEXITCODE" in text
    # Fails closed when it cannot run the hook.
    assert text.count("exit 1") >= 3
