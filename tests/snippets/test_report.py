"""Tests for snippets/report.py: a real run on this machine's CPU (real Fashion-MNIST, a part of it: quick) writes
a report that the run-report validator accepts but for the part of the set, with user and host names removed;
the training check's failure is in the report, not a crash; bad input is one line and a non-zero exit."""

from __future__ import annotations

import ast
import importlib.util
import json
from pathlib import Path

import pytest

from guide_harness import SNIPPETS, load_snippet, run_snippet

VALIDATOR = Path(__file__).resolve().parents[2] / "docs" / "hooks" / "data" / "runs" / "validate.py"
_spec = importlib.util.spec_from_file_location("run_report_validate", VALIDATOR)
validate_run_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validate_run_report)

report = load_snippet("report")
QUICK = ("--device", "cpu", "--epochs", "2", "--steps", "10", "--limit-train", "2000")


@pytest.fixture(scope="module")
def cpu_run(fashion_mnist_root, tmp_path_factory):
    folder = tmp_path_factory.mktemp("reader")
    # A "host name" that the report would otherwise hold: the doctor's path of this environment's .venv.
    result = run_snippet(
        "report.py",
        "--data-dir",
        str(fashion_mnist_root),
        *QUICK,
        cwd=folder,
        COMPUTERNAME="venv",
        USERNAME="nobody-here",
    )
    return result, folder / "run-report.json"


def test_a_cpu_run_writes_the_report(cpu_run):
    result, path = cpu_run
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("report written to run-report.json (user and host names removed)")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["schema_version"] == 1 and data["system"]["backend"] == "CPU"
    assert data["training_check"]["passed"] is True
    assert data["training_check"]["loss_difference"] == 0.0  # the CPU against itself
    timed = data["timed_run"]
    assert [e["epoch"] for e in timed["epochs"]] == [1, 2] and timed["train_images"] == 2000
    assert timed["seconds_per_epoch"] == timed["epochs"][-1]["seconds"] > 0
    assert 0.5 < timed["accuracy"] <= 1  # LeNet on 2,000 images of Fashion-MNIST, two epochs
    assert f"accuracy {timed['accuracy']:.4f}" in lines[-2]


def test_the_validator_takes_it_but_for_the_part_of_the_set(cpu_run):
    """report.py and schema-1.json agree field by field; a partial run is refused with its one reason."""
    _, path = cpu_run
    _, problems, _ = validate_run_report.validate(path.read_text(encoding="utf-8"))
    assert problems == [
        "report.timed_run.train_images: 2000, not the full 60000: a run on part of the set is not comparable"
    ]


def test_user_and_host_names_are_removed(cpu_run):
    _, path = cpu_run
    text = path.read_text(encoding="utf-8")
    assert ".***" in text  # the .venv of the doctor's findings, "venv" being the host name here
    assert "venv" not in text.lower()


def test_a_failed_training_check_is_in_the_report(monkeypatch):
    def drifts(cpu, run, name):
        raise report.check.TrainingCheckError(f"training on {name} drifts away from the CPU at step 3")

    monkeypatch.setattr(report.check, "compare", drifts)
    import torch

    result = report.training_check(torch.device("cpu"), 10)
    assert result["passed"] is False and "drifts away" in result["reason"]


def test_redacted_reaches_every_string():
    value = {"a": ["C:\\Users\\Alice\\x", {"b": "ALICE-PC"}], "n": 3, "none": None}
    assert report.redacted(value, ["ALICE-PC", "Alice"]) == {
        "a": ["C:\\Users\\***\\x", {"b": "***"}],
        "n": 3,
        "none": None,
    }


def neighbour_names_used(path: Path) -> dict[str, set[str]]:
    """{sibling script: the names ``path`` takes from it}: ``from m import x`` and ``import m [as a]`` then ``a.x``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    used: dict[str, set[str]] = {}
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (SNIPPETS / f"{node.module}.py").is_file():
            used.setdefault(node.module, set()).update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (SNIPPETS / f"{alias.name}.py").is_file():
                    aliases[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            used.setdefault(aliases[node.value.id], set()).add(node.attr)
    return used


def test_report_uses_only_what_the_other_scripts_export():
    """report.py reaches the other scripts through their __all__ only (review 2026-12-code-2: it used 17 internal
    names of doctor.py and verify_training.py), and each __all__ names what its module holds."""
    used = neighbour_names_used(SNIPPETS / "report.py")
    assert set(used) == {
        "doctor",
        "verify_training",
        "choose_device",
        "lenet",
        "mnist_data",
        "train_mnist",
        "script_guard",
    }
    for module, names in used.items():
        exported = set(getattr(load_snippet(module), "__all__", ()))
        assert names <= exported, f"report.py uses {sorted(names - exported)} of {module}.py, which it does not export"
        assert all(hasattr(load_snippet(module), name) for name in exported), module


def test_the_report_names_the_guides_version_not_a_git_commit(cpu_run):
    """The version comes from report.py itself (GUIDE_VERSION), whatever git repository the reader runs it in."""
    _, path = cpu_run
    guide = json.loads(path.read_text(encoding="utf-8"))["guide"]
    assert guide["version"] == report.GUIDE_VERSION
    assert "commit" not in guide
    assert set(guide["scripts"]) == set(report.SCRIPTS)
