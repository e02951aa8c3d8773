"""Every PowerShell and cmd block on the site runs on Windows, as a reader types it, in a scratch folder.

PowerShell blocks run in both PowerShell 7 (pwsh) and Windows PowerShell 5.1 (powershell); cmd blocks in
cmd. The scratch folder is the reader's project folder: every script of snippets/ side by side. `python` is
the suite's own environment (it has torch-directml), or with env=venv an activated .venv in that folder.
Blocks that install build each distinct environment once, in a folder they share, removed after the last of
them; SHELL_BLOCK_INSTALLS says which install blocks run (tests/shell_environments.py). A block marked
manual="why" in its page does not run and is listed, with the reason, at the end of every run.
Elsewhere than Windows every block is skipped, and said so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter

import pytest

from directml_policy import software_adapter_only
from guide_harness import (
    SNIPPETS,
    all_shell_blocks,
    clean_env,
    cmd_script,
    powershell_script,
    shell_command,
)
from readme_commands import run_bounded
from shell_environments import (
    SharedEnvironments,
    environment_key,
    installs_setting,
    remove_tree,
    runs_of,
    skip_reason,
)

BLOCKS = all_shell_blocks()
ON_WINDOWS = os.name == "nt"
BLOCK_TIMEOUT = 1800  # seconds, per block and shell


def _params():
    for block, shell in runs_of(BLOCKS):
        marks = [pytest.mark.directml] if block.directml else []
        yield pytest.param(block, shell, id=f"{block.test_id}:{shell}", marks=marks)


def _skip_reason(block, shell: str) -> str | None:
    return skip_reason(block, shell, ON_WINDOWS, installs_setting())


@pytest.fixture(scope="session")
def shared_environments(request, tmp_path_factory):
    """The install blocks' shared folders; each counts the runs of this session that will use it."""
    wanted = Counter()
    for item in request.session.items:
        params = getattr(item, "callspec", None) and item.callspec.params
        if item.originalname == "test_site_shell_block_runs" and params:
            key = environment_key(params["block"])
            if key and _skip_reason(params["block"], params["shell"]) is None:
                wanted[key] += 1
    shared = SharedEnvironments(tmp_path_factory.mktemp, wanted)
    yield shared
    shared.release_all()


def _project(block, shared):
    """The block's project folder, with the snippets in it (and its .venv for env=venv)."""
    key = environment_key(block)
    # Short folders (envK0, bN under pytest's base folder): paths stay under MAX_PATH (tests/repo/test_windows_paths.py).
    project, fresh = shared.folder(key) if key else (shared.scratch(), True)
    if fresh:
        project.mkdir(exist_ok=True)
        for script in SNIPPETS.glob("*.py"):
            shutil.copy(script, project / script.name)
    if block.env == "venv" and not (project / ".venv").is_dir():
        made = subprocess.run([sys.executable, "-m", "venv", str(project / ".venv")], capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
    return project, key


@pytest.mark.parametrize("block, shell", list(_params()))
def test_site_shell_block_runs(block, shell, tmp_path, request):
    reason = _skip_reason(block, shell)
    if reason:
        pytest.skip(reason)
    shared = request.getfixturevalue("shared_environments")
    project, key = _project(block, shared)
    passed = False
    try:
        _run(block, shell, project, tmp_path)
        passed = True
    finally:
        if key:
            shared.finished(key, passed)
        elif passed:
            remove_tree(project)


def _run(block, shell, project, tmp_path):
    env = clean_env()
    scripts = os.path.dirname(sys.executable)  # the suite's environment: python finds torch-directml
    if block.env == "venv":
        scripts = str(project / ".venv" / "Scripts")
        env["VIRTUAL_ENV"] = str(project / ".venv")
    env["PATH"] = scripts + os.pathsep + env.get("PATH", "")
    if software_adapter_only():
        env["TORCH_DEVICE"] = "cpu"  # not WARP: Direct3D 12 on the CPU (tests/directml_policy.py)
    if shell == "cmd":
        file = tmp_path / "block.cmd"
        file.write_text(cmd_script(block), encoding="utf-8", newline="")
    else:
        file = tmp_path / "block.ps1"
        file.write_text(powershell_script(block), encoding="utf-8-sig", newline="")  # BOM: PowerShell 5.1 reads UTF-8
    # Bounded for the whole tree: on a timeout pwsh or cmd and the python under it are stopped together.
    try:
        result = run_bounded(
            shell_command(shell, file), timeout=BLOCK_TIMEOUT, cwd=project, env=env, encoding="utf-8", errors="replace"
        )
    except subprocess.TimeoutExpired as timeout:
        pytest.fail(
            f"{block.test_id} in {shell} ran past {BLOCK_TIMEOUT} s\n{block.code}\n--- output\n"
            f"{(timeout.output or '')[-3000:]}\n{(timeout.stderr or '')[-3000:]}",
            pytrace=False,
        )
    assert result.returncode == 0, (
        f"{block.test_id} in {shell} exited {result.returncode}\n{block.code}\n--- output\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
