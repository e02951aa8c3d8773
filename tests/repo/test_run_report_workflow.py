"""The run-report workflow (.github/workflows/run-report.yml) and its validator (tests/tools/validate_run_report.py).

Each bad report gets one clear reason; the workflow's validation job runs here, step by step through the local
workflow runner (tests/tools/run_workflow.py), on fixture event payloads: a valid report, invalid ones, and
injection attempts in the title and the body, none of which may run. run_workflow.py gives a job no event file,
so the test adds GITHUB_EVENT_PATH (and the `issues` event name) to the environment it builds for the job.

tests/repo/run_reports/report.json is a real report (report.py on this project's CPU machine); every bad
report below is made from it here, in the test.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import run_workflow
import validate_run_report as validator

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "run-report.yml"
FORM = ROOT / ".github" / "ISSUE_TEMPLATE" / "run-report.yml"
REAL = (Path(__file__).parent / "run_reports" / "report.json").read_text(encoding="utf-8")


def real() -> dict:
    return json.loads(REAL)


def changed(change) -> str:
    report = real()
    change(report)
    return json.dumps(report, indent=1)


def set_path(report: dict, path: str, value) -> None:
    *parents, last = path.split(".")
    for part in parents:
        report = report[int(part)] if part.isdigit() else report[part]
    report[int(last) if last.isdigit() else last] = value


def finding_text(value):
    return lambda r: set_path(r, "doctor.findings.1.text", value)


BAD = {
    "malformed": ('{"schema": "directml-guide-run-report",', "the report is not valid JSON"),
    "oversized": (REAL.replace("\n", "\n" + " " * 1000), "bytes, more than 48000"),
    "not an object": ("[1, 2]", "the report is not a JSON object"),
    "NaN timing": (
        REAL.replace('"seconds_per_epoch": ', '"seconds_per_epoch": NaN, "x": '),
        "NaN is not a number JSON allows",
    ),
    "infinite timing": (
        REAL.replace('"seconds_per_epoch": ', '"seconds_per_epoch": Infinity, "x": '),
        "Infinity is not a number",
    ),
    "negative timing": (
        changed(lambda r: set_path(r, "timed_run.seconds_per_epoch", -1.5)),
        "report.timed_run.seconds_per_epoch: -1.5 is less than or equal to the minimum of 0",
    ),
    "zero epoch time": (
        changed(lambda r: set_path(r, "timed_run.epochs.0.seconds", 0)),
        "report.timed_run.epochs[0].seconds: 0 is less than or equal to the minimum of 0",
    ),
    "timing unbounded": (
        changed(lambda r: set_path(r, "timed_run.epochs.0.seconds", 1e9)),
        "report.timed_run.epochs[0].seconds: 1000000000.0 is greater than the maximum of 36000",
    ),
    "accuracy above 1": (
        changed(lambda r: set_path(r, "timed_run.accuracy", 1.2)),
        "report.timed_run.accuracy: 1.2 is greater than the maximum of 1",
    ),
    "unknown back-end": (
        changed(lambda r: set_path(r, "system.backend", "Vulkan")),
        "report.system.backend: 'Vulkan' is not one of",
    ),
    "missing field": (changed(lambda r: r["gpu"].pop("driver")), "report.gpu: 'driver' is a required property"),
    "extra field": (
        changed(lambda r: r.update(comment="hi")),
        "Additional properties are not allowed ('comment' was unexpected)",
    ),
    "unknown schema version": (changed(lambda r: set_path(r, "schema_version", 2)), "unknown schema version 2"),
    "no schema version": (changed(lambda r: r.pop("schema_version")), "unknown schema version None"),
    "Windows user in a path": (
        changed(finding_text("3.12.7, 64-bit, C:\\Users\\alice\\proj\\.venv\\Scripts\\python.exe")),
        "report.doctor.findings[1].text: a user name in a path (C:\\Users\\alice)",
    ),
    "Linux user in a path": (
        changed(finding_text("the project's virtual environment: /home/bob/proj/.venv")),
        "a user name in a path (/home/bob)",
    ),
    "macOS user in a path": (changed(finding_text("/Users/carol/p/.venv")), "a user name in a path (/Users/carol)"),
    "Windows host name": (changed(finding_text("built on DESKTOP-7QK2M1B")), "a host or user name (DESKTOP-7QK2M1B)"),
    "UNC host name": (changed(finding_text("\\\\fileserver\\share\\proj")), "a host or user name (\\\\fileserver\\)"),
    "user@host": (changed(finding_text("dave@workstation ran it")), "a host or user name (dave@workstation)"),
    "HTML in the GPU name": (
        changed(lambda r: set_path(r, "gpu.name", "<img src=x onerror=alert(1)>")),
        "report.gpu.name: holds markup (<i)",
    ),
    "script in a finding": (
        changed(finding_text("<script>alert(1)</script>")),
        "report.doctor.findings[1].text: holds markup (<s)",
    ),
    "script URL in a fix": (
        changed(lambda r: set_path(r, "doctor.findings.0.fix", "javascript:alert(1)")),
        "holds markup (javascript:)",
    ),
    "entity in the reason": (
        changed(lambda r: set_path(r, "training_check.reason", "&lt;b&gt;")),
        "report.training_check.reason: holds markup (&lt;)",
    ),
    "summary not the last epoch": (
        changed(lambda r: set_path(r, "timed_run.seconds_per_epoch", 1.0)),
        "report.timed_run.seconds_per_epoch: is not the last epoch's seconds",
    ),
    "passed beyond tolerance": (
        changed(lambda r: set_path(r, "training_check.loss_difference", 0.5)),
        "report.training_check.loss_difference: 0.5 does not fit a passed check",
    ),
    "future date": (changed(lambda r: set_path(r, "date", "2099-01-01")), "report.date: 2099-01-01 is not a past day"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_each_bad_report_gets_one_clear_reason(name):
    text, reason = BAD[name]
    report, problems, _ = validator.validate(text)
    assert report is None
    assert len(problems) == 1, problems
    assert reason in problems[0], problems


def test_the_real_report_is_valid():
    report, problems, notes = validator.validate(REAL)
    assert problems == [] and report == real()
    assert notes == []  # a CPU run: no GPU to look up


def test_a_gpu_that_gpus_yml_does_not_know_is_flagged_not_refused():
    text = changed(
        lambda r: (set_path(r, "system.backend", "DirectML"), set_path(r, "gpu.name", "Moore Threads MTT S80"))
    )
    report, problems, notes = validator.validate(text)
    assert problems == [] and report is not None
    assert notes and "`Moore Threads MTT S80` is not in docs/hooks/data/gpus.yml" in notes[0]
    known = changed(
        lambda r: (set_path(r, "system.backend", "DirectML"), set_path(r, "gpu.name", "AMD Radeon RX 7900 XTX"))
    )
    assert validator.validate(known)[2] == []


def test_every_run_on_the_site_is_valid():
    files = sorted((ROOT / "docs" / "hooks" / "data" / "runs").glob("*.json"))
    runs = [f for f in files if not f.name.startswith("schema-")]
    assert runs, "the site has no run"
    for path in runs:
        assert validator.validate(path.read_text(encoding="utf-8"))[1] == [], path.name


# --- the issue form ---------------------------------------------------------------------------------------


def test_the_form_labels_the_issue_asks_consent_and_renders_json():
    form = yaml.safe_load(FORM.read_text(encoding="utf-8"))
    assert form["labels"] == ["run-report"]
    fields = {item.get("id"): item for item in form["body"]}
    assert fields["report"]["attributes"]["render"] == "json"
    assert fields["report"]["validations"]["required"] is True
    consent = fields["consent"]["attributes"]["options"]
    assert all(option["required"] for option in consent)
    intro = form["body"][0]["attributes"]["value"]
    assert "run-report.json" in intro and "python report.py" in intro  # where the file is


def test_the_workflow_runs_only_for_the_form_and_never_interpolates_into_a_shell():
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    on = workflow.get("on", workflow.get(True))
    assert set(on) == {"issues"}
    assert workflow["jobs"]["validate"]["if"] == "contains(github.event.issue.labels.*.name, 'run-report')"
    for job in workflow["jobs"].values():
        for step in job.get("steps", []):
            assert "${{" not in step.get("run", ""), step.get("name")


# --- the workflow's validation job, through the local runner -----------------------------------------------


def issue_event(tmp_path: Path, title: str, body: str, number: int = 7) -> Path:
    event = tmp_path / "event.json"
    event.write_text(
        json.dumps(
            {
                "action": "opened",
                "issue": {"number": number, "title": title, "body": body, "labels": [{"name": "run-report"}]},
            }
        ),
        encoding="utf-8",
    )
    return event


def form_body(report: str) -> str:
    """What GitHub puts in the issue for the form (a `render: json` field is fenced)."""
    return f"### The report\n\n```json\n{report}\n```\n\n### Consent\n\n- [X] I have read the report\n"


def run_validate_job(event: Path, monkeypatch, capfd) -> tuple[bool, str]:
    real_environment = run_workflow.job_environment

    def with_event(*args, **kwargs):
        env = real_environment(*args, **kwargs)
        env.update(GITHUB_EVENT_PATH=str(event), GITHUB_EVENT_NAME="issues")
        return env

    monkeypatch.setattr(run_workflow, "job_environment", with_event)
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    ok = run_workflow.run_job(workflow, "validate", {}, "refs/heads/main", False)
    captured = capfd.readouterr()
    return ok, captured.out + captured.err


def test_the_job_accepts_a_valid_report(tmp_path, monkeypatch, capfd):
    ok, out = run_validate_job(issue_event(tmp_path, "Run report: CPU", form_body(REAL)), monkeypatch, capfd)
    assert ok, out
    assert "\nvalid\n" in out


def test_the_job_comments_an_invalid_report_without_failing(tmp_path, monkeypatch, capfd):
    body = form_body(changed(lambda r: set_path(r, "timed_run.accuracy", 1.2)))
    ok, out = run_validate_job(issue_event(tmp_path, "Run report", body), monkeypatch, capfd)
    assert ok, out
    assert "invalid: report.timed_run.accuracy: 1.2 is greater than the maximum of 1" in out


def test_injection_in_the_title_and_body_runs_nothing(tmp_path, monkeypatch, capfd):
    marker = tmp_path / "ran"
    attack = f'$(touch {marker}) `touch {marker}` "; touch {marker}; echo "'
    body = form_body(changed(lambda r: set_path(r, "gpu.name", attack[:100]))) + f"\n{attack}\n"
    ok, out = run_validate_job(issue_event(tmp_path, attack, body), monkeypatch, capfd)
    assert ok, out
    assert not marker.exists()
    assert "\nvalid\n" in out  # a name is text: quoted, never run (the site escapes it)
    markup = form_body(changed(lambda r: set_path(r, "gpu.name", "<script>alert(1)</script>")))
    ok, out = run_validate_job(issue_event(tmp_path, "<script>alert(1)</script>", markup), monkeypatch, capfd)
    assert ok and "invalid: report.gpu.name: holds markup" in out


def test_the_job_fails_on_an_event_that_is_not_an_issue(tmp_path, monkeypatch, capfd):
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "push"}), encoding="utf-8")
    ok, out = run_validate_job(event, monkeypatch, capfd)
    assert not ok
    assert "is not an issue event" in out


def test_the_comment_and_the_proposal(tmp_path):
    event = issue_event(tmp_path, "Run report", form_body(REAL), number=42)
    command = [
        sys.executable,
        str(ROOT / "tests" / "tools" / "validate_run_report.py"),
        "--event",
        str(event),
        "--comment",
        str(tmp_path / "comment.md"),
        "--proposal",
        str(tmp_path / "proposal"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "proposal" / "issue-42.json").read_text(encoding="utf-8") == REAL  # as report.py wrote it
    assert "docs/hooks/data/runs/issue-42.json" in (tmp_path / "comment.md").read_text(encoding="utf-8")
    bad = issue_event(tmp_path, "Run report", form_body("{"), number=43)
    command[3] = str(bad)
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert result.returncode == 1
    assert "the report is not valid JSON" in (tmp_path / "comment.md").read_text(encoding="utf-8")
    assert not (tmp_path / "proposal" / "issue-43.json").exists()


# --- the comment and pull-request jobs, their scripts as the workflow runs them, with a stand-in gh ---------

FAKE_GH = """#!/bin/sh
printf '%s\\n' "$*" >> "$GH_LOG"
case "$*" in
  "api repos/Owner/Repo --jq .default_branch") echo main ;;
  "api repos/Owner/Repo/git/ref/heads/main --jq .object.sha") echo 0123abc ;;
  "api repos/Owner/Repo/git/ref/heads/run-report/issue-"*) exit 1 ;;
  "api repos/Owner/Repo/contents/"*"?ref="*) exit 1 ;;
  "issue comment "*) cp "$5" "$GH_LOG.comment" ;;
esac
"""


def run_step(job: str, env: dict, tmp_path: Path) -> tuple[subprocess.CompletedProcess, list[str]]:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    (step,) = workflow["jobs"][job]["steps"]
    assert set(step["env"]) == {"GH_TOKEN", "GH_REPO", "NUMBER", *env}  # what the test stands in for
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "gh").write_text(FAKE_GH, encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    script = tmp_path / "step.sh"
    script.write_text(step["run"], encoding="utf-8")
    log = tmp_path / "gh.log"
    full = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "RUNNER_TEMP": str(tmp_path),
        "GH_LOG": str(log),
        "GH_TOKEN": "t",
        "GH_REPO": "Owner/Repo",
        **env,
    }
    if shutil.which("bash") is None:  # Windows: the job runs on ubuntu-24.04; its bash step is tested there
        pytest.skip("no bash here: the run-report jobs' steps are bash scripts of an ubuntu-24.04 job")
    result = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        env=full,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return result, log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def test_the_comment_job_posts_the_validators_comment(tmp_path):
    text = "**The run report is valid.** `$(touch x)`\n"
    result, calls = run_step("comment", {"NUMBER": "7", "COMMENT": base64.b64encode(text.encode()).decode()}, tmp_path)
    assert result.returncode == 0, result.stderr
    assert calls == [f"issue comment 7 --body-file {tmp_path}/comment.md"]
    assert (tmp_path / "gh.log.comment").read_text(encoding="utf-8") == text
    assert not (tmp_path / "x").exists()


def test_the_propose_job_adds_the_file_on_a_branch_and_opens_one_pull_request(tmp_path):
    content = base64.b64encode(REAL.encode()).decode()
    result, calls = run_step("propose", {"NUMBER": "7", "REPORT": content}, tmp_path)
    assert result.returncode == 0, result.stderr
    path = "docs/hooks/data/runs/issue-7.json"
    assert calls[:3] == [
        "api repos/Owner/Repo --jq .default_branch",
        "api repos/Owner/Repo/git/ref/heads/run-report/issue-7",
        "api repos/Owner/Repo/git/ref/heads/main --jq .object.sha",
    ]
    assert "api repos/Owner/Repo/git/refs -f ref=refs/heads/run-report/issue-7 -f sha=0123abc" in calls
    assert (
        f"api -X PUT repos/Owner/Repo/contents/{path} -f branch=run-report/issue-7 -f content={content} "
        "-f message=Run report from issue #7"
    ) in calls
    assert any(
        c.startswith("pr create --head run-report/issue-7 --base main --title Run report from issue #7") for c in calls
    )
