"""Job-started hook for the self-hosted DirectML runner.

The runner calls the script named in ACTIONS_RUNNER_HOOK_JOB_STARTED before every
job; a non-zero exit code stops the job and marks it failed. This hook lets a job
run only when it comes from

* a ``push`` to ``refs/heads/main``, or
* a ``workflow_dispatch`` (only people with write access can start one),

of the one repository named in ``DIRECTML_ALLOWED_REPOSITORY`` (``owner/name``).
Everything else -- ``pull_request``, ``pull_request_target``, pushes to other
branches, other repositories, missing variables -- is refused. It fails closed:
if the allow-list variable is not set, every job is refused.

Standard library only, Python 3.8+. Install a copy OUTSIDE the runner folder
(see docs/contributing/gpu-runner.md); ``job_started_hook.ps1`` calls it.
"""

from __future__ import annotations

import os
import sys
from typing import Mapping, Tuple

ALLOWED_REPOSITORY_VAR = "DIRECTML_ALLOWED_REPOSITORY"
MAIN_REF = "refs/heads/main"
PREFIX = "job-started hook:"
REQUIRED = ("GITHUB_EVENT_NAME", "GITHUB_REF", "GITHUB_REPOSITORY")


def check(env: Mapping[str, str]) -> Tuple[bool, str]:
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
        return False, (
            f"{PREFIX} refused: {what}; this runner only serves {allowed_repo!r}"
        )
    if event == "push" and ref == MAIN_REF:
        return True, f"{PREFIX} allowed: {what}"
    if event == "workflow_dispatch":
        return True, f"{PREFIX} allowed: {what}"
    return False, (
        f"{PREFIX} refused: {what}; this runner only runs a push to "
        f"{MAIN_REF} or a workflow_dispatch"
    )


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
    sys.exit(main())
