"""Draw the benchmark chart (an SVG) from the benchmark scripts' JSON output.

    python docs/hooks/benchmark_chart.py          # write docs/images/benchmarks.svg
    python docs/hooks/benchmark_chart.py --check  # exit 1 if the SVG does not match the data

The data are the files in docs/hooks/benchmarks/, each written by one run of
``benchmark_data_loading.py --json FILE`` or ``benchmark_devices.py --json FILE`` (the commands are
in the README). Add or replace a file, run this script, commit both. Each file becomes one group
of bars, drawn to its own scale; every bar carries its value in ``data-value``, which
tests/guide/test_benchmark_chart.py checks against the data. A device run through CUDA is labelled
"CUDA, not DirectML": those figures show the method on a GPU, not what DirectML does.
"""

from __future__ import annotations

import argparse
import json
import sys
from html import escape
from pathlib import Path

from guide import ROOT, write_or_check

DATA = ROOT / "docs" / "hooks" / "benchmarks"
CHART = ROOT / "docs" / "images" / "benchmarks.svg"

WIDTH = 720
LABEL_WIDTH = 300  # the bar labels' column
BAR_SPACE = WIDTH - LABEL_WIDTH - 90  # room for the value after the longest bar
ROW = 26
COLOURS = {"slow": "#b3261e", "fast": "#1b6e3a", "neutral": "#3f51b5"}


def device_label(device: str) -> str:
    if device.startswith("cuda"):
        return f"{device} (CUDA, not DirectML)"
    if device.startswith("privateuseone"):
        return f"{device} (DirectML)"
    return device


def groups(data: list[dict]) -> list[dict]:
    """One group per benchmark result: a title, a note and bars of (label, seconds, colour)."""
    result = []
    for run in data:
        machine = f"torch {run['torch']}, {run['cpu_threads']} CPU threads"
        if run["benchmark"] == "data_loading":
            seconds = run["seconds"]
            result.append(
                {
                    "title": f"One epoch of {run['dataset']} ({run['train_images']} images, batch {run['batch_size']}) "
                    f"on {device_label(run['device'])}",
                    "note": f"{machine}, {run['num_workers']} DataLoader workers; preloaded is "
                    f"{seconds['dataloader_with_transforms'] / seconds['preloaded_tensors']:.2f}x as fast",
                    "bars": [
                        ("DataLoader + per-image transforms", seconds["dataloader_with_transforms"], "slow"),
                        ("  of which: the DataLoader pass alone", seconds["dataloader_pass_alone"], "neutral"),
                        ("preloaded tensors on the device", seconds["preloaded_tensors"], "fast"),
                    ],
                }
            )
        elif run["benchmark"] == "devices":
            runs = run["runs"]
            note = machine
            if len(runs) == 2:
                note += f"; {device_label(runs[1]['device'])} is {runs[0]['total_seconds'] / runs[1]['total_seconds']:.2f}x as fast as the CPU"
            else:
                note += "; no GPU in this run (--allow-cpu-only)"
            result.append(
                {
                    "title": f"{run['epochs']} epochs of LeNet on {run['dataset']} ({run['train_images']} images, "
                    f"batch {run['batch_size']})",
                    "note": note,
                    "bars": [
                        (device_label(r["device"]), r["total_seconds"], "neutral" if r["device"] == "cpu" else "fast")
                        for r in runs
                    ],
                }
            )
        else:
            raise ValueError(f"unknown benchmark {run.get('benchmark')!r}")
    return result


def render(data: list[dict]) -> str:
    """The SVG for ``data`` (the benchmark JSON documents, in order)."""
    parts, y, summary = [], 0, []
    for group in groups(data):
        y += 28
        parts.append(f'<text x="0" y="{y}" class="title">{escape(group["title"])}</text>')
        y += 18
        parts.append(f'<text x="0" y="{y}" class="note">{escape(group["note"])}</text>')
        y += 10
        longest = max(seconds for _, seconds, _ in group["bars"])
        for label, seconds, kind in group["bars"]:
            width = BAR_SPACE * seconds / longest
            parts.append(f'<text x="0" y="{y + 17}" class="label" xml:space="preserve">{escape(label)}</text>')
            parts.append(
                f'<rect class="bar" x="{LABEL_WIDTH}" y="{y + 4}" width="{width:.1f}" height="{ROW - 8}" '
                f'fill="{COLOURS[kind]}" data-value="{seconds:.2f}"><title>{escape(label.strip())}: '
                f"{seconds:.2f} s</title></rect>"
            )
            parts.append(f'<text x="{LABEL_WIDTH + width + 6:.1f}" y="{y + 17}" class="value">{seconds:.2f} s</text>')
            summary.append(f"{label.strip()}: {seconds:.2f} s")
            y += ROW
        y += 8
    height = y + 8
    description = escape("; ".join(summary))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="-8 0 {WIDTH + 16} {height}" width="{WIDTH + 16}" '
        f'height="{height}" role="img" aria-labelledby="chart-title chart-desc">\n'
        f'<title id="chart-title">Benchmark results, seconds (shorter is faster)</title>\n'
        f'<desc id="chart-desc">{description}</desc>\n'
        '<style>text{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:#1f1f1f;font-size:13px}'
        ".title{font-weight:600;font-size:14px}.note{fill:#4a4a4a;font-size:12px}"
        ".label{font-family:ui-monospace,Consolas,monospace;font-size:12px}</style>\n"
        f'<rect x="-8" y="0" width="{WIDTH + 16}" height="{height}" fill="#ffffff"/>\n'
        + "\n".join(parts)
        + "\n</svg>\n"
    )


def load(folder: Path = DATA) -> list[dict]:
    files = sorted(folder.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no benchmark JSON in {folder}")
    return [json.loads(path.read_text(encoding="utf-8")) for path in files]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw docs/images/benchmarks.svg from docs/hooks/benchmarks/*.json.")
    parser.add_argument("--check", action="store_true", help="exit 1 if the SVG is out of date")
    args = parser.parse_args(argv)
    try:
        svg = render(load())
    except (FileNotFoundError, ValueError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return write_or_check(CHART, svg, args.check, "python docs/hooks/benchmark_chart.py")
