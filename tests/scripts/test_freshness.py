""".github/scripts/freshness.py: what counts as newer, which dates are due, the issue text, the one issue.

Nothing here reaches PyPI or GitHub: PyPI's answers are fixtures shaped like its JSON API, and gh is a
recorder. (The real run against PyPI is `python .github/scripts/freshness.py check`.)
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

import freshness
from guide import checked

ROOT = Path(__file__).resolve().parents[2]


def releases(*versions, yanked=()):
    return {v: [{"filename": f"{v}.whl", "yanked": v in yanked}] for v in versions}


# --- what counts as newer -------------------------------------------------------------


PRE_LOCAL_YANKED = releases("2.14.1", "2.16.0rc1", "2.16.0.dev20261101", "2.15.0", "2.13.0+cpu", yanked=("2.15.0",))


@pytest.mark.parametrize(
    "pin, found, newest",
    [
        ("2.14.1", releases("2.14.1", "2.15.0", "2.9.1"), "2.15.0"),
        ("2.14.1", releases("2.9.1", "2.14.1"), None),  # "2.9.1" > "2.14.1" as strings; as versions it is older
        ("2.14.1", PRE_LOCAL_YANKED, None),  # pre-releases, local builds and yanked releases do not count
        ("2.14.1", {**PRE_LOCAL_YANKED, "2.15.1": []}, None),  # nor a release without files
        # dev releases count for a package that has only those (torch-directml)
        ("0.2.5.dev240914", releases("0.2.4.dev240815", "0.2.5.dev240914", "0.2.6.dev260101"), "0.2.6.dev260101"),
        ("0.2.5.dev240914", releases("0.2.5.dev240914"), None),
    ],
)
def test_what_counts_as_newer(pin, found, newest):
    expected = freshness.Newer("torch", pin, newest) if newest else None
    assert freshness.newer_than_pin("torch", pin, found) == expected


def test_the_watched_pins_are_torch_directml_and_current_torch():
    pins = {
        "torch-directml": "0.2.5.dev240914",
        "current.torch": "2.14.1",
        "current.torchvision": "0.29.1",
        "torch": "2.4.1",
        "torchvision": "0.19.1",
        "newest-torch": "2.15.0",
    }
    answers = {
        "torch-directml": releases("0.2.5.dev240914"),
        "torch": releases("2.4.1", "2.14.1", "2.15.0"),
        "torchvision": releases("0.19.1", "0.29.1"),
    }
    asked = []

    def fetch(name):
        asked.append(name)
        return answers[name]

    assert freshness.newer_releases(pins, fetch) == [freshness.Newer("torch", "2.14.1 (current.torch)", "2.15.0")]
    assert asked == ["torch-directml", "torch", "torchvision"]  # each package asked once
    answers["torch"] = releases("2.14.1", "2.15.0", "2.16.0")
    assert [n.pin for n in freshness.newer_releases(pins, fetch)] == ["2.14.1 (current.torch)", "2.15.0 (newest-torch)"]


# --- which dates are due ----------------------------------------------------------------


def entry(name, checked_on, every):
    return checked.Entry(
        Path("sources.yml"), ("sources", name), f"https://example.org/{name}", dt.date.fromisoformat(checked_on), every
    )


def test_an_entry_is_due_once_its_days_have_passed():
    entries = [entry("a", "2026-11-01", 30), entry("b", "2026-11-30", 30), entry("c", "2026-07-01", 180)]
    today = dt.date(2026, 12, 1)
    assert [e.name for e in freshness.due_entries(entries, today)] == ["sources.sources.a"]
    assert [e.name for e in freshness.due_entries(entries, dt.date(2026, 11, 30))] == []
    later = [e.name for e in freshness.due_entries(entries, dt.date(2027, 1, 1))]
    assert later == ["sources.sources.a", "sources.sources.c", "sources.sources.b"]  # oldest due first


# --- the issue text -------------------------------------------------------------------------


def test_the_issue_text_names_each_change_and_its_source():
    body = freshness.issue_body(
        [freshness.Newer("torch", "2.14.1", "2.15.0")],
        [entry("amd", "2026-10-01", 30)],
        dt.date(2026, 12, 1),
        "- [ ] https://x 404",
    )
    assert body.startswith(freshness.MARKER)
    assert "| torch | 2.14.1 | 2.15.0 |" in body
    assert "| `sources.yml`: sources.amd | 2026-10-01 | 2026-10-31 | https://example.org/amd |" in body
    assert "## Broken links (lychee)" in body and "https://x 404" in body
    assert body.isascii()


def test_links_count_only_when_the_checker_failed(tmp_path):
    report = tmp_path / "out.md"
    report.write_text("broken: https://x", encoding="utf-8")
    assert freshness.links_failure(report, "0") is None
    assert freshness.links_failure(None, "2") is None
    assert freshness.links_failure(report, "2") == "broken: https://x"
    assert "exited with 2" in freshness.links_failure(tmp_path / "missing.md", "2")


# --- the one issue ------------------------------------------------------------------------------


class Gh:
    def __init__(self, listed):
        self.listed, self.calls = listed, []

    def __call__(self, argv, **kwargs):
        self.calls.append((argv, kwargs.get("input")))
        stdout = json.dumps(self.listed) if argv[:3] == ["gh", "issue", "list"] else ""
        return subprocess.CompletedProcess(argv, 0, stdout=stdout, stderr="")


def test_no_open_issue_opens_one():
    gh = Gh([{"number": 3, "title": "something else"}])
    assert freshness.gh_issue("text", run=gh) == "opened an issue"
    argv, given = gh.calls[-1]
    assert argv[:3] == ["gh", "issue", "create"] and freshness.TITLE in argv and given == "text"


def test_an_open_issue_is_updated_not_duplicated():
    gh = Gh([{"number": 12, "title": freshness.TITLE}, {"number": 9, "title": freshness.TITLE}])
    assert freshness.gh_issue("text", run=gh) == "updated issue #9"
    assert [c[0][:3] for c in gh.calls] == [["gh", "issue", "list"], ["gh", "issue", "edit"]]
    assert gh.calls[-1] == (["gh", "issue", "edit", "9", "--body-file", "-"], "text")


def test_issue_without_text_calls_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(freshness, "gh_issue", lambda body: pytest.fail("gh called"))
    assert freshness.main(["issue", "--body", str(tmp_path / "none.md")]) == 0
    assert "no issue" in capsys.readouterr().out


# --- the command line ---------------------------------------------------------------------------


def run_cli(*args):
    return subprocess.run(
        [sys.executable, ".github/scripts/freshness.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_a_bad_date_is_one_line_and_exit_2():
    result = run_cli("check", "--today", "tomorrow")
    assert result.returncode == 2 and "--today 'tomorrow' is not YYYY-MM-DD" in result.stderr
    assert "Traceback" not in result.stderr


def test_pypi_out_of_reach_is_one_line(monkeypatch, capsys):
    def offline(name):
        raise OSError(f"cannot read https://pypi.org/pypi/{name}/json: no network")

    monkeypatch.setattr(freshness, "fetch_releases", offline)
    assert freshness.main(["check"]) == 2
    assert capsys.readouterr().err.strip() == "error: cannot read https://pypi.org/pypi/torch-directml/json: no network"


def test_check_writes_the_issue_text_only_when_something_changed(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(freshness, "newer_releases", lambda pins, fetch=None: [])
    body = tmp_path / "body.md"
    assert freshness.main(["check", "--today", "2026-12-01", "--body", str(body)]) == 0
    assert not body.exists() and "nothing changed" in capsys.readouterr().out
    assert freshness.main(["check", "--today", "2030-01-01", "--body", str(body)]) == 0
    out = capsys.readouterr().out
    assert "due: sources.sources.amd-rocm-windows" in out
    assert "## Dates due" in body.read_text(encoding="utf-8")


# --- the next PyTorch release ---------------------------------------------------------------

NEXT = {"newest-torch": "2.15.0", "next-torch": "2.16.0", "next-torch-due": "2026-12-22"}


@pytest.mark.parametrize(
    "today, on_pypi, state",
    [
        ("2026-12-05", ("2.15.0",), None),  # more than two weeks away: nothing to say yet
        ("2026-12-08", ("2.15.0",), "soon"),  # two weeks before
        ("2026-12-22", ("2.15.0", "2.16.0rc3"), "soon"),  # a release candidate is not the release
        ("2026-12-23", ("2.15.0",), "late"),
        ("2026-12-20", ("2.15.0", "2.16.0"), "out"),  # early on PyPI
        ("2027-02-01", ("2.15.0", "2.16.1"), "out"),
    ],
)
def test_the_next_release_is_named_from_two_weeks_before_until_it_is_pinned(today, on_pypi, state):
    found = freshness.next_release(NEXT, releases(*on_pypi), dt.date.fromisoformat(today))
    assert (found.state if found else None) == state
    if found:
        assert found.version == "2.16.0" and found.due == dt.date(2026, 12, 22)


def test_once_newest_torch_reaches_it_the_next_one_is_asked_for():
    moved = {**NEXT, "newest-torch": "2.16.0"}
    found = freshness.next_release(moved, releases("2.16.0"), dt.date(2026, 12, 23))
    assert found.state == "passed" and "set next-torch" in found.sentence(dt.date(2026, 12, 23))


def test_the_issue_text_names_the_next_release_and_where_the_steps_are():
    soon = freshness.NextRelease("2.16.0", dt.date(2026, 12, 22), "soon")
    body = freshness.issue_body([], [], dt.date(2026, 12, 10), None, soon)
    assert "PyTorch 2.16.0 is due on 2026-12-22, in 12 days." in body
    assert freshness.NEXT_RELEASE_STEPS in body and body.isascii()
    anchor = freshness.NEXT_RELEASE_STEPS.partition("#")[2]
    for page in ("maintaining.md", "maintaining.zh.md"):
        assert "{#" + anchor + "}" in (ROOT / "docs" / "contributing" / page).read_text(encoding="utf-8"), page


@pytest.mark.parametrize(
    "pins, message",
    [
        ({"newest-torch": "2.15.0", "next-torch": "2.16.0"}, "has no next-torch-due"),
        ({**NEXT, "next-torch-due": "22 Dec"}, "next-torch / next-torch-due"),
    ],
)
def test_a_bad_next_release_pin_is_one_line(pins, message):
    with pytest.raises(ValueError, match=message):
        freshness.next_release(pins, {}, dt.date(2026, 12, 1))


def test_check_names_the_next_release_in_its_window(tmp_path, monkeypatch, capsys):
    from guide import pins

    pinned = pins.load_pins()
    week_before = dt.date.fromisoformat(pinned["next-torch-due"]) - dt.timedelta(days=7)
    monkeypatch.setattr(freshness, "newer_releases", lambda pins, fetch=None: [])
    body = tmp_path / "body.md"
    assert freshness.main(["check", "--today", week_before.isoformat(), "--body", str(body)]) == 0
    wanted = f"next release: PyTorch {pinned['next-torch']} is due on {pinned['next-torch-due']}, in 7 days"
    assert wanted in capsys.readouterr().out
    assert "## The next PyTorch release" in body.read_text(encoding="utf-8")
