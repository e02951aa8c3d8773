"""Readers' runs on real hardware: docs/hooks/data/runs/*.json (snippets/report.py's reports) on the runs page.

``<!-- runs.table -->`` on a page (a comment: the translation check reads it as no prose) becomes one row per run, sorted by GPU, back-end and torch: the GPU as the
report names it, its entry in gpus.yml (the vendor's status stays there, never changed by a run), the
back-end, torch, the training check, s/epoch, accuracy, the date and where the run came from: the issue it
was sent in (``issue-N.json``, linked when the build knows the repository) or "seeded by the maintainers"
(``seed-*.json``), and a link to the report itself (assets/runs/FILE, as it was sent). Every string from a report is HTML-escaped: markup in a report renders as text.

The build also writes ``assets/runs.json`` (the same runs, plain values) for docs/javascripts/chooser_runs.js,
which shows the chosen GPU's runs in the chooser. The runs are validated in full by
docs/hooks/data/runs/validate.py (tests/repo/test_run_report_workflow.py checks every file here); the build
refuses a file that is not a version-1 report.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from guide import ROOT, gpu_names, gpus

RUNS = ROOT / "docs" / "hooks" / "data" / "runs"
DATA_URL = "assets/runs.json"
REPORTS_URL = "assets/runs"  # each report as it was sent, linked from its row
PLACEHOLDER = re.compile(r"<!-- runs\.table -->")
ISSUE = re.compile(r"issue-([1-9][0-9]{0,8})\.json")
SEED = re.compile(r"seed-[a-z0-9-]+\.json")
COMMAND = "python report.py --download"

TEXT = {
    "en": {
        "head": [
            "GPU (as reported)",
            "In the GPU table",
            "Back-end",
            "torch",
            "OS",
            "Training check",
            "s/epoch",
            "Accuracy",
            "Date",
            "From",
            "Report",
        ],
        "passed": "passed",
        "failed": "failed",
        "seeded": "seeded by the maintainers",
        "issue": "issue #{n}",
        "not_in_table": "not in the table",
        "cpu": "(a CPU run)",
        "none": "No run reported yet.",
    },
    "zh": {
        "head": [
            "显卡（报告中的名称）",
            "显卡表中的条目",
            "后端",
            "torch",
            "系统",
            "训练检查",
            "秒/轮",
            "准确率",
            "日期",
            "来源",
            "报告",
        ],
        "passed": "通过",
        "failed": "未通过",
        "seeded": "维护者自测",
        "issue": "issue #{n}",
        "not_in_table": "不在表中",
        "cpu": "（CPU 运行）",
        "none": "还没有人报告运行结果。",
    },
}


class RunDataError(ValueError):
    """A file in docs/hooks/data/runs/ that is not a run the page can show."""


def load(folder: Path = RUNS) -> list[dict]:
    """Every run, with where it came from: ``issue`` (a number) or ``seeded``."""
    runs = []
    for path in sorted(folder.glob("*.json")):
        if path.name.startswith("schema-"):
            continue
        issue = ISSUE.fullmatch(path.name)
        if not issue and not SEED.fullmatch(path.name):
            raise RunDataError(f"{path.name}: a run is issue-N.json (from the workflow) or seed-NAME.json")
        report = json.loads(path.read_text(encoding="utf-8"))
        if report.get("schema") != "directml-guide-run-report" or report.get("schema_version") != 1:
            raise RunDataError(f"{path.name}: not a version-1 run report")
        runs.append({"file": path.name, "issue": int(issue.group(1)) if issue else None, "report": report})
    return runs


def table_entry(report: dict) -> gpus.Gpu | None:
    """The gpus.yml entry whose answer is the run's GPU's, as the chooser reads its name (never for a CPU run)."""
    if report["system"]["backend"] == "CPU":
        return None
    return gpu_names.answer(report["gpu"]["name"]).gpu()


def summary(run: dict, repo_url: str | None) -> dict:
    """One run as plain values (assets/runs.json, and the table's cells before escaping)."""
    report = run["report"]
    system, check, timed = report["system"], report["training_check"], report["timed_run"]
    windows = system.get("windows_build")
    entry = table_entry(report)
    url = f"{repo_url.rstrip('/')}/issues/{run['issue']}" if repo_url and run["issue"] else None
    return {
        "gpu": report["gpu"]["name"],
        # The device table's group and target, as report.py read them from the PCI ID (null in older reports).
        "group": report["gpu"].get("group"),
        "target": report["gpu"].get("target"),
        "table_gpu": entry.name if entry else None,
        # The chip's family as match.js names it (amd:gfx1100, nvidia:sm_89, intel:arc); none for a CPU run.
        "family": None if system["backend"] == "CPU" else gpu_names.answer(report["gpu"]["name"]).family,
        "backend": system["backend"],
        "backend_version": system.get("backend_version"),
        "torch": system["torch"],
        "os": f"Windows build {windows}" if windows else system["os"],
        "passed": bool(check["passed"]),
        "reason": check.get("reason", ""),
        "seconds_per_epoch": timed["seconds_per_epoch"],
        "accuracy": timed["accuracy"],
        "dataset": timed["dataset"],
        "date": report["date"],
        "issue": run["issue"],
        "url": url,
        "report": f"{REPORTS_URL}/{run['file']}",
    }


def summaries(repo_url: str | None = None, folder: Path = RUNS) -> list[dict]:
    runs = load(folder)
    gpu_names.answers([run["report"]["gpu"]["name"] for run in runs])  # one run of Node for every name
    rows = [summary(run, repo_url) for run in runs]
    return sorted(rows, key=lambda r: (r["gpu"].lower(), r["backend"], r["torch"], r["date"]))


def cell(text, tag: str = "td") -> str:
    return f"<{tag}>{html.escape(str(text), quote=True)}</{tag}>"


def render_table(rows: list[dict], language: str, page_url: str = "runs/") -> str:
    t = TEXT[language]
    if not rows:
        return f"<p>{html.escape(t['none'])}</p>"
    out = ["<table>", "<thead><tr>" + "".join(cell(h, "th") for h in t["head"]) + "</tr></thead>", "<tbody>"]
    for r in rows:
        backend = r["backend"] + (f" {r['backend_version']}" if r["backend_version"] else "")
        check = t["passed"] if r["passed"] else t["failed"] + (f": {r['reason']}" if r["reason"] else "")
        if r["issue"] is None:
            source = cell(t["seeded"])
        elif r["url"]:
            source = (
                f'<td><a href="{html.escape(r["url"], quote=True)}">'
                f"{html.escape(t['issue'].format(n=r['issue']))}</a></td>"
            )
        else:
            source = cell(t["issue"].format(n=r["issue"]))
        out.append(
            "<tr>"
            + cell(r["gpu"])
            + cell(r["table_gpu"] or (t["cpu"] if r["backend"] == "CPU" else t["not_in_table"]))
            + cell(backend)
            + cell(r["torch"])
            + cell(r["os"])
            + cell(check)
            + cell(f"{r['seconds_per_epoch']:.1f}")
            + cell(f"{r['accuracy']:.4f}")
            + cell(r["date"])
            + source
            + f'<td><a href="{html.escape(relative(r["report"], page_url), quote=True)}">JSON</a></td></tr>'
        )
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def relative(url: str, page_url: str) -> str:
    from mkdocs.utils import get_relative_url

    return get_relative_url(url, page_url)


def on_page_markdown(markdown, page, config, files):  # MkDocs hook signature
    """The runs table on the page that asks for it; assets/runs.json added to the build once."""
    from mkdocs.exceptions import PluginError
    from mkdocs.structure.files import File

    try:
        if files.get_file_from_path(DATA_URL) is None:
            data = {"command": COMMAND, "runs": summaries(config.repo_url)}
            files.append(File.generated(config, DATA_URL, content=json.dumps(data, indent=1)))
            for run in load():
                files.append(
                    File.generated(config, f"{REPORTS_URL}/{run['file']}", abs_src_path=str(RUNS / run["file"]))
                )
        if not PLACEHOLDER.search(markdown):
            return markdown
        language = "zh" if page.file.src_uri.endswith(".zh.md") else "en"
        table = render_table(summaries(config.repo_url), language, page.file.url)
    except (RunDataError, gpu_names.GpuNameError, ValueError, KeyError, TypeError) as error:
        raise PluginError(f"docs/hooks/data/runs/: {error}") from None
    return PLACEHOLDER.sub(lambda _: table, markdown)
