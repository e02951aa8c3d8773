"""windows.yml: the hosted Windows job runs the README's commands in both PowerShells, read-only.
Split out of tests/repo/test_workflows.py."""

from __future__ import annotations

import pytest
import yaml

from workflow_rules import WINDOWS, load, runs_on_labels, steps, triggers


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
        if (job.get("defaults") or {}).get("run", {}).get("shell") != "${{ matrix.shell }}" or env.get(
            "README_SHELL"
        ) != "${{ matrix.shell }}":
            problems.append(f"job {name}: steps and README commands must run in the matrix shell")
        runs = [str(s.get("run", "")) for s in steps(job)]
        for wanted in (
            "readme_commands.py serve --shell $env:README_SHELL",
            "readme_commands.py run test --shell $env:README_SHELL",
        ):
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
