"""freshness.yml: weekly, read-only but for the report job, lychee over the built site.
Split out of tests/repo/test_workflows.py."""

from __future__ import annotations

import re
import tomllib

import pytest
import yaml

from workflow_rules import (
    FRESHNESS,
    GITHUB_DIR,
    least_privilege_problems,
    load,
    steps,
    triggers,
)

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
    script = [r for r in runs if ".github/scripts/freshness.py check" in r]
    if not script or "--links lychee/out.md" not in script[0] or "--body" not in script[0]:
        problems.append("check job: does not run `.github/scripts/freshness.py check --body ... --links lychee/out.md`")
    uses = [str(s.get("uses", "")) for s in steps(check)]
    lychee_at = [i for i, u in enumerate(uses) if u.startswith("lycheeverse/lychee-action@")]
    cache_at = [i for i, s in enumerate(steps(check)) if ".lycheecache" in str((s.get("with") or {}).get("path", ""))]
    if not lychee_at:
        problems.append("check job: no lychee step")
    else:
        given = steps(check)[lychee_at[0]].get("with") or {}
        if "--config .github/lychee.toml" not in str(given.get("args", "")) or "site/" not in str(
            given.get("args", "")
        ):
            problems.append("lychee: must check the built site/ with .github/lychee.toml")
        if '--root-dir "${{ github.workspace }}/site"' not in str(given.get("args", "")):
            # The build has no SITE_URL: root-relative links, each an error without a root dir.
            problems.append('lychee: needs --root-dir "${{ github.workspace }}/site" for the root-relative links')
        if not re.fullmatch(r"v\d+\.\d+\.\d+", str(given.get("lycheeVersion", ""))):
            problems.append("lychee: lycheeVersion must pin a release")
        if given.get("fail") is not False:
            problems.append("lychee: fail must be false (the script reports broken links in the issue)")
        if not cache_at or cache_at[0] > lychee_at[0]:
            problems.append("check job: no cache of .lycheecache before lychee")
    if lychee.get("cache") and lychee.get("cache_exclude_status") != "400..=599":
        problems.append('lychee.toml: a cached failure replays on a re-run: cache_exclude_status = "400..=599"')
    if not lychee.get("cache") or int(lychee.get("max_retries", 0)) < 2 or not lychee.get("retry_wait_time"):
        problems.append("lychee.toml: needs cache = true and a retry policy (max_retries >= 2, retry_wait_time)")
    issue_runs = [str(s.get("run", "")) for s in steps(report)]
    if not any(".github/scripts/freshness.py issue" in r for r in issue_runs):
        problems.append("report job: does not run `.github/scripts/freshness.py issue`")
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
        "report writes contents": mutate(
            lambda wf, check, report, on, ly: report["permissions"].update(contents="write")
        ),
        "report always": mutate(lambda wf, check, report, on, ly: report.pop("if")),
        "a secret": mutate(
            lambda wf, check, report, on, ly: report["steps"][-1]["env"].update(GH_TOKEN="${{ secrets.PAT }}")
        ),
        "no site build": mutate(
            lambda wf, check, report, on, ly: check.update(
                steps=[s for s in check["steps"] if "mkdocs build" not in str(s.get("run", ""))]
            )
        ),
        "lychee fails the job": mutate(lychee_with(fail=True)),
        "lychee unpinned": mutate(lychee_with(lycheeVersion="latest")),
        "no lychee config": mutate(lychee_with(args="site/")),
        "no cache": mutate(
            lambda wf, check, report, on, ly: check.update(
                steps=[s for s in check["steps"] if ".lycheecache" not in str(s.get("with", ""))]
            )
        ),
        "no root dir": mutate(lychee_with(args='--config .github/lychee.toml --no-progress "site/**/*.html"')),
        "failures cached": mutate(lambda wf, check, report, on, ly: ly.pop("cache_exclude_status", None)),
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
