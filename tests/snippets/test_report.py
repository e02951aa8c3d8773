"""Tests for snippets/report.py: a real run on this machine's CPU (real Fashion-MNIST, a part of it: quick) writes
a report that the run-report validator accepts but for the part of the set, with user and host names removed;
the training check's failure is in the report, not a crash; bad input is one line and a non-zero exit."""

from __future__ import annotations

import ast
import importlib.util
import json
import os
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest

from gpu_stand_in import windows_adapter
from guide_harness import SNIPPETS, load_snippet, run_snippet

VALIDATOR = Path(__file__).resolve().parents[2] / "docs" / "hooks" / "data" / "runs" / "validate.py"
REAL_REPORT = Path(__file__).resolve().parents[2] / "tests" / "repo" / "run_reports" / "report.json"
_spec = importlib.util.spec_from_file_location("run_report_validate", VALIDATOR)
validate_run_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validate_run_report)

report = load_snippet("report")
QUICK = ("--device", "cpu", "--epochs", "2", "--steps", "10", "--limit-train", "2000")


@pytest.fixture(scope="module")
def cpu_run(fashion_mnist_root, tmp_path_factory):
    folder = tmp_path_factory.mktemp("reader")
    result = run_snippet("report.py", "--data-dir", str(fashion_mnist_root), *QUICK, cwd=folder)
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


def test_a_failed_training_check_is_in_the_report(monkeypatch):
    def drifts(cpu, run, name):
        raise report.check.TrainingCheckError(f"training on {name} drifts away from the CPU at step 3")

    monkeypatch.setattr(report.check, "compare", drifts)
    import torch

    result = report.training_check(torch.device("cpu"), 10)
    assert result["passed"] is False and "drifts away" in result["reason"]


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


# --- the guide's own layout: the project and its .venv under a home folder named after the user -------------


@pytest.fixture(scope="module")
def home_run(fashion_mnist_root, tmp_path_factory):
    """report.py run as setup.md lays it out, on POSIX: the scripts in a project folder under the home folder
    /.../zhangsan_qx7, whose name is the user's, with the project's .venv inside it (a link to this Python's
    environment, so that sys.executable and sys.prefix sit under the home folder too)."""
    import shutil
    import subprocess
    import sys

    home = tmp_path_factory.mktemp("home") / "zhangsan_qx7"
    project = home / "QX7-WORKSTATION proj \u5f20\u4e09"
    project.mkdir(parents=True)
    for script in SNIPPETS.glob("*.py"):
        shutil.copy(script, project / script.name)
    try:
        (project / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    except OSError as error:  # Windows without developer mode: no symbolic link, and a venv cannot be copied
        pytest.skip(f"no symbolic link here ({error}): the layout needs .venv inside the project folder")
    names = {"USER": "zhangsan_qx7", "USERNAME": "zhangsan_qx7", "LOGNAME": "zhangsan_qx7"}
    env = {k: v for k, v in os.environ.items() if k not in {"TORCH_DEVICE", "PYTHONPATH", "VIRTUAL_ENV"}}
    env |= names | {"HOME": str(home), "COMPUTERNAME": "QX7-WORKSTATION", "PYTHONIOENCODING": "ascii"}
    scripts = "Scripts" if os.name == "nt" else "bin"  # a venv's own folder on Windows and elsewhere
    command = [str(project / ".venv" / scripts / "python"), "report.py", "--data-dir", str(fashion_mnist_root)]
    result = subprocess.run([*command, *QUICK], cwd=project, env=env, capture_output=True, text=True, timeout=600)
    return result, project / "run-report.json"


def test_a_report_made_in_the_guides_layout_is_valid_but_for_the_part_of_the_set(home_run):
    """The review's blocker (B1): the user's name was replaced before the paths were made relative, so no
    path under the home folder was found any more and the validator refused the report."""
    result, path = home_run
    assert result.returncode == 0, result.stdout + result.stderr
    text = path.read_text(encoding="utf-8")
    assert "zhangsan" not in text.lower() and "QX7" not in text and "\\u5f20" not in text, text
    _, problems, _ = validate_run_report.validate(text)
    assert problems == [
        "report.timed_run.train_images: 2000, not the full 60000: a run on part of the set is not comparable"
    ]


WINDOWS_HOME = PureWindowsPath(r"C:\Users\you")
WINDOWS_PYTHON = PureWindowsPath(r"C:\Users\you\AppData\Local\Programs\Python\Python312")
POSIX_HOME = PurePosixPath("/home/zhangsan")
# (the scripts folder, this Python, its environment, the current folder; what the doctor wrote; what the report
# holds): setup.md's layouts (the project's .venv, uv's, a conda in the home folder) and a venv elsewhere.
LAYOUTS = [
    (
        WINDOWS_HOME / "dml-guide",
        WINDOWS_HOME / r"dml-guide\.venv\Scripts\python.exe",
        r"3.12.7, 64-bit, C:\Users\you\dml-guide\.venv\Scripts\python.exe",
        r"3.12.7, 64-bit, .\.venv\Scripts\python.exe",
    ),
    (
        WINDOWS_HOME / "dml-guide",
        WINDOWS_HOME / r"dml-guide\.venv\Scripts\python.exe",
        "the project's virtual environment: c:/users/YOU/dml-guide/.venv",
        "the project's virtual environment: ./.venv",
    ),
    (
        WINDOWS_HOME / r"OneDrive - Contoso Ltd\dml-guide",
        WINDOWS_HOME / r"OneDrive - Contoso Ltd\venvs\dml\Scripts\python.exe",
        r"3.12.7, 64-bit, C:\Users\you\OneDrive - Contoso Ltd\venvs\dml\Scripts\python.exe",
        r"3.12.7, 64-bit, ...\Scripts\python.exe",
    ),
    (
        WINDOWS_HOME / "dml-guide",
        WINDOWS_HOME / r"miniconda3\envs\dml\python.exe",
        r"conda's environment: C:\Users\you\miniconda3\envs\dml",
        r"conda's environment: ...\envs\dml",
    ),
    (
        WINDOWS_HOME / "dml-guide",
        PureWindowsPath(r"D:\venvs\you\Scripts\python.exe"),
        r"not installed in this Python (D:\venvs\you\Scripts\python.exe)",
        r"not installed in this Python (...\Scripts\python.exe)",
    ),
    (
        WINDOWS_HOME / "dml-guide",
        WINDOWS_HOME / r"dml-guide\.venv\Scripts\python.exe",
        r"C:\Users\you\AppData\Local\Programs\Python\Python312\python.exe",
        r"%PYTHONHOME%\python.exe",
    ),
    (
        POSIX_HOME / "proj \u5f20\u4e09",
        POSIX_HOME / "proj \u5f20\u4e09/.venv/bin/python",
        "3.12.7, 64-bit, /home/zhangsan/proj \u5f20\u4e09/.venv/bin/python",
        "3.12.7, 64-bit, ./.venv/bin/python",
    ),
    (
        POSIX_HOME / "proj",
        PurePosixPath("/opt/torch/.venv/bin/python"),
        "the project's virtual environment: /opt/torch/.venv",
        "the project's virtual environment: .../torch/.venv",
    ),
    (
        POSIX_HOME / "proj",
        POSIX_HOME / ".venvs/zhangsan-dml/bin/python",
        "the path /home/zhangsan has non-ASCII characters",
        "the path .../home/*** has non-ASCII characters",
    ),
]


def places(scripts, python):
    """report.this_pc() for a PC of the given layout: home folder, Python's folder, the environment's."""
    windows = isinstance(scripts, PureWindowsPath)
    home, base = (WINDOWS_HOME, WINDOWS_PYTHON) if windows else (POSIX_HOME, PurePosixPath("/usr"))
    environment = python.parent.parent if python.parent.name in ("Scripts", "bin") else python.parent
    return scripts, base, [python, environment, scripts, home]


@pytest.mark.parametrize("scripts, python, written, kept", LAYOUTS, ids=range(len(LAYOUTS)))
def test_paths_are_made_relative_before_the_names_go(scripts, python, written, kept, monkeypatch):
    """The doctor's findings as report.py keeps them: relative (or shortened) first, then the names; and the
    validator takes the result (review B1: report.py replaced the names first, and no path matched)."""
    finding = report.doctor.Finding("ok", "python", written, "", "")
    monkeypatch.setattr(report.doctor, "diagnose", lambda: [finding])
    monkeypatch.setattr(report.doctor, "private_names", lambda env: ["zhangsan", "you", "YOU-PC"])
    findings = report.redacted(report.doctor_report(), ["zhangsan", "you", "YOU-PC"], places(scripts, python))
    assert findings["findings"][0]["text"] == kept
    real = json.loads(REAL_REPORT.read_text(encoding="utf-8"))
    real["doctor"]["findings"][0]["text"] = kept
    assert validate_run_report.validate(json.dumps(real))[1] == []


# ------------------------------------------------------------------ the GPU's PCI ID, group and target


@pytest.mark.parametrize(
    "fields, problem",
    [
        ({"pci_id": "1002:744c", "pci_revision": "c8", "group": "rdna3", "target": "gfx1100"}, None),
        ({"pci_id": "10de:25a2", "pci_revision": None, "group": "nvidia", "target": "sm_86"}, None),
        ({"pci_id": "1002:744C"}, "report.gpu.pci_id"),  # the table's keys are lowercase
        ({"target": "<b>gfx1100</b>"}, "report.gpu.target"),
        ({"group": "RDNA 3"}, "report.gpu.group"),
    ],
)
def test_the_schema_takes_the_pci_fields(cpu_run, fields, problem):
    """schema-1.json holds the four fields report.py writes (its additionalProperties refuses any other)."""
    _, path = cpu_run
    data = json.loads(path.read_text(encoding="utf-8"))
    data["gpu"].update(fields)
    _, problems, _ = validate_run_report.validate(json.dumps(data))
    partial = "report.timed_run.train_images: 2000, not the full 60000: a run on part of the set is not comparable"
    others = [p for p in problems if p != partial]
    if problem is None:
        assert others == []
    else:
        assert others and all(p.startswith(problem) for p in others), others


RX_7900_XTX = windows_adapter("AMD Radeon RX 7900 XTX", "PCI\\VEN_1002&DEV_744C&REV_C8")
RADEON_780M = windows_adapter("AMD Radeon 780M Graphics", "pci\\ven_1002&dev_15bf&rev_c1")
RTX_3050 = windows_adapter("NVIDIA GeForce RTX 3050 Laptop GPU", "pci\\ven_10de&dev_25a2")


@pytest.mark.parametrize(
    "adapters, name, backend, expected",
    [
        # the adapter of the device's own name (DirectML's names are Windows')
        ([RADEON_780M, RX_7900_XTX], "AMD Radeon RX 7900 XTX", "DirectML", ("1002:744c", "c8", "rdna3", "gfx1100")),
        # CUDA's name differs from Windows' ("NVIDIA GeForce RTX 3050 Laptop GPU" both here; a shortened one
        # below): the only NVIDIA GPU of the PC
        ([RADEON_780M, RTX_3050], "NVIDIA GeForce RTX 3050", "CUDA", ("10de:25a2", None, "nvidia", "sm_86")),
        # two AMD GPUs and a name that is neither's: no guess
        ([RADEON_780M, RX_7900_XTX], "AMD Radeon RX 7900 GRE", "ROCm", (None, None, None, None)),
        ([RX_7900_XTX], "13th Gen Intel(R) Core(TM) i7-13700H", "CPU", (None, None, None, None)),
    ],
)
def test_the_report_names_the_gpu_it_ran_on(adapters, name, backend, expected, device_table, monkeypatch):
    monkeypatch.setattr(report.doctor, "windows_adapters", lambda winreg=None: [dict(a) for a in adapters])
    gpus, why = report.doctor.machine_gpus(True)
    assert why == ""
    found = report.identity_of(name, backend, gpus)
    assert tuple(found[key] for key in ("pci_id", "pci_revision", "group", "target")) == expected
