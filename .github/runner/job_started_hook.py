"""Job-started hook for the self-hosted DirectML runner.

The runner calls the script named in ACTIONS_RUNNER_HOOK_JOB_STARTED before every
job; a non-zero exit code stops the job and marks it failed. This hook lets a job
run only when all of these hold:

* the repository (``GITHUB_REPOSITORY``) is the one named in
  ``DIRECTML_ALLOWED_REPOSITORY`` (``owner/name``);
* the event (``GITHUB_EVENT_NAME``) is a ``push`` or a ``workflow_dispatch``;
* the ref (``GITHUB_REF``) is ``refs/heads/main``: a dispatch runs the copy of
  the workflow on the branch it is started from, so a dispatch from any other
  branch would run unreviewed code;
* the workflow (``GITHUB_WORKFLOW_REF``, ``owner/name/PATH@REF``) is that
  repository's ``.github/workflows/directml.yml`` at ``refs/heads/main``, so no
  other workflow file can use the runner either.

The runner gives a job-started hook GitHub's default variables (GITHUB_*), see
docs/contributing/gpu-runner.md. Everything else -- ``pull_request``,
``pull_request_target``, other branches or tags, other workflow files, other
repositories, missing variables -- is refused. It fails closed: if the
allow-list variable is not set, every job is refused.

Standard library only, Python 3.8+. Install a copy OUTSIDE the runner folder
(see docs/contributing/gpu-runner.md); ``job_started_hook.ps1`` calls it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

ALLOWED_REPOSITORY_VAR = "DIRECTML_ALLOWED_REPOSITORY"
MAIN_REF = "refs/heads/main"
ALLOWED_EVENTS = ("push", "workflow_dispatch")
WORKFLOW_PATH = ".github/workflows/directml.yml"
PREFIX = "job-started hook:"
REQUIRED = ("GITHUB_EVENT_NAME", "GITHUB_REF", "GITHUB_REPOSITORY", "GITHUB_WORKFLOW_REF")


def check(env: Mapping[str, str]) -> tuple[bool, str]:
    """Decide whether a job may run. Returns (ok, one-line message)."""
    allowed_repo = env.get(ALLOWED_REPOSITORY_VAR, "").strip()
    if not allowed_repo:
        return False, (
            f"{PREFIX} refused: {ALLOWED_REPOSITORY_VAR} is not set on this runner "
            "(set it to owner/name in the runner's .env file)"
        )

    missing = [name for name in REQUIRED if not env.get(name, "").strip()]
    if missing:
        return False, f"{PREFIX} refused: missing {', '.join(missing)}"

    event = env["GITHUB_EVENT_NAME"].strip()
    ref = env["GITHUB_REF"].strip()
    repo = env["GITHUB_REPOSITORY"].strip()
    what = f"event {event!r} on {ref!r} in {repo!r}"

    # GitHub repository names are case-insensitive.
    if repo.casefold() != allowed_repo.casefold():
        return False, (f"{PREFIX} refused: {what}; this runner only serves {allowed_repo!r}")
    if event not in ALLOWED_EVENTS or ref != MAIN_REF:
        return False, (
            f"{PREFIX} refused: {what}; this runner only runs a push to {MAIN_REF} or a workflow_dispatch on {MAIN_REF}"
        )
    workflow_ref = env["GITHUB_WORKFLOW_REF"].strip()
    expected = f"{allowed_repo}/{WORKFLOW_PATH}@{MAIN_REF}"
    if not _same_workflow(workflow_ref, expected):
        return False, (f"{PREFIX} refused: {what}; workflow {workflow_ref!r} is not {expected!r}")
    return True, f"{PREFIX} allowed: {what}"


def _same_workflow(workflow_ref: str, expected: str) -> bool:
    """``owner/name/PATH@REF`` equality: the owner/name part case-insensitively
    (GitHub repository names are), the path and ref exactly (they are not)."""
    got = workflow_ref.split("/", 2)
    want = expected.split("/", 2)
    if len(got) != 3:
        return False
    return "/".join(got[:2]).casefold() == "/".join(want[:2]).casefold() and got[2] == want[2]


def _escape_command_data(text: str) -> str:
    # Escaping for workflow-command data, so a value cannot end the annotation.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def main(env: Mapping[str, str] = os.environ) -> int:
    ok, message = check(env)
    if ok:
        print(message, flush=True)
        return 0
    # "::error::" turns the line into an annotation on the failed job.
    print(f"::error::{_escape_command_data(message)}", flush=True)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
