"""directml.yml: the GPU PC's workflow never runs code from a pull request, installs only from a
hash lock, and runs the suite with REQUIRE_DIRECTML=1. Split out of tests/repo/test_workflows.py."""

from __future__ import annotations

import copy
import re
import subprocess
import sys

import pytest

from workflow_rules import (
    DIRECTML,
    DIRECTML_LABELS,
    GITHUB_DIR,
    effective_env,
    load,
    runs_on_labels,
    steps,
    triggers,
)


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
        verify = [i for i, s in enumerate(run_steps) if re.search(r"snippets[\\/]verify_directml\.py", s["run"])]
        suite = [i for i, s in enumerate(run_steps) if re.search(r"-m pytest\b", s["run"]) and "--junitxml" in s["run"]]
        if not verify:
            problems.append(f"job {name}: does not run snippets/verify_directml.py")
        if not suite:
            problems.append(f"job {name}: does not run `python -m pytest --junitxml=...`")
        if verify and suite and verify[0] > suite[0]:
            problems.append(f"job {name}: verification must run before the suite")
        for i in suite:
            if effective_env(workflow, job, run_steps[i]).get("REQUIRE_DIRECTML") != "1":
                problems.append(f"job {name}: the suite runs without REQUIRE_DIRECTML=1")
        installs = [
            line.strip() for s in run_steps for line in s["run"].splitlines() if re.search(r"\bpip\s+install\b", line)
        ]
        if not installs:
            problems.append(f"job {name}: installs nothing")
        picked = any(
            re.search(
                r"\.github[\\/]locks[\\/]pick\.py \.github[\\/]locks[\\/]\S+ setuptools > \S*build-backend\.txt",
                s["run"],
            )
            for s in run_steps
        )
        for line in installs:
            from_lock = re.search(r"--require-hashes (--no-build-isolation )?-r \.github[\\/]locks[\\/]\S+", line)
            backend = picked and re.search(r"--require-hashes --no-deps -r \S*build-backend\.txt", line)
            if not (from_lock or backend):
                problems.append(f"job {name}: `{line}` does not install from a lock with --require-hashes")
            if from_lock and not from_lock.group(1):
                problems.append(
                    f"job {name}: `{line}`: jieba's build backend would come unhashed (no --no-build-isolation)"
                )
        if not picked:
            problems.append(f"job {name}: the build backend (setuptools) is not installed from the lock first")
        pick_steps = [s["run"] for s in run_steps if "pick.py" in s["run"]]
        if pick_steps and "if ($LASTEXITCODE) { exit $LASTEXITCODE }" not in pick_steps[0]:
            # pwsh checks the last command only: a failed pick.py leaves an empty file, pip then exits 0.
            problems.append(f"job {name}: pick.py's exit code is not checked before pip runs")
        if "!github.event.repository.fork" not in str(job.get("if", "")):
            problems.append(f"job {name}: a fork has no GPU runner: the job would wait queued, then be cancelled")
        if (job.get("env") or {}).get("SHELL_BLOCK_INSTALLS") != "none":
            problems.append(
                f"job {name}: shell blocks that install unhashed packages would run (SHELL_BLOCK_INSTALLS: none)"
            )
        for i in suite:
            if not re.search(r"--basetemp \"?\$env:RUNNER_TEMP\\\w{1,4}\"?", run_steps[i]["run"]):
                problems.append(f"job {name}: pytest needs a short --basetemp under $env:RUNNER_TEMP (MAX_PATH)")
        if any(str(s.get("uses", "")).startswith("actions/cache@") for s in steps(job)):
            problems.append(f"job {name}: actions/cache on the GPU PC (a restore writes before anything is checked)")
        uploads = [s for s in steps(job) if str(s.get("uses", "")).startswith("actions/upload-artifact@")]
        if not uploads:
            problems.append(f"job {name}: no actions/upload-artifact step for the JUnit report")
        elif "hashFiles('reports/directml-junit.xml') != ''" not in str(uploads[0].get("if", "")):
            problems.append(f"job {name}: the upload runs where no report was written (a second red step)")
    return problems


def test_directml_workflow():
    assert directml_problems(load(DIRECTML)) == []


def test_directml_sets_require_directml_and_the_labels_literally():
    workflow = load(DIRECTML)
    (job,) = workflow["jobs"].values()
    assert job["env"]["REQUIRE_DIRECTML"] == "1"
    assert job["runs-on"] == ["self-hosted", "windows", "x64", "directml"]
    assert triggers(workflow) == {"push": {"branches": ["main"]}, "workflow_dispatch": None}


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
        "unlocked install": mutate(
            lambda wf: [
                s.update({"run": "python -m pip install --group test"})
                for s in wf["jobs"][job]["steps"]
                if "pip install" in s.get("run", "")
            ]
        ),
        "build isolation": mutate(
            lambda wf: [
                s.update({"run": s["run"].replace("--no-build-isolation ", "")})
                for s in wf["jobs"][job]["steps"]
                if "run" in s
            ]
        ),
        "no hashed backend": mutate(
            lambda wf: wf["jobs"][job].update(
                steps=[s for s in wf["jobs"][job]["steps"] if "pick.py" not in s.get("run", "")]
            )
        ),
        "installing blocks": mutate(lambda wf: wf["jobs"][job]["env"].pop("SHELL_BLOCK_INSTALLS")),
        "long basetemp": mutate(
            lambda wf: [
                s.update({"run": s["run"].replace('--basetemp "$env:RUNNER_TEMP\\pt" ', "")})
                for s in wf["jobs"][job]["steps"]
                if "run" in s
            ]
        ),
        "pick unchecked": mutate(
            lambda wf: [
                s.update({"run": s["run"].replace("if ($LASTEXITCODE) { exit $LASTEXITCODE }", "")})
                for s in wf["jobs"][job]["steps"]
                if "run" in s
            ]
        ),
        "in forks": mutate(lambda wf: wf["jobs"][job].pop("if", None)),
        "upload without a report": mutate(
            lambda wf: [
                s.update({"if": "${{ !cancelled() }}"})
                for s in wf["jobs"][job]["steps"]
                if "upload-artifact" in str(s.get("uses"))
            ]
        ),
        "a cache": mutate(
            lambda wf: wf["jobs"][job]["steps"].insert(
                4, {"uses": "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae", "with": {"path": "x", "key": "y"}}
            )
        ),
    }


@pytest.mark.parametrize("name", list(_mutants()))
def test_directml_rule_catches(name):
    assert directml_problems(_mutants()[name]) != []


def test_pick_prints_the_locks_own_setuptools_with_its_hashes():
    lock = GITHUB_DIR / "locks" / "test-windows-py3.12.txt"
    result = subprocess.run(
        [sys.executable, str(GITHUB_DIR / "locks" / "pick.py"), str(lock), "setuptools"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"setuptools==[\d.]+ \\", lines[0]) and lines[0].split(" ")[0] in lock.read_text(
        encoding="utf-8"
    )
    assert len(lines) >= 2 and all(re.fullmatch(r"    --hash=sha256:[0-9a-f]{64}( \\)?", line) for line in lines[1:])
    missing = subprocess.run(
        [sys.executable, str(GITHUB_DIR / "locks" / "pick.py"), str(lock), "not-a-package"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode == 1 and missing.stderr.strip() == "error: not in the lock: not-a-package"
