"""Every PowerShell and cmd block on the site runs on Windows, as a reader types it, in a scratch folder.

PowerShell blocks run in both PowerShell 7 (pwsh) and Windows PowerShell 5.1 (powershell); cmd blocks in
cmd. The scratch folder is the reader's project folder: every script of snippets/ side by side. `python` is
the suite's own environment (it has torch-directml), or with env=venv a fresh, activated .venv. A block
marked manual="why" in its page does not run and is listed, with the reason, at the end of every run.
Elsewhere than Windows every block is skipped, and said so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from guide_harness import (
    SNIPPETS,
    all_shell_blocks,
    clean_env,
    cmd_script,
    powershell_script,
    shell_command,
)
from directml_policy import software_adapter_only
from readme_commands import run_bounded

BLOCKS = all_shell_blocks()
ON_WINDOWS = os.name == "nt"
BLOCK_TIMEOUT = 1800  # seconds, per block and shell


def _params():
    for block in BLOCKS:
        marks = [pytest.mark.directml] if block.directml else []
        for shell in (["pwsh", "powershell"] if block.shell == "powershell" else ["cmd"]):
            yield pytest.param(block, shell, id=f"{block.test_id}:{shell}", marks=marks)


def test_the_site_has_shell_blocks():
    assert len(BLOCKS) >= 10, "the harness found almost no shell blocks: is it reading the pages?"


@pytest.mark.parametrize("block, shell", list(_params()))
def test_site_shell_block_runs(block, shell, tmp_path):
    if block.manual:
        pytest.skip(f"manual: {block.manual}")
    if not ON_WINDOWS:
        pytest.skip("shell blocks run on Windows only")
    for tool in [shell, *block.requires]:
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed here")
    project = tmp_path / "project"
    project.mkdir()
    for script in SNIPPETS.glob("*.py"):
        shutil.copy(script, project / script.name)
    env = clean_env()
    scripts = os.path.dirname(sys.executable)  # the suite's environment: python finds torch-directml
    if block.env == "venv":
        made = subprocess.run([sys.executable, "-m", "venv", str(project / ".venv")], capture_output=True, text=True)
        assert made.returncode == 0, made.stderr
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
        result = run_bounded(shell_command(shell, file), timeout=BLOCK_TIMEOUT, cwd=project, env=env,
                             encoding="utf-8", errors="replace")
    except subprocess.TimeoutExpired as timeout:
        pytest.fail(f"{block.test_id} in {shell} ran past {BLOCK_TIMEOUT} s\n{block.code}\n--- output\n"
                    f"{(timeout.output or '')[-3000:]}\n{(timeout.stderr or '')[-3000:]}", pytrace=False)
    assert result.returncode == 0, (
        f"{block.test_id} in {shell} exited {result.returncode}\n{block.code}\n--- output\n"
        f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
