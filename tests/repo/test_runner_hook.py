"""Tests for the self-hosted runner's job-started hook (.github/runner/)."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from guide.page import Page

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / ".github" / "runner" / "job_started_hook.py"
WRAPPER = ROOT / ".github" / "runner" / "job_started_hook.ps1"
REPO = "example-owner/directml-guide"
WORKFLOW_REF = f"{REPO}/.github/workflows/directml.yml@refs/heads/main"


_spec = importlib.util.spec_from_file_location("job_started_hook", HOOK)
hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hook)


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


@pytest.mark.parametrize("event", ["push", "workflow_dispatch"])
def test_allows_a_push_or_dispatch_on_main(event):
    ok, message = hook.check(env(GITHUB_EVENT_NAME=event))
    assert ok, message
    assert message == f"job-started hook: allowed: event {event!r} on 'refs/heads/main' in {REPO!r}"


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
@pytest.mark.parametrize("event", ["workflow_dispatch", "push"])
def test_refuses_a_push_or_dispatch_from_another_ref(event, ref):
    # A push's workflow file stays main's, so that the ref alone refuses it.
    workflow_ref = f"{REPO}/.github/workflows/directml.yml@{ref}" if event == "workflow_dispatch" else WORKFLOW_REF
    ok, message = hook.check(env(GITHUB_EVENT_NAME=event, GITHUB_REF=ref, GITHUB_WORKFLOW_REF=workflow_ref))
    assert not ok
    assert message.startswith("job-started hook: refused:")


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


def test_refuses_other_repository():
    ok, message = hook.check(env(GITHUB_REPOSITORY="attacker/fork"))
    assert not ok
    assert "'attacker/fork'" in message
    assert f"only serves {REPO!r}" in message


JOB_VARIABLES = ["GITHUB_EVENT_NAME", "GITHUB_REF", "GITHUB_REPOSITORY", "GITHUB_WORKFLOW_REF"]


@pytest.mark.parametrize("names", [[name] for name in JOB_VARIABLES] + [JOB_VARIABLES], ids=[*JOB_VARIABLES, "all"])
def test_refuses_when_job_variables_are_missing(names):
    ok, message = hook.check(env(**dict.fromkeys(names)))
    assert not ok
    assert message == f"job-started hook: refused: missing {', '.join(names)}"


@pytest.mark.parametrize("value", [None, "", "   "])
def test_fails_closed_without_allowed_repository(value):
    ok, message = hook.check(env(DIRECTML_ALLOWED_REPOSITORY=value))
    assert not ok
    assert "DIRECTML_ALLOWED_REPOSITORY is not set" in message


def _run_script(extra_env):
    # Start from an environment without any GITHUB_* / allow-list variables, so a
    # CI run (where GITHUB_* are set) cannot leak into the test.
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_") and k != "DIRECTML_ALLOWED_REPOSITORY"}
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
    assert result.stdout.splitlines() == [f"job-started hook: allowed: event 'push' on 'refs/heads/main' in {REPO!r}"]
    assert result.stderr == ""


@pytest.mark.parametrize("event", ["pull_request", "pull_request_target"])
def test_script_exits_non_zero_with_one_error_line(event):
    result = _run_script(env(GITHUB_EVENT_NAME=event, GITHUB_REF="refs/pull/7/merge"))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"::error::job-started hook: refused: event {event!r} on 'refs/pull/7/merge' "
        f"in {REPO!r}; this runner only runs a push to refs/heads/main or a "
        "workflow_dispatch on refs/heads/main"
    ]


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
    assert text.count("exit 1") >= 4
    # PowerShell runs the account's own profiles before the hook (no -NoProfile): one that exists is refused,
    # before anything else runs.
    check = text.index("$PROFILE.CurrentUserAllHosts, $PROFILE.CurrentUserCurrentHost")
    assert check < text.index("job_started_hook.py'") and "Test-Path -LiteralPath $userProfile" in text


def test_the_page_says_the_hook_is_no_boundary_on_a_persistent_pc():
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert "the hook is a speed bump against mistakes, not a boundary" in page
    assert "-NoProfile" in page
    # Only .env is read after the account's own variables: no "set them in the operating system" instead.
    assert "set in the operating system" not in page
    assert "no job can leave anything behind" not in page
    # .env is written by a command (a Notepad-saved .env.txt leaves the hook unset: the runner then runs jobs unchecked).
    assert re.search(r"Set-Content -Encoding ascii -Path C:\\actions-runner\\.env ", page)


# --- the permission commands on docs/contributing/gpu-runner.md (form only: no Windows here) ---

PAGE = ROOT / "docs" / "contributing" / "gpu-runner.md"
ADMINS, SYSTEM, AUTHENTICATED_USERS = "*S-1-5-32-544", "*S-1-5-18", "*S-1-5-11"
WELL_KNOWN = {ADMINS, SYSTEM, AUTHENTICATED_USERS}
RUNNER_GROUP = "${group}"  # config.cmd's GITHUB_ActionsRunner_G... group, looked up on the page
# icacls permission: inheritance flags, then a simple right or a list of specific rights
# (learn.microsoft.com/windows-server/administration/windows-commands/icacls).
PERMISSION = re.compile(
    r"^(?:\((?:OI|CI|IO|NP|I)\))*"
    r"(?:F|M|RX|R|W|D|N|\((?:DE|RC|WDAC|WO|S|AS|MA|GR|GW|GE|GA|RD|WD|AD|REA|WEA|X|DC|RA|WA)"
    r"(?:,(?:DE|RC|WDAC|WO|S|AS|MA|GR|GW|GE|GA|RD|WD|AD|REA|WEA|X|DC|RA|WA))*\))$"
)
READ_ONLY = {"R", "RX"}


def icacls_commands(markdown: str) -> list[list[str]]:
    """Each `icacls` line of the page's powershell fences, split as PowerShell passes the arguments."""
    commands = []
    for fence in Page.parse(markdown).blocks("powershell"):
        for line in fence.body.splitlines():
            if line.strip().startswith("icacls "):
                commands.append(shlex.split(line.strip(), posix=False))
    return [[word.strip('"') for word in command] for command in commands]


def icacls_problems(command: list[str]) -> list[str]:
    """What is wrong with one icacls command that sets permissions."""
    problems = []
    if len(command) < 2:
        return ["no path"]
    path, rest = command[1], command[2:]
    if rest and rest[0] != "/inheritance:r":
        problems.append(f"{path}: does not start with /inheritance:r (C:\\ passes Modify to all users)")
    grants: dict[str, str] = {}
    option = None
    for word in rest:
        if word.startswith("/"):
            option = word
            if word not in {"/inheritance:r", "/grant:r", "/remove:g"}:
                problems.append(f"{path}: unexpected option {word}")
            continue
        if option == "/remove:g":
            if word != "$group":
                problems.append(f"{path}: /remove:g {word}")
            continue
        if option != "/grant:r":
            problems.append(f"{path}: {word!r} outside /grant:r")
            continue
        principal, _, permission = word.rpartition(":")
        if principal not in WELL_KNOWN | {RUNNER_GROUP}:
            problems.append(f"{path}: {principal!r} is not a well-known SID (names differ by language)")
        if not PERMISSION.match(permission):
            problems.append(f"{path}: {permission!r} is not an icacls permission")
        grants[principal] = re.sub(r"^(?:\([A-Z]+\))*", "", permission)
    if rest and (grants.get(ADMINS) != "F" or grants.get(SYSTEM) != "F"):
        problems.append(f"{path}: administrators and SYSTEM must keep full control")
    for principal, right in grants.items():
        if principal not in {ADMINS, SYSTEM} and right not in READ_ONLY and principal != RUNNER_GROUP:
            problems.append(f"{path}: {principal} may change it ({right})")
        if principal == RUNNER_GROUP and right == "F":
            problems.append(f"{path}: the runner's group keeps full control (it may delete any file)")
    return problems


def test_page_locks_the_hook_and_the_env_file_with_well_known_sids():
    commands = [c for c in icacls_commands(PAGE.read_text(encoding="utf-8")) if len(c) > 2]
    by_path = {command[1]: command for command in commands}
    assert set(by_path) == {r"C:\actions-runner-hooks", r"C:\actions-runner", r"C:\actions-runner\.env"}
    for command in commands:
        assert icacls_problems(command) == [], command
    # The hook and .env: nobody but administrators and SYSTEM may change them.
    for path in (r"C:\actions-runner-hooks", r"C:\actions-runner\.env"):
        assert RUNNER_GROUP not in " ".join(by_path[path])
    # The paths are the ones the page's .env block names.
    page = PAGE.read_text(encoding="utf-8")
    assert r"ACTIONS_RUNNER_HOOK_JOB_STARTED=C:\actions-runner-hooks\job_started_hook.ps1" in page
    assert r"cd C:\actions-runner" in page


@pytest.mark.parametrize(
    "line, expected",
    [
        (r'icacls C:\actions-runner-hooks /grant:r "*S-1-5-32-544:(OI)(CI)F" "*S-1-5-18:(OI)(CI)F"', "/inheritance:r"),
        (
            r'icacls C:\actions-runner-hooks /inheritance:r /grant:r "Administrators:(OI)(CI)F" "*S-1-5-18:(OI)(CI)F"',
            "well-known SID",
        ),
        (
            r'icacls C:\actions-runner-hooks /inheritance:r /grant:r "*S-1-5-32-544:(OI)(CI)F" "*S-1-5-18:(OI)(CI)F" "*S-1-5-11:(OI)(CI)M"',
            "may change it",
        ),
        (
            r'icacls C:\actions-runner-hooks /inheritance:r /grant:r "*S-1-5-32-544:(OI)(CI)F" "*S-1-5-18:(OI)(CI)F" "*S-1-5-11:(OI)(CI)RW"',
            "not an icacls permission",
        ),
        (
            r'icacls C:\actions-runner /inheritance:r /grant:r "*S-1-5-32-544:(OI)(CI)F" "*S-1-5-18:(OI)(CI)F" "${group}:(OI)(CI)F"',
            "full control",
        ),
        (
            r'icacls C:\actions-runner\.env /inheritance:r /grant:r "*S-1-5-32-544:F" "*S-1-5-11:R"',
            "administrators and SYSTEM",
        ),
    ],
)
def test_icacls_rule_catches(line, expected):
    (command,) = icacls_commands(f"```powershell\n{line}\n```\n")
    problems = icacls_problems(command)
    assert any(expected in problem for problem in problems), problems


def test_page_cites_directml_222_for_the_service_session():
    page = PAGE.read_text(encoding="utf-8")
    assert "https://github.com/microsoft/DirectML/issues/222" in page
    assert "run.cmd" in page and "--ephemeral" in page
