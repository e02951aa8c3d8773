"""The benchmark chart matches its data: docs/images/benchmarks.svg is drawn from docs/hooks/benchmarks/*.json."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from guide import benchmark_chart as chart

SVG = "{http://www.w3.org/2000/svg}"


def bars(svg: str) -> list[tuple[float, float]]:
    """(data-value, drawn width) of every bar, in order."""
    root = ET.fromstring(svg)
    return [
        (float(rect.get("data-value")), float(rect.get("width")))
        for rect in root.iter(f"{SVG}rect")
        if rect.get("class") == "bar"
    ]


def expected_values(data: list[dict]) -> list[list[float]]:
    """The seconds each group of the chart must show, read from the JSON as the scripts write it."""
    result = []
    for run in data:
        if run["benchmark"] == "data_loading":
            s = run["seconds"]
            result.append([s["dataloader_with_transforms"], s["dataloader_pass_alone"], s["preloaded_tensors"]])
        else:
            result.append([r["total_seconds"] for r in run["runs"]])
    return result


def test_committed_chart_is_up_to_date():
    assert chart.CHART.read_text(encoding="utf-8") == chart.render(chart.load()), (
        "docs/images/benchmarks.svg is out of date: run python docs/hooks/benchmark_chart.py"
    )


def test_bars_show_the_data():
    data = chart.load()
    drawn = bars(chart.CHART.read_text(encoding="utf-8"))
    groups = expected_values(data)
    assert len(drawn) == sum(len(g) for g in groups)
    position = 0
    for values in groups:
        group = drawn[position : position + len(values)]
        position += len(values)
        assert [v for v, _ in group] == [round(x, 2) for x in values]
        longest = max(values)
        for value, (_, width) in zip(values, group, strict=True):  # lengths in proportion, the longest at full width
            assert width == pytest.approx(chart.BAR_SPACE * value / longest, abs=0.06)


def test_a_cuda_run_is_labelled_not_directml():
    run = {
        "benchmark": "devices",
        "dataset": "fashion-mnist",
        "train_images": 60000,
        "epochs": 3,
        "batch_size": 64,
        "torch": "2.11.0",
        "cpu_threads": 16,
        "runs": [
            {"device": "cpu", "seconds_per_epoch": [3.0], "total_seconds": 3.0, "test_accuracy": 0.9},
            {"device": "cuda:0", "seconds_per_epoch": [1.0], "total_seconds": 1.0, "test_accuracy": 0.9},
        ],
    }
    svg = chart.render([run])
    assert "cuda:0 (CUDA, not DirectML)" in svg
    assert "3.00x as fast as the CPU" in svg


# The chart's data come from the scripts' --json option: it must hold the figures the scripts print.


def test_data_loading_json_holds_the_printed_figures(fashion_mnist_root, tmp_path):
    import re

    from guide_harness import run_snippet

    result = run_snippet(
        "benchmark_data_loading.py",
        "--dataset",
        "fashion-mnist",
        "--data-dir",
        str(fashion_mnist_root),
        "--device",
        "cpu",
        "--limit-train",
        "600",
        "--batch-size",
        "100",
        "--json",
        str(tmp_path / "out.json"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert data["benchmark"] == "data_loading" and data["device"] == "cpu" and data["train_images"] == 600
    printed = float(re.search(r"^DataLoader \+ per-image transforms +(\d+\.\d\d)$", result.stdout, re.M).group(1))
    assert round(data["seconds"]["dataloader_with_transforms"], 2) == printed
    assert data["seconds"]["preloaded_tensors"] > 0


def test_devices_json_holds_the_printed_figures(fashion_mnist_root, tmp_path):
    import re

    from guide_harness import run_snippet

    result = run_snippet(
        "benchmark_devices.py",
        "--dataset",
        "fashion-mnist",
        "--epochs",
        "2",
        "--limit-train",
        "640",
        "--warmup-steps",
        "2",
        "--data-dir",
        str(fashion_mnist_root),
        "--device",
        "cpu",
        "--json",
        str(tmp_path / "out.json"),
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    assert data["benchmark"] == "devices" and data["epochs"] == 2 and data["train_images"] == 640
    assert [run["device"] for run in data["runs"]] == ["cpu", "cpu"]
    totals = re.search(r"^total +(\d+\.\d\d) +(\d+\.\d\d)$", result.stdout, re.M)
    assert [round(run["total_seconds"], 2) for run in data["runs"]] == [float(totals.group(1)), float(totals.group(2))]
    assert all(len(run["seconds_per_epoch"]) == 2 for run in data["runs"])
