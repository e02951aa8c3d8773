"""docs/hooks/guide/runs.py: the runs page's table and assets/runs.json from docs/hooks/data/runs/.

Markup in a report renders as text; a run from an issue links the issue, ours say "seeded by the maintainers";
a file that is not a version-1 report, or not named as the workflow or the maintainers name it, stops the
build. The bad reports are made here from tests/repo/run_reports/report.json (a real report), in tmp_path:
the site never shows them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from guide import runs

REAL = Path(__file__).resolve().parents[1] / "repo" / "run_reports" / "report.json"
ATTACK = '<script>alert(1)</script><img src=x onerror="alert(2)">'


def folder_with(tmp_path: Path, name: str, change=None) -> Path:
    report = json.loads(REAL.read_text(encoding="utf-8"))
    if change:
        change(report)
    (tmp_path / name).write_text(json.dumps(report), encoding="utf-8")
    return tmp_path


def with_markup(report):
    report["gpu"]["name"] = ATTACK
    report["system"]["backend"] = "DirectML"
    report["system"]["torch"] = "2.4.1</td><td>x"
    report["training_check"].update(passed=False, reason="<b>bold</b> & more")


@pytest.mark.parametrize("language", ["en", "zh"])
def test_markup_in_a_report_renders_as_text(tmp_path, language):
    rows = runs.summaries("https://github.com/o/r", folder_with(tmp_path, "issue-12.json", with_markup))
    html = runs.render_table(rows, language)
    assert "<script" not in html and "<img" not in html and "<b>" not in html and "</td><td>x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in html
    assert html.count("<tr>") == 2  # the head and the one run: no row smuggled in


def test_a_run_from_an_issue_links_it_and_ours_are_seeded(tmp_path):
    folder = folder_with(tmp_path, "issue-12.json")
    folder_with(tmp_path, "seed-cpu-test.json")
    html = runs.render_table(runs.summaries("https://github.com/o/r/", folder), "en")
    assert '<a href="https://github.com/o/r/issues/12">issue #12</a>' in html
    assert "<td>seeded by the maintainers</td>" in html
    assert "<td>(a CPU run)</td>" in html
    assert "issue #12</td>" in runs.render_table(runs.summaries(None, folder), "en")  # no repository: no link


def test_a_gpu_the_table_does_not_know_is_shown_not_dropped(tmp_path):
    def unknown(report):
        report["system"]["backend"] = "DirectML"
        report["gpu"]["name"] = "Moore Threads MTT S80"

    rows = runs.summaries(None, folder_with(tmp_path, "issue-3.json", unknown))
    assert [r["gpu"] for r in rows] == ["Moore Threads MTT S80"] and rows[0]["table_gpu"] is None
    assert "<td>not in the table</td>" in runs.render_table(rows, "en")
    known = runs.summaries(
        None,
        folder_with(tmp_path, "issue-3.json", lambda r: (unknown(r), r["gpu"].update(name="AMD Radeon RX 7900 XTX"))),
    )
    assert known[0]["table_gpu"] == "AMD Radeon RX 7900 XTX" and known[0]["family"] == "amd:gfx1100"


def test_a_run_carries_its_group_and_target(tmp_path):
    """report.py's gpu.group and gpu.target (from the PCI ID) reach assets/runs.json; an older report has none."""

    def identified(report):
        report["system"]["backend"] = "ROCm"
        report["gpu"].update(name="AMD Radeon RX 7900 XTX", pci_id="1002:744c", pci_revision="c8")
        report["gpu"].update(group="rdna3", target="gfx1100")

    [run] = runs.summaries(None, folder_with(tmp_path, "issue-4.json", identified))
    assert (run["group"], run["target"]) == ("rdna3", "gfx1100")
    (tmp_path / "older").mkdir()
    [older] = runs.summaries(None, folder_with(tmp_path / "older", "issue-5.json"))
    assert (older["group"], older["target"]) == (None, None)


@pytest.mark.parametrize(
    "name, change, reason",
    [
        ("report.json", None, "a run is issue-N.json"),
        ("issue-1.json", lambda r: r.update(schema_version=2), "not a version-1 run report"),
    ],
)
def test_a_file_the_page_cannot_show_is_refused(tmp_path, name, change, reason):
    with pytest.raises(runs.RunDataError, match=reason):
        runs.load(folder_with(tmp_path, name, change))


def test_the_site_shows_only_real_runs():
    """Every run on the site is one of ours (seed-) or came from an issue; none is a test's."""
    names = [r["file"] for r in runs.load()]
    assert names and all(n.startswith(("seed-", "issue-")) for n in names)
    assert all(json.loads((runs.RUNS / n).read_text(encoding="utf-8"))["gpu"]["name"] != ATTACK for n in names)
