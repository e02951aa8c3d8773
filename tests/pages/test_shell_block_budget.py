"""The Windows shell blocks' budget: which install blocks run where, each environment built once and removed
after its last block, and the disk figures windows.yml says it was planned on, computed here from the
measured Windows wheels (tests/windows_environments.json, made by .github/scripts/measure_environments.py)."""

from __future__ import annotations

import re
import tomllib
from collections import Counter

import pytest
import yaml

from guide_harness import ROOT, all_shell_blocks, shell_blocks_of
from shell_environments import (
    INSTALLS_VARIABLE,
    SharedEnvironments,
    environment_key,
    installs_setting,
    measured,
    peak_megabytes,
    runs_of,
    skip_reason,
)

BLOCKS = all_shell_blocks()
FIGURES = measured(ROOT / "tests" / "windows_environments.json")
SIZES = {key: env["unpacked_mb"] for key, env in FIGURES["environments"].items()}
SUITE = FIGURES["environments"]["the suite (--group test, the Windows lock)"]
WORKFLOWS = ROOT / ".github" / "workflows"
# What the hosted image has on PATH (runner-images: windows-2025): both PowerShells and cmd, no uv.
HOSTED_TOOLS = {"pwsh", "powershell", "cmd"}


def job_env(workflow: str) -> dict:
    (job,) = yaml.safe_load((WORKFLOWS / workflow).read_text(encoding="utf-8"))["jobs"].values()
    return {k: str(v) for k, v in (job.get("env") or {}).items()}


def plan(setting: str, tools=HOSTED_TOOLS) -> list[tuple[object, str, str | None]]:
    """(block, shell, environment key) of every install block that runs on Windows under ``setting``."""
    return [
        (b, shell, environment_key(b))
        for b, shell in runs_of(BLOCKS)
        if skip_reason(b, shell, True, setting, have=tools.__contains__) is None
        and re.search(r"pip3?\s+install", b.code)
    ]


def test_the_hosted_windows_job_builds_each_environment_once():
    setting = job_env("windows.yml").get(INSTALLS_VARIABLE, "pypi")
    keys = Counter(key for _, _, key in plan(setting) if key)
    # Two environments, each shared by all its runs: torch-directml's (setup.md, troubleshooting.md) and current
    # torch's. setup.zh.md's pip upgrade goes through a mirror in China, so it is a manual block.
    assert set(keys) == {"torch-directml", "torch==2.14.1 torchvision==0.29.1"}, keys
    assert keys["torch-directml"] >= 6  # setup.md 2 blocks x 3 runs and troubleshooting's: built once
    assert set(keys) <= set(SIZES), (
        "an environment the job builds has no measured size: run .github/scripts/measure_environments.py"
    )


def test_vendor_index_installs_run_only_when_opted_in():
    vendor = [b for b in BLOCKS if b.install_check == "vendor-index"]
    assert len(vendor) >= 3  # AMD's ROCm, PyTorch's XPU and CUDA
    for setting, runs in (("pypi", False), ("none", False), ("all", True)):
        ran = {b.test_id for b, _, _ in plan(setting)}
        assert all((b.test_id in ran) is runs for b in vendor), setting


def test_the_gpu_runner_installs_nothing_unhashed():
    # Every package the GPU job installs is hash-checked: no shell block that installs runs there.
    assert job_env("directml.yml").get(INSTALLS_VARIABLE) == "none"
    assert plan("none") == []


def test_the_installs_setting_is_checked():
    assert installs_setting({}) == "pypi"
    assert installs_setting({INSTALLS_VARIABLE: "all"}) == "all"
    with pytest.raises(ValueError, match="use one of pypi, all, none"):
        installs_setting({INSTALLS_VARIABLE: "yes"})


@pytest.mark.parametrize(
    "code, key",
    [
        (
            "py -3.12 -m venv .venv\n.venv\\Scripts\\Activate.ps1\npython -m pip install torch-directml",
            "torch-directml",
        ),
        ("python -m pip install --force-reinstall torch-directml\npython -m pip check", "torch-directml"),
        (
            "pip3 install torch torchvision --index-url https://download.pytorch.org/whl/xpu",
            "--index-url https://download.pytorch.org/whl/xpu torch torchvision",
        ),
        ("python -m pip check", None),
    ],
)
def test_environment_key(code, key):
    (block,) = shell_blocks_of("page.md", f"<!-- site-block: env=venv -->\n```powershell\n{code}\n```\n")
    assert environment_key(block) == key
    (in_project,) = shell_blocks_of("page.md", "```powershell\npython -m pip install torch-directml\n```\n")
    assert environment_key(in_project) is None  # the suite's own environment: nothing built


def test_a_shared_environment_is_built_once_and_removed_after_its_last_run(tmp_path_factory):
    shared = SharedEnvironments(tmp_path_factory.mktemp, Counter({"a": 3, "b": 1}))
    folder, fresh = shared.folder("a")
    assert fresh
    (folder / ".venv").mkdir()
    (folder / ".venv" / "big").write_bytes(b"x")
    assert shared.folder("a") == (folder, False)  # reused, as built
    shared.finished("a", passed=True)
    shared.finished("a", passed=True)
    assert (folder / ".venv" / "big").is_file()
    shared.finished("a", passed=True)
    assert not folder.exists()  # gone after the last of its runs
    other, _ = shared.folder("b")
    shared.finished("b", passed=False)
    assert other.exists()  # a failed run's folder stays for the report
    left, _ = shared.folder("c")
    shared.release_all()
    assert not left.exists()


def test_peak_counts_only_what_is_alive():
    assert peak_megabytes(["a", None, "a", "b", "b"], {"a": 10, "b": 5}) == 10
    assert peak_megabytes(["a", "b", "a"], {"a": 10, "b": 5}) == 15


def planned_figures(workflow_text: str) -> dict[str, int]:
    """The figures in the workflow's '# Planned on ...' comment, its lines joined."""
    comment = " ".join(
        line.strip().removeprefix("#").strip() for line in workflow_text.splitlines() if line.startswith("#")
    )
    found = {}
    for name, pattern in (("suite", r"(\d+) MB unpacked for the suite's \.venv"), ("blocks", r"(\d+) MB at the peak")):
        match = re.search(pattern, comment[comment.find("Planned on") :])
        if match:
            found[name] = int(match.group(1))
    return found


def test_windows_yml_states_the_figures_it_was_planned_on():
    text = (WORKFLOWS / "windows.yml").read_text(encoding="utf-8")
    runs = [key for _, _, key in plan(job_env("windows.yml").get(INSTALLS_VARIABLE, "pypi"))]
    assert planned_figures(text) == {"suite": SUITE["unpacked_mb"], "blocks": round(peak_megabytes(runs, SIZES))}
    assert FIGURES["measured"] in text and "tests/windows_environments.json" in text


def test_passing_tests_leave_no_tmp_path():
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert options["tmp_path_retention_policy"] == "failed"


def test_the_setup_page_says_what_is_installed_where():
    # The vendor-index blocks do not run by default (their form is checked), the PyPI ones run on Windows.
    text = " ".join((ROOT / "docs" / "setup.md").read_text(encoding="utf-8").split())
    assert "the vendor commands below are checked for their form, not installed" in text
    assert "install from PyPI run for real on a GitHub-hosted Windows machine" in text
    assert plan("pypi") and all(b.install_check != "vendor-index" for b, _, _ in plan("pypi"))
