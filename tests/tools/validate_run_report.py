"""Validate a reader's run report (snippets/report.py) from a run-report issue, without running anything from it.

    python tests/tools/validate_run_report.py --event EVENT.json --comment comment.md [--proposal DIR]
    python tests/tools/validate_run_report.py --file report.json          # one report file (the site's data)

The issue's body is read from GitHub's event file (``$GITHUB_EVENT_PATH``), never from a ``${{ }}``
expression. The report is the body's first ```json block (the issue form renders its field so); it must be
at most MAX_REPORT bytes, parse as JSON without NaN or Infinity, pass docs/hooks/data/runs/schema-N.json
for its ``schema_version``, hold plain text only (no markup in any string), keep no user or host name
(paths included), and agree with itself (the timings and accuracy it sums up are its epochs'). A GPU
name that docs/hooks/data/gpus.yml does not know is flagged, never a reason to refuse.

Each problem is one line with the field it is in. ``--comment`` writes the comment for the issue;
``--proposal DIR`` writes a valid report to DIR/issue-N.json, as report.py writes it (json.dumps of the
parsed report, indent 1, ASCII), for the workflow's pull request. With $GITHUB_OUTPUT
set it writes ``valid=true|false`` and ``issue=N`` there. Exit status: 0 valid, 1 invalid, 2 for a
wrong command line or an unreadable event file.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import sys
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parents[2]
# guide (docs/hooks/guide/): the one table of GPUs, and the page model that reads the form's fence.
sys.path.insert(0, str(ROOT / "docs" / "hooks"))
RUNS = ROOT / "docs" / "hooks" / "data" / "runs"
SCHEMA_VERSIONS = {1: RUNS / "schema-1.json"}
MAX_EVENT = 1_000_000  # GitHub caps an issue body at 65,536 characters
MAX_REPORT = 48_000  # bytes: a real report is about 8 KB
FULL_TRAINING_SET = 60_000  # MNIST's and Fashion-MNIST's training images
BACKENDS = {"DirectML", "ROCm", "XPU", "CUDA", "CPU"}

# Markup in a string: a tag, a comment, an entity, or a script URL. Reports hold plain text only.
MARKUP = re.compile(r"<\s*[A-Za-z!/?]|&#?\w+;|javascript\s*:|\bon[a-z]+\s*=", re.IGNORECASE)
# A user name left in a path: C:\Users\alice, /home/alice, /Users/alice (*** is the doctor's redaction).
KEPT_FOLDERS = {"***", "public", "default", "all users", "runner", "runneradmin"}
USER_PATH = re.compile(r"(?:[A-Za-z]:[\\/]+Users|/home|/Users)[\\/]+([^\\/\s\"':;,)]+)", re.IGNORECASE)
# A host name: Windows' generated ones, a UNC path's server, user@host.
HOST_NAME = re.compile(
    r"\b(?:DESKTOP|LAPTOP|WIN)-[A-Z0-9]{6,}\b|\\\\([A-Za-z0-9][\w.-]*)\\|\b[\w.-]+@[A-Za-z][\w-]*(?:\.[\w-]+)*\b",
)


class EventError(Exception):
    """The event file cannot be read (not the reader's fault)."""


def where(path) -> str:
    """A field's place in the report, as report.field[2].name."""
    words = "report"
    for part in path:
        words += f"[{part}]" if isinstance(part, int) else f".{part}"
    return words


def strings(value, path=()):
    """Every string in the report (keys too), with its place."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield path, str(key)
            yield from strings(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from strings(item, (*path, index))


def shown(text: str, limit: int = 60) -> str:
    """A piece of the reader's text for a comment: one line, short, no backticks (it goes in a code span)."""
    text = re.sub(r"\s+", " ", text).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def no_constants(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def parse(text: str) -> tuple[object, list[str]]:
    size = len(text.encode("utf-8"))
    if size > MAX_REPORT:
        return None, [f"the report is {size} bytes, more than {MAX_REPORT}: paste the file report.py wrote, unchanged"]
    try:
        return json.loads(text, parse_constant=no_constants), []
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        return None, [f"the report is not valid JSON: {shown(str(error), 120)}"]


def schema_problems(report: dict) -> list[str]:
    version = report.get("schema_version")
    if version not in SCHEMA_VERSIONS or isinstance(version, bool):
        known = ", ".join(map(str, SCHEMA_VERSIONS))
        return [
            f"unknown schema version {shown(repr(version))}: this validator knows {known}; "
            "make the report again with the guide's current report.py"
        ]
    schema = json.loads(SCHEMA_VERSIONS[version].read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(report), key=lambda e: (list(map(str, e.absolute_path)), e.message)):
        problems.append(f"{where(error.absolute_path)}: {shown(error.message, 160)}")
    return problems


def markup_problems(report) -> list[str]:
    return [
        f"{where(path)}: holds markup ({shown(found.group(0))}): a report holds plain text only"
        for path, text in strings(report)
        for found in [MARKUP.search(text)]
        if found
    ]


def redaction_problems(report) -> list[str]:
    problems = []
    for path, text in strings(report):
        for found in USER_PATH.finditer(text):
            if found.group(1).lower() not in KEPT_FOLDERS:
                problems.append(
                    f"{where(path)}: a user name in a path ({shown(found.group(0))}): "
                    "run report.py again, it replaces user and host names with ***"
                )
        for found in HOST_NAME.finditer(text):
            problems.append(
                f"{where(path)}: a host or user name ({shown(found.group(0))}): "
                "run report.py again, it replaces user and host names with ***"
            )
    return problems


def plausibility_problems(report: dict) -> list[str]:
    """What the schema cannot say: the summary agrees with the epochs, the check's result with its numbers."""
    problems = []
    timed, check = report["timed_run"], report["training_check"]
    epochs = timed["epochs"]
    if [e["epoch"] for e in epochs] != list(range(1, len(epochs) + 1)):
        problems.append("report.timed_run.epochs: not numbered 1, 2, ... in order")
    if timed["train_images"] != FULL_TRAINING_SET:
        problems.append(
            f"report.timed_run.train_images: {timed['train_images']}, not the full {FULL_TRAINING_SET}: "
            "a run on part of the set is not comparable"
        )
    if timed["seconds_per_epoch"] != epochs[-1]["seconds"]:
        problems.append("report.timed_run.seconds_per_epoch: is not the last epoch's seconds")
    if timed["accuracy"] != epochs[-1]["accuracy"]:
        problems.append("report.timed_run.accuracy: is not the last epoch's accuracy")
    if report["system"]["backend"] not in BACKENDS:  # the schema says so too; kept if the schema grows
        problems.append(f"report.system.backend: unknown back-end {shown(report['system']['backend'])}")
    if check["passed"]:
        for key in ("loss_difference", "weight_difference"):
            value = check[key]
            if value is None or not math.isfinite(value) or value > check["tolerance"]:
                problems.append(
                    f"report.training_check.{key}: {value!r} does not fit a passed check "
                    f"(tolerance {check['tolerance']})"
                )
    elif not check["reason"].strip():
        problems.append("report.training_check.reason: a failed check without its reason")
    date = datetime.date.fromisoformat(report["date"]) if re.fullmatch(r"\d{4}-\d\d-\d\d", report["date"]) else None
    if date is None or date > datetime.date.today() + datetime.timedelta(days=1):
        problems.append(f"report.date: {shown(report['date'])} is not a past day")
    return problems


def gpu_notes(report: dict) -> list[str]:
    """A GPU that gpus.yml does not know: flagged for the maintainer, never refused."""
    if report["system"]["backend"] == "CPU":
        return []
    from guide import gpus

    name = report["gpu"]["name"]
    if gpus.match(name):
        return []
    note = "the run is kept; the table may need the card, with its vendor's source"
    return [f"the GPU `{shown(name)}` is not in docs/hooks/data/gpus.yml: {note}"]


def validate(text: str) -> tuple[dict | None, list[str], list[str]]:
    """(report, problems, notes): no problems means valid."""
    report, problems = parse(text)
    if problems:
        return None, problems, []
    if not isinstance(report, dict):
        return None, ["the report is not a JSON object: paste the whole file report.py wrote"], []
    problems = schema_problems(report)
    if problems and problems[0].startswith("unknown schema version"):
        return None, problems, []
    problems += markup_problems(report) + redaction_problems(report)
    if problems:
        return None, problems, []
    problems = plausibility_problems(report)
    return (report if not problems else None), problems, (gpu_notes(report) if not problems else [])


def report_text(body: str) -> str:
    """The issue form's report: the body's first fenced block, else the whole body."""
    from guide.page import Page

    fences = Page.parse(body.replace("\r\n", "\n"), "the issue's body").fences
    return fences[0].body.strip() if fences else body.strip()


def read_event(path: Path) -> tuple[int, str]:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise EventError(f"cannot read the event file {path}: {error.strerror}") from None
    if len(raw) > MAX_EVENT:
        raise EventError(f"the event file is {len(raw)} bytes, more than {MAX_EVENT}")
    try:
        event = json.loads(raw)
        issue = event["issue"]
        number, body = issue["number"], issue.get("body") or ""
    except (ValueError, KeyError, TypeError):
        raise EventError(f"{path} is not an issue event") from None
    if not isinstance(number, int) or isinstance(number, bool) or number < 1 or not isinstance(body, str):
        raise EventError(f"{path} is not an issue event")
    return number, body


def comment(problems: list[str], notes: list[str], number: int) -> str:
    if problems:
        lines = ["**The run report was not accepted.** Each reason, with the field it is in:", ""]
        lines += [f"- `{shown(p, 300)}`" for p in problems[:20]]
        if len(problems) > 20:
            lines.append(f"- ... and {len(problems) - 20} more")
        lines += ["", "Edit the issue with the file `report.py` wrote (unchanged) and this check runs again."]
    else:
        lines = [
            f"**The run report is valid.** A pull request adds it as `docs/hooks/data/runs/issue-{number}.json`; "
            "the maintainers' review is the merge."
        ]
        lines += [""] + [f"- Note: {n}" for n in notes] if notes else []
    lines += ["", "<sub>Checked by .github/workflows/run-report.yml; nothing from the report was run.</sub>"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--event", type=Path, help="GitHub's event file of an issue event")
    source.add_argument("--file", type=Path, help="one report file")
    parser.add_argument("--comment", type=Path, help="write the issue comment here (with --event)")
    parser.add_argument("--proposal", type=Path, help="write a valid report here as issue-N.json (with --event)")
    args = parser.parse_args(argv)
    number = 0
    try:
        if args.event:
            number, body = read_event(args.event)
            text = report_text(body)
        else:
            text = args.file.read_text(encoding="utf-8")
    except EventError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except (OSError, UnicodeDecodeError) as error:
        print(f"error: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    report, problems, notes = validate(text)
    for line in problems:
        print(f"invalid: {line}".encode("ascii", "backslashreplace").decode())
    for line in notes:
        print(f"note: {line}".encode("ascii", "backslashreplace").decode())
    if args.comment and args.event:
        args.comment.write_text(comment(problems, notes, number), encoding="utf-8")
    if report is not None and args.proposal and args.event:
        args.proposal.mkdir(parents=True, exist_ok=True)
        (args.proposal / f"issue-{number}.json").write_text(
            json.dumps(report, indent=1, ensure_ascii=True) + "\n", encoding="utf-8"
        )
    if os.environ.get("GITHUB_OUTPUT"):
        with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as output:
            output.write(f"valid={'true' if report is not None else 'false'}\nissue={number}\n")
    print("valid" if report is not None else f"invalid: {len(problems)} problem(s)")
    return 0 if report is not None else 1


if __name__ == "__main__":
    raise SystemExit(main())
