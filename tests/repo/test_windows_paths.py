"""The longest path a run creates on Windows stays under MAX_PATH, where long paths are off (stock Windows).

Computed from the measured Windows wheels (tests/windows_environments.json: the longest file each
environment installs under site-packages, .pyc included) and the folders the suite makes: the workspace
.venv of the GPU job, and the shell blocks' project folders under pytest's temporary folder, named as
pytest names them, in the order the suite runs them (tests/shell_environments.py shares one short folder
per environment). Windows limits a path to 259 characters (MAX_PATH, 260, counts the final NUL) and a
folder's to 247 (CreateDirectory keeps 12 for an 8.3 file name).
"""

from __future__ import annotations

import re
from collections import Counter

import yaml

from guide_harness import ROOT, all_shell_blocks
from shell_environments import (
    SharedEnvironments,
    environment_key,
    makes_venv,
    measured,
    requirements_key,
    runs_of,
    skip_reason,
)

FIGURES = measured(ROOT / "tests" / "windows_environments.json")["environments"]
LONGEST = {key: env["longest_path"].replace("/", "\\") for key, env in FIGURES.items()}
SUITE = LONGEST["the suite (--group test, the Windows lock)"]
SITE_PACKAGES = "\\.venv\\Lib\\site-packages\\"
MAX_FILE, MAX_FOLDER = 259, 247
# Windows local account names have at most 20 characters (Microsoft: "User name ... 20 characters").
LONGEST_USER = "u" * 20
TOOLS = {"pwsh", "powershell", "cmd", "uv"}


def block_folders(setting: str) -> list[tuple[str, str]]:
    """(project folder relative to pytest's base folder, the environment in its .venv) for every shell-block
    run that makes a .venv, as the suite names them (tests/pages/test_site_shell_blocks.py): a shared
    environment's folder envK0, or a folder of its own, bN (pytest's mktemp numbers them from 0)."""
    folders, shared, scratch = [], {}, 0
    for block, shell in runs_of(all_shell_blocks()):
        if skip_reason(block, shell, True, setting, have=TOOLS.__contains__) is not None:
            continue
        key = environment_key(block)
        if key:
            shared.setdefault(key, f"env{len(shared)}0")
            folders.append((shared[key], key))
            continue
        folder, scratch = f"b{scratch}", scratch + 1
        if makes_venv(block):
            folders.append((folder, requirements_key(block) or "a new venv (pip only)"))
    return folders


def longest_block_path(base: str, setting: str) -> tuple[int, int, str]:
    """(longest file path, longest folder path, the file) of the blocks' environments under ``base``.
    The vendor-index wheels cannot be measured from here: they count as long as the longest measured."""
    worst = (0, 0, "")
    for folder, key in block_folders(setting):
        inside = LONGEST.get(key) or max(LONGEST.values(), key=len)
        path = f"{base}\\{folder}{SITE_PACKAGES}{inside}"
        worst = max(worst, (len(path), len(path.rsplit("\\", 1)[0]), path))
    return worst


def test_the_folders_are_named_as_this_file_computes(tmp_path):
    shared = SharedEnvironments(lambda name: tmp_path / f"{name}0", Counter())
    assert shared.folder("torch-directml")[0].name == "env00" and shared.folder("x")[0].name == "env10"
    assert shared.scratch().name == "b0"


def user_temp(user: str, run: int) -> str:
    """pytest's base folder for ``user``'s ``run``-th run: %TEMP%\\pytest-of-USER\\pytest-N (it keeps counting)."""
    return f"C:\\Users\\{user}\\AppData\\Local\\Temp\\pytest-of-{user}\\pytest-{run}"


def test_the_shell_blocks_environments_fit_in_max_path_on_any_account():
    # A contributor's PC or the GPU PC without --basetemp: any account name, the 9999th run.
    length, folder, path = longest_block_path(user_temp(LONGEST_USER, 9999), "all")
    assert length <= MAX_FILE and folder <= MAX_FOLDER, f"{length} characters: {path}"


def test_the_gpu_job_fits_in_max_path():
    (job,) = yaml.safe_load((ROOT / ".github" / "workflows" / "directml.yml").read_text(encoding="utf-8"))[
        "jobs"
    ].values()
    run = next(s["run"] for s in job["steps"] if "-m pytest" in s.get("run", ""))
    basetemp = re.search(r'--basetemp "\$env:RUNNER_TEMP\\(\w+)"', run).group(1)
    # RUNNER_TEMP on a runner set up as docs/contributing/gpu-runner.md says: C:\actions-runner\_work\_temp.
    length, folder, path = longest_block_path(
        f"C:\\actions-runner\\_work\\_temp\\{basetemp}", job["env"]["SHELL_BLOCK_INSTALLS"]
    )
    assert length <= MAX_FILE, path
    # The suite's own .venv in the checkout, C:\actions-runner\_work\REPO\REPO: room for a 40-character name.
    repo = "r" * 40
    workspace = f"C:\\actions-runner\\_work\\{repo}\\{repo}{SITE_PACKAGES}{SUITE}"
    assert len(workspace) <= MAX_FILE, len(workspace)
