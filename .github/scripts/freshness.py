"""Is the guide still true? The pins against PyPI, the "checked on" dates against today.

    python .github/scripts/freshness.py check                   # print what changed; exit 0
    python .github/scripts/freshness.py check --body FILE       # also write the issue text (only if something changed)
    python .github/scripts/freshness.py check --links lychee/out.md --links-exit 2
    python .github/scripts/freshness.py issue --body FILE       # open or update the one freshness issue (gh CLI)

`check` compares the pins of pyproject.toml (torch-directml's, and current torch and torchvision)
with the newest final release on PyPI (its JSON API), and every `checked:` date of every file in
docs/hooks/data/ with today: an entry is due once `every` days have passed. It names the next PyTorch
release ([tool.directml-guide] next-torch, next-torch-due) from two weeks before its date, when it is
late, and once PyPI has it, until newest-torch reaches it. With --links, the link
checker's report is added when it failed. .github/workflows/freshness.yml runs it weekly and passes
the text to `issue`, which edits the open issue with the same title, or opens one; nothing changed,
no issue. `--today` fixes the date (tests); nothing here is run by the test suite against the network.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

TITLE = "Freshness check: facts to re-check"
MARKER = "<!-- freshness-check -->"
PYPI = "https://pypi.org/pypi/{name}/json"
# (package on PyPI, pin name in guide.pins): torch-directml's own release, the current-torch group, and
# the newest torch the pages name ([tool.directml-guide] newest-torch). torch and torchvision at
# torch-directml's pins move only when torch-directml does.
WATCHED = (
    ("torch-directml", "torch-directml"),
    ("torch", "current.torch"),
    ("torchvision", "current.torchvision"),
    ("torch", "newest-torch"),
)


WARN_DAYS = 14  # the next PyTorch release is named this many days before its date
NEXT_RELEASE_STEPS = "docs/contributing/maintaining.md#new-pytorch-release"


@dataclass(frozen=True)
class NextRelease:
    version: str
    due: dt.date
    state: str  # "soon", "late", "out" (on PyPI), "passed" (newest-torch already names it or a later one)

    def sentence(self, today: dt.date) -> str:
        days = (self.due - today).days
        return {
            "soon": f"PyTorch {self.version} is due on {self.due.isoformat()}, in {days} days",
            "late": f"PyTorch {self.version} was due on {self.due.isoformat()} and is not on PyPI yet",
            "out": f"PyTorch {self.version} is on PyPI",
            "passed": f"newest-torch has reached {self.version}: set next-torch and next-torch-due to the release after it",
        }[self.state]


def next_release(pins: dict[str, str], torch_releases: dict, today: dt.date) -> NextRelease | None:
    """What to say about the next PyTorch release today, or None while it is more than WARN_DAYS away.

    ValueError (one line) when pyproject.toml lacks next-torch or next-torch-due, or they do not parse."""
    from packaging.version import InvalidVersion, Version

    try:
        version, due = Version(pins["next-torch"]), dt.date.fromisoformat(pins["next-torch-due"])
    except KeyError as error:
        raise ValueError(f"pyproject.toml [tool.directml-guide] has no {error.args[0]}") from None
    except (InvalidVersion, ValueError) as error:
        raise ValueError(f"pyproject.toml [tool.directml-guide] next-torch / next-torch-due: {error}") from None
    state = None
    if Version(pins["newest-torch"]) >= version:
        state = "passed"
    elif (newest := newest_release(torch_releases, pins["newest-torch"])) and Version(newest) >= version:
        state = "out"
    elif today > due:
        state = "late"
    elif (due - today).days <= WARN_DAYS:
        state = "soon"
    return NextRelease(str(version), due, state) if state else None


@dataclass(frozen=True)
class Newer:
    package: str
    pin: str
    newest: str


def newest_release(releases: dict, pin: str) -> str | None:
    """The newest release in PyPI's ``releases`` mapping that is not yanked in full.

    A pre- or dev release counts only when the pin is one (torch-directml has only dev releases).
    Local versions (``2.13.0+cpu``) are other builds of the same release and are left out.
    """
    from packaging.version import InvalidVersion, Version

    pinned = Version(pin)
    candidates = []
    for text, files in releases.items():
        try:
            version = Version(text)
        except InvalidVersion:
            continue
        if version.local or not files or all(f.get("yanked") for f in files):
            continue
        if (version.is_prerelease or version.is_devrelease) and not (pinned.is_prerelease or pinned.is_devrelease):
            continue
        candidates.append(version)
    return str(max(candidates)) if candidates else None


def newer_than_pin(package: str, pin: str, releases: dict) -> Newer | None:
    from packaging.version import Version

    newest = newest_release(releases, pin)
    if newest is None or Version(newest) <= Version(pin):
        return None
    return Newer(package, pin, newest)


def fetch_releases(package: str, timeout: float = 30) -> dict:
    """PyPI's JSON API: {version: [file, ...]}. OSError (with the URL) when PyPI cannot be reached."""
    url = PYPI.format(name=package)
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - a fixed https URL
            return json.load(response)["releases"]
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError, KeyError) as error:
        raise OSError(f"cannot read {url}: {error}") from None


def newer_releases(pins: dict[str, str], fetch=None) -> list[Newer]:
    fetch = fetch or fetch_releases
    found, answers = [], {}
    for package, pin_name in WATCHED:
        if package not in answers:
            answers[package] = fetch(package)
        newer = newer_than_pin(package, pins[pin_name], answers[package])
        if newer:
            found.append(Newer(package, f"{pins[pin_name]} ({pin_name})", newer.newest))
    return found


def due_entries(entries, today: dt.date) -> list:
    """The entries whose re-check is due on ``today`` (oldest due first)."""
    return sorted((e for e in entries if e.due <= today), key=lambda e: (e.due, e.name))


def issue_body(
    newer: list[Newer], due: list, today: dt.date, links_report: str | None = None, upcoming: NextRelease | None = None
) -> str:
    """The issue text, or "" when nothing changed."""
    if not newer and not due and not links_report and not upcoming:
        return ""
    lines = [
        MARKER,
        f"Checked on {today.isoformat()} by `.github/scripts/freshness.py` (.github/workflows/freshness.yml).",
        "",
    ]
    if upcoming:
        lines += [
            "## The next PyTorch release",
            "",
            upcoming.sentence(today) + ".",
            f"What changes with it, and where: `{NEXT_RELEASE_STEPS}`.",
            "",
        ]
    if newer:
        lines += ["## Newer releases on PyPI", "", "| package | pinned | newest on PyPI |", "| --- | --- | --- |"]
        lines += [f"| {n.package} | {n.pin} | {n.newest} |" for n in newer]
        lines += [
            "",
            "A new pin goes in `pyproject.toml` only (then regenerate the locks, README); "
            "the pages quote it as `{{ pin.NAME }}`.",
            "",
        ]
    if due:
        lines += ["## Dates due", "", "| entry | checked | due | source |", "| --- | --- | --- | --- |"]
        for e in due:
            lines.append(
                f"| `{e.file.name}`: {'.'.join(e.path)} | {e.checked.isoformat()} | {e.due.isoformat()} | {e.source} |"
            )
        lines += [
            "",
            "Re-read each source, fix the pages where it changed, then set its `checked:` date in `docs/hooks/data/`.",
            "",
        ]
    if links_report:
        lines += ["## Broken links (lychee)", "", links_report.strip(), ""]
    return "\n".join(lines)


def links_failure(report: Path | None, exit_code: str | None) -> str | None:
    """The link checker's report when it failed (exit code not 0), else None."""
    if report is None or exit_code in (None, "", "0"):
        return None
    text = report.read_text(encoding="utf-8") if report.is_file() else ""
    return text or f"lychee exited with {exit_code} and wrote no report"


def gh_issue(body: str, run=subprocess.run) -> str:
    """Edit the open issue titled TITLE, or open it. Returns what was done."""
    found = run(
        [
            "gh",
            "issue",
            "list",
            "--state",
            "open",
            "--search",
            f'"{TITLE}" in:title',
            "--json",
            "number,title",
            "--limit",
            "20",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    numbers = [i["number"] for i in json.loads(found.stdout or "[]") if i["title"] == TITLE]
    if numbers:
        number = str(min(numbers))
        run(["gh", "issue", "edit", number, "--body-file", "-"], input=body, text=True, check=True)
        return f"updated issue #{number}"
    run(["gh", "issue", "create", "--title", TITLE, "--body-file", "-"], input=body, text=True, check=True)
    return "opened an issue"


def check(args) -> int:
    from guide import checked, pins

    today = dt.date.fromisoformat(args.today) if args.today else dt.date.today()
    pinned, answers = pins.load_pins(), {}

    def fetch(package: str) -> dict:
        return answers.setdefault(package, fetch_releases(package))

    try:
        newer = newer_releases(pinned, fetch)
    except OSError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        upcoming = next_release(pinned, answers.get("torch", {}), today)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    try:
        due = due_entries(checked.read_entries(), today)
    except ValueError as error:
        print(f"error: docs/hooks/data: {error}", file=sys.stderr)
        return 1
    for n in newer:
        print(f"newer: {n.package} {n.newest} on PyPI, pinned {n.pin}")
    if not newer:
        print("pins: torch-directml, current torch and torchvision are the newest on PyPI")
    for e in due:
        print(f"due: {e.name} (checked {e.checked.isoformat()}, due {e.due.isoformat()}): {e.source}")
    if not due:
        print(f"dates: none due on {today.isoformat()}")
    if upcoming:
        print(f"next release: {upcoming.sentence(today)}; see {NEXT_RELEASE_STEPS}")
    links = links_failure(Path(args.links) if args.links else None, args.links_exit)
    if links:
        print("links: the link checker found broken links")
    body = issue_body(newer, due, today, links, upcoming)
    if args.body and body:
        Path(args.body).write_text(body, encoding="utf-8")
    if not body:
        print("nothing changed")
    return 0


def issue(args) -> int:
    path = Path(args.body)
    if not path.is_file() or not path.read_text(encoding="utf-8").strip():
        print("nothing changed: no issue")
        return 0
    try:
        print(gh_issue(path.read_text(encoding="utf-8")))
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"error: gh failed: {error}", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="compare pins with PyPI and checked dates with today")
    c.add_argument("--today", help="YYYY-MM-DD instead of today")
    c.add_argument("--body", help="write the issue text here when something changed")
    c.add_argument("--links", help="lychee's Markdown report")
    c.add_argument("--links-exit", help="lychee's exit code (0: no broken links)")
    i = sub.add_parser("issue", help="open or update the freshness issue with gh")
    i.add_argument("--body", required=True, help="the text `check --body` wrote")
    args = parser.parse_args(argv)
    if args.command == "check" and args.today:
        try:
            dt.date.fromisoformat(args.today)
        except ValueError:
            parser.error(f"--today {args.today!r} is not YYYY-MM-DD")
    return check(args) if args.command == "check" else issue(args)


if __name__ == "__main__":
    raise SystemExit(main())
