"""The run-report workflow (.github/workflows/run-report.yml) and its validator (docs/hooks/data/runs/validate.py).

* The validator, by table: tests/repo/run_reports/hostile.yml holds the reliability reviews' hostile and
  malformed reports, each made here from a real report, with what the review's validator did and the reason
  now expected. The classes of characters, path forms, keys, integers, combinations and issue bodies are
  generated, not rows: tests/repo/test_run_report_fuzz.py.
* The workflow, through a local run of its jobs' steps (each `run:` script in bash, its `env:` and `if:` filled
  in from the event and the earlier jobs' results, `gh` a stand-in that logs each call): every path ends in one
  comment on the issue, saying what happened and what to do; a refused pull request and a missing label (the
  repository's first-run settings) also fail a step that names the setting.

tests/repo/run_reports/report.json is a real report (report.py on this project's CPU machine, its two folder
paths written relative to the scripts folder as report.py now writes them).
"""

from __future__ import annotations

import base64
import importlib.util
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import workflow_rules
from run_report_cases import changed_by

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = ROOT / "docs" / "hooks" / "data" / "runs" / "validate.py"
WORKFLOW = ROOT / ".github" / "workflows" / "run-report.yml"
FORM = ROOT / ".github" / "ISSUE_TEMPLATE" / "run-report.yml"
TABLE = Path(__file__).parent / "run_reports" / "hostile.yml"
REAL = (Path(__file__).parent / "run_reports" / "report.json").read_text(encoding="utf-8")

_spec = importlib.util.spec_from_file_location("run_report_validate", VALIDATOR)
validator = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validator)


def bases(table: dict) -> dict[str, dict]:
    made = {}
    for name, base in table["bases"].items():
        if isinstance(base, str):
            made[name] = json.loads((ROOT / base).read_text(encoding="utf-8"))
        else:
            made[name] = changed_by(made[base["from"]], base["set"])
    return made


def build(case: dict, made: dict[str, dict]) -> str:
    """A row's report text: its base with its one change."""
    base = made[case.get("base", "h200")]
    text = json.dumps(base, indent=1)
    if "set" in case:
        return json.dumps(changed_by(base, case["set"]), indent=1)
    if "pop" in case:
        report = json.loads(text)
        *parents, last = case["pop"].split(".")
        place = report
        for part in parents:
            place = place[part]
        place.pop(last)
        return json.dumps(report, indent=1)
    if "text" in case:
        return case["text"]
    if "repeat" in case:
        piece, times = case["repeat"]
        return piece * times
    if "replace" in case:
        old, new = case["replace"]
        assert old in text, case["name"]
        return text.replace(old, new, 1)
    key, opening, leaf, closing, times = case["nest"]
    anchor = '"schema_version": 1,'
    return text.replace(anchor, f'{anchor} "{key}": {opening * times}{leaf}{closing * times},', 1)


def test_the_hostile_reports():
    """The 28 bad reports the old validator accepted and the 4 it crashed on were measured red on it. Each row that
    the validator gets wrong is listed (a crash too)."""
    table = yaml.safe_load(TABLE.read_text(encoding="utf-8"))
    made = bases(table)
    failures = []
    for case in table["cases"]:
        label = f"{case['name']} ({case['review']})"
        try:
            report, problems, _ = validator.validate(build(case, made))
        except Exception as error:  # noqa: BLE001 - a crash is a row's failure, listed with the others
            failures.append(f"{label}: crash {type(error).__name__}: {str(error)[:80]}")
            continue
        if any("\n" in p for p in problems):
            failures.append(f"{label}: a reason of more than one line")
        if case.get("accepted"):
            if problems:
                failures.append(f"{label}: refused: {problems[0]}")
        elif report is not None:
            failures.append(f"{label}: accepted")
        elif not any(case["refused"] in p for p in problems):
            failures.append(f"{label}: refused for another reason: {problems[0][:160]}")
    assert not failures, f"{len(failures)} of {len(table['cases'])} rows:\n" + "\n".join(failures)


def test_the_real_report_and_every_run_on_the_site_are_valid():
    files = sorted((ROOT / "docs" / "hooks" / "data" / "runs").glob("*.json"))
    runs = [f for f in files if not f.name.startswith("schema-")]
    assert runs, "the site has no run"
    for name, text in [("report.json", REAL)] + [(p.name, p.read_text(encoding="utf-8")) for p in runs]:
        assert validator.validate(text)[1] == [], name


def test_a_gpu_that_gpus_yml_does_not_know_or_knows_only_by_its_vendor_is_flagged_not_refused():
    real = json.loads(REAL)
    directml = {"system.os": "Windows-11-10.0.26100-SP0", "system.windows_build": 26100}
    directml |= {"system.backend": "DirectML", "gpu.device": "privateuseone:0", "system.torch": "2.4.1"}
    directml |= {"system.backend_version": validator.what_exists()["directml"], "system.python": "3.12.7"}
    for name, note in [
        ("Moore Threads MTT S80", "`Moore Threads MTT S80` is not in docs/hooks/data/gpus.yml"),
        # match.js takes "NVIDIA" for its own name only: an unknown NVIDIA card is unknown, not the generic row.
        ("NVIDIA GeForce RTX 9090", "`NVIDIA GeForce RTX 9090` is not in docs/hooks/data/gpus.yml"),
    ]:
        report, problems, notes = validator.validate(json.dumps(changed_by(real, directml | {"gpu.name": name})))
        assert problems == [] and report is not None
        assert notes and note in notes[0], notes
    known = changed_by(real, directml | {"gpu.name": "AMD Radeon RX 7900 XTX"})
    assert validator.validate(json.dumps(known))[2] == []


def test_an_error_inside_the_validator_is_one_line_and_exit_3(tmp_path, monkeypatch, capsys):
    def broken(report):
        raise KeyError("gpu")

    monkeypatch.setattr(validator, "hardware_problems", broken)
    (tmp_path / "r.json").write_text(REAL, encoding="utf-8")
    assert validator.main(["--file", str(tmp_path / "r.json")]) == validator.EXIT_INTERNAL == 3
    out = capsys.readouterr()
    lines = (out.out + out.err).splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    assert lines[0].startswith("error: the validator itself failed (") and "KeyError: 'gpu'" in lines[0]


# --- the issue form and the pages ---------------------------------------------------------------------------


def test_the_form_labels_the_issue_says_what_the_file_holds_and_that_it_is_public():
    form = yaml.safe_load(FORM.read_text(encoding="utf-8"))
    assert form["labels"] == ["run-report"]
    assert form["title"].startswith("Run report")  # what starts the check when the label is missing
    fields = {item.get("id"): item for item in form["body"]}
    assert fields["report"]["attributes"]["render"] == "json"
    assert fields["report"]["validations"]["required"] is True
    consent = fields["consent"]["attributes"]["options"]
    assert all(option["required"] for option in consent)
    intro = form["body"][0]["attributes"]["value"]
    assert "run-report.json" in intro and "python report.py" in intro  # where the file is
    for said in ("public", "folder", "edit history"):
        assert said in intro, said
    for page in ("runs.md", "runs.zh.md"):
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        assert "Nothing else about you" not in text and "没有关于你的其他信息" not in text, page


def test_first_run_names_the_label_and_the_pull_request_setting():
    for page in ("first-run.md", "first-run.zh.md"):
        text = (ROOT / "docs" / "contributing" / page).read_text(encoding="utf-8")
        assert "`run-report`" in text, page
        assert "Allow GitHub Actions to create and approve pull requests" in text, page


# --- the workflow, each path through a local run of its jobs ------------------------------------------------


def issue_event(tmp_path: Path, title: str, body: str, number: int = 7, labels=("run-report",)) -> Path:
    event = tmp_path / f"event-{number}.json"
    issue = {"number": number, "title": title, "body": body, "labels": [{"name": n} for n in labels]}
    event.write_text(json.dumps({"action": "opened", "issue": issue}), encoding="utf-8")
    return event


def form_body(report: str) -> str:
    """What GitHub puts in the issue for the form (a `render: json` field is fenced)."""
    return f"### The report\n\n```json\n{report}\n```\n\n### Consent\n\n- [X] I have read the report\n"


FAKE_GH = """#!/bin/sh
printf '%s\\n' "$*" >> "$GH_LOG"
case "$*" in
  "api repos/Owner/Repo --jq .default_branch") echo main ;;
  "api repos/Owner/Repo/git/ref/heads/main --jq .object.sha") echo 0123abc ;;
  "api repos/Owner/Repo/git/ref/heads/run-report/issue-"*) exit 1 ;;
  "api repos/Owner/Repo/contents/"*"?ref="*) exit 1 ;;
  "api repos/Owner/Repo/labels/run-report --silent")
    if [ "$GH_LABEL" != yes ]; then echo 'gh: Not Found (HTTP 404)' >&2; exit 1; fi ;;
  "pr create "*)
    case "$GH_PR" in
      opened) echo https://github.com/Owner/Repo/pull/8 ;;
      refused) echo 'pull request create failed: GraphQL: GitHub Actions is not permitted to create or approve pull requests (createPullRequest)' >&2; exit 1 ;;
      *) echo 'gh: HTTP 502: Bad Gateway' >&2; exit 1 ;;
    esac ;;
  "issue comment "*) cp "$5" "$GH_LOG.comment-$(wc -l < "$GH_LOG")" ;;
  "api -X PUT "*) if [ "$GH_PUT" = fail ]; then echo 'gh: HTTP 502: Bad Gateway' >&2; exit 1; fi ;;
  "workflow run "*) if [ "$GH_DISPATCH" = fail ]; then echo 'could not create workflow dispatch event: HTTP 422' >&2; exit 1; fi ;;
esac
"""


def stopped(status: int, *lines: str) -> str:
    """A Python that stops without a verdict: it prints ``lines`` and exits with ``status``, writing no comment
    (the validator's own exit 3 is test_an_error_inside_the_validator_is_one_line_and_exit_3's)."""
    return "#!/bin/sh\n" + "".join(f"echo {shlex.quote(line)} >&2\n" for line in lines) + f"exit {status}\n"


def evaluate(expression: str | None, values: dict) -> bool:
    """A job's or step's `if:`: workflow_rules.condition, with always(), contains() and startsWith() worked out."""

    def call(match: re.Match) -> str:
        name, args = match.group(1), [a.strip() for a in match.group(2).split(",") if a.strip()]
        if name == "cancelled":  # a local run is never cancelled
            return "'true' == 'false'"
        subject, wanted = values[args[0]], args[1].strip("'")
        found = wanted in subject if name == "contains" else subject.lower().startswith(wanted.lower())
        return "'true' == 'true'" if found else "'true' == 'false'"

    expression = re.sub(r"^\$\{\{(.*)\}\}$", r"\1", (expression or "").strip())
    unset = re.findall(r"(?:steps|needs)\.[\w-]+\.outputs\.[\w-]+", expression or "")  # GitHub reads those as ''
    values = {**dict.fromkeys(unset, ""), **values}
    return workflow_rules.condition(re.sub(r"(\w+)\(([^()]*)\)", call, expression or ""), values)


def run_steps(job: dict, values: dict, env: dict, tmp_path: Path) -> tuple[str, dict, str]:
    """A job's `run:` steps as GitHub runs them (a `uses:` step is this checkout and this Python; the hash-locked
    install is stood in for by the test environment): (result, step outputs, log)."""
    outputs, log = {}, ""
    for number, step in enumerate(job["steps"]):
        flat = {f"steps.{k}.outputs.{o}": v for k, d in outputs.items() for o, v in d.items()}
        step_values = {**values, **flat, "steps": outputs}
        if "run" not in step or "--require-hashes" in step["run"] or not evaluate(step.get("if"), step_values):
            continue
        output = tmp_path / f"output-{id(job)}-{number}"
        output.write_text("", encoding="utf-8")
        step_env = {k: workflow_rules.expand(str(v), step_values) for k, v in (step.get("env") or {}).items()}
        script = tmp_path / "step.sh"
        script.write_text(step["run"], encoding="utf-8")
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=ROOT,
            env={**env, **step_env, "GITHUB_OUTPUT": str(output)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        log += result.stdout + result.stderr
        lines = output.read_text(encoding="utf-8").splitlines()
        outputs[step.get("id", str(number))] = dict(line.split("=", 1) for line in lines if "=" in line)
        if result.returncode != 0:
            return "failure", outputs, log
    return "success", outputs, log


def run_locally(event: Path, tmp_path: Path, label="yes", pull="opened", python=None, put="ok", dispatch="ok") -> dict:
    """The three jobs in their order, as GitHub chains them: each job's result and outputs feed the next."""
    if shutil.which("bash") is None:  # Windows: the jobs run on ubuntu-24.04; their bash steps are tested there
        pytest.skip("no bash here: the run-report jobs' steps are bash scripts of an ubuntu-24.04 job")
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    issue = json.loads(event.read_text(encoding="utf-8")).get("issue") or {}
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "gh").write_text(FAKE_GH, encoding="utf-8")
    if python:
        (bin_dir / "python").write_text(python, encoding="utf-8")
    else:
        (bin_dir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "GITHUB_EVENT_PATH": str(event),
        "GH_LOG": str(tmp_path / "gh.log"),
        "GH_LABEL": label,
        "GH_PR": pull,
        "GH_PUT": put,
        "GH_DISPATCH": dispatch,
    }
    values = {
        "github.event.issue.labels.*.name": [item["name"] for item in issue.get("labels", [])],
        "github.event.issue.title": issue.get("title", ""),
        "github.event.issue.number": str(issue.get("number", "")),
        "github.repository": "Owner/Repo",
        "github.server_url": "https://github.com",
        "github.run_id": "99",
        "github.token": "t",
    }
    run = {"log": ""}
    for name, job in workflow["jobs"].items():
        needs = [job["needs"]] if isinstance(job.get("needs"), str) else job.get("needs", [])
        # Without a status function in its `if:`, a job runs only when every job it needs succeeded.
        failed = "cancelled()" not in str(job.get("if")) and any(
            values[f"needs.{n}.result"] != "success" for n in needs
        )
        if failed or not evaluate(job.get("if"), values):
            result, outputs, log = "skipped", {}, ""
        else:
            (tmp_path / name).mkdir()
            result, outputs, log = run_steps(job, values, {**env, "RUNNER_TEMP": str(tmp_path / name)}, tmp_path / name)
        values[f"needs.{name}.result"] = result
        for key, expression in (job.get("outputs") or {}).items():
            values[f"needs.{name}.outputs.{key}"] = workflow_rules.expand(expression, {"steps": outputs})
        run[name] = result
        run["log"] += log
    calls = (tmp_path / "gh.log").read_text(encoding="utf-8").splitlines() if (tmp_path / "gh.log").exists() else []
    run["calls"] = calls
    run["comments"] = [p.read_text(encoding="utf-8") for p in sorted(tmp_path.glob("gh.log.comment-*"))]
    run["errors"] = re.findall(r"::error::(.*)", run["log"])
    return run


INVALID = json.dumps(changed_by(json.loads(REAL), {"timed_run.accuracy": 1.2}), indent=1)
# Each path: the event's report, title and labels, the repository (label, pull requests), the Python;
# what each job ends as; what the one comment says; what a failed step names.
PATHS = {
    "valid": (
        dict(report=REAL),
        {"validate": "success", "propose": "success", "comment": "success"},
        [
            "**The run report is valid.**",
            "A pull request adds the run to the site: https://github.com/Owner/Repo/pull/8",
        ],
        [],
    ),
    "invalid": (
        dict(report=INVALID),
        {"validate": "success", "propose": "skipped", "comment": "success"},
        ["**The run report was not accepted.**", "report.timed_run.accuracy: 1.2 is greater than the maximum of 1"],
        [],
    ),
    "the validator's own error": (
        dict(report=REAL, python=stopped(3, "error: the validator itself failed (KeyError: 'gpu')")),
        {"validate": "failure", "propose": "skipped", "comment": "success"},
        ["**The check could not finish.**", "https://github.com/Owner/Repo/actions/runs/99", "need not do anything"],
        ["the validator stopped without a verdict (exit 3)"],
    ),
    "Python stops without a verdict": (
        # As the old validator stopped on 40 KB of "[": a traceback, exit 1, no comment.
        dict(report="[" * 20000, python=stopped(1, "Traceback (most recent call last):", "RecursionError: maximum")),
        {"validate": "failure", "propose": "skipped", "comment": "success"},
        ["**The check could not finish.**"],
        ["the validator stopped without a verdict (exit 1)"],
    ),
    "pull request refused": (
        dict(report=REAL, pull="refused"),
        {"validate": "success", "propose": "failure", "comment": "failure"},
        ["**The run report is valid.**", "waits on the branch `run-report/issue-7`", "need not do anything"],
        ["Allow GitHub Actions to create and approve pull requests", "allow GitHub Actions to create and approve"],
    ),
    "pull request failed otherwise": (
        dict(report=REAL, pull="error"),
        {"validate": "success", "propose": "failure", "comment": "success"},
        ["**The run report is valid.**", "waits on the branch `run-report/issue-7`, but its pull request could not"],
        [],
    ),
    "branch not pushed": (
        dict(report=REAL, put="fail"),
        {"validate": "success", "propose": "failure", "comment": "success"},
        ["**The run report is valid.**", "could not be put on a branch", "a maintainer will add it"],
        [],
    ),
    # The pull request exists: the comment says so (review 6, m6: it said the pull request failed).
    "checks not started": (
        dict(report=REAL, dispatch="fail"),
        {"validate": "success", "propose": "success", "comment": "success"},
        [
            "A pull request adds the run to the site: https://github.com/Owner/Repo/pull/8",
            "Maintainers: the pull request's checks could not be started",
        ],
        [],
    ),
    "label missing": (
        dict(report=INVALID, labels=(), label="no"),
        {"validate": "success", "propose": "skipped", "comment": "failure"},
        ["**The run report was not accepted.**", "this repository has no label `run-report`"],
        ["the label run-report does not exist"],
    ),
}


WARNED = ("::error::", "::warning::")


@pytest.mark.parametrize("path", list(PATHS))
def test_every_path_ends_in_one_comment(path, tmp_path):
    given, results, said, errors = PATHS[path]
    event = issue_event(
        tmp_path, "Run report: a GPU", form_body(given["report"]), labels=given.get("labels", ["run-report"])
    )
    run = run_locally(
        event,
        tmp_path,
        given.get("label", "yes"),
        given.get("pull", "opened"),
        given.get("python"),
        given.get("put", "ok"),
        given.get("dispatch", "ok"),
    )
    assert {job: run[job] for job in results} == results, run["log"]
    assert len(run["comments"]) == 1, run["calls"]
    assert run["comments"][0].endswith("nothing from the report was run.</sub>\n"), run["comments"][0]
    for words in said:
        assert words in run["comments"][0], run["comments"][0]
    assert len(run["errors"]) == len(errors), run["errors"]
    for words in errors:
        assert any(words in line for line in run["errors"]), run["errors"]
    # Around the validator, workflow commands are off, with a token of the run's own: no text of a report is read
    # as one (the validator's escaping of each line it prints: test_run_report_fuzz.py's workflow-command keys).
    stops = [line for line in run["log"].splitlines() if line.startswith("::") and not line.startswith(WARNED)]
    token = re.fullmatch(r"::stop-commands::([0-9a-f]{32})", stops[0])
    assert token and stops[1:] == [f"::{token.group(1)}::"], stops
    if path == "valid":
        put = [c for c in run["calls"] if c.startswith("api -X PUT repos/Owner/Repo/contents/docs/hooks/data/runs/")]
        assert put and f"content={base64.b64encode(REAL.encode()).decode()}" in put[0]
        pull_request = [
            w.name for w in WORKFLOW.parent.glob("*.yml") if "pull_request" in yaml.safe_load(w.read_text())[True]
        ]
        for checks in pull_request:  # every workflow that a pull request starts, started on the report's branch
            assert f"workflow run {checks} --ref run-report/issue-7" in run["calls"], checks


def test_an_issue_that_is_not_a_report_gets_no_comment(tmp_path):
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert workflow_rules.triggers(workflow) == {"issues": {"types": ["opened", "edited"]}}  # issues only
    event = issue_event(tmp_path, "A question about ROCm", "How do I ...?", labels=())
    run = run_locally(event, tmp_path)
    assert (run["validate"], run["comment"], run["comments"]) == ("skipped", "skipped", [])


def test_a_report_too_large_for_the_propose_step_is_refused_by_the_validator():
    """Review 6, m6(b): a valid 47 KB report of non-ASCII text became 172 KB of base64, more than the propose step's
    one environment variable can carry (Linux: 128 KiB), so the step could not start. The validator caps it.
    Cyrillic grows most: 2 bytes of UTF-8 become 6 ASCII characters (\\u0434)."""
    report = json.loads(REAL)
    text = "\u0434\u0430\u043d\u043d\u044b\u0435 " * 85  # 595 letters and spaces, a finding's text holds 600
    findings = report["doctor"]["findings"]
    while len(json.dumps(report, indent=1, ensure_ascii=False).encode("utf-8")) <= validator.MAX_REPORT:
        findings.append({"status": "ok", "topic": "x", "text": text, "fix": "", "section": ""})
    findings.pop()  # the most findings that fit in MAX_REPORT
    body = json.dumps(report, indent=1, ensure_ascii=False)
    assert len(body.encode("utf-8")) <= validator.MAX_REPORT
    _, problems, _ = validator.validate(body)
    assert len(problems) == 1 and "as the pull request carries it (ASCII, base64), more than 120000" in problems[0]
    assert len(base64.b64encode(validator.proposal(report).encode("ascii"))) > validator.MAX_PROPOSAL
