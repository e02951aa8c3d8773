""".github/scripts/readme_commands.py, which runs the README's commands on the Windows workflow: it reads them
faithfully or refuses the README in one line, waits for the served site, and stops what it started."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import readme_commands
from guide_harness import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _readme_variant(old: str, new: str) -> str:
    assert old in README
    return README.replace(old, new, 1)


@pytest.mark.parametrize(
    "variant, message",
    [
        (lambda: _readme_variant("**Serve the site**", "**Serve it**"), "'**Serve the site**' exactly once"),
        (lambda: _readme_variant("```powershell\npy", "```pwsh\npy"), "no powershell block"),
        (
            lambda: _readme_variant(
                "```powershell\npy -3.12 -m venv .venv; if ($?)", "```powershell\npy -3.12 -m venv .venv\nif ($?)"
            ),
            "must be one line",
        ),
        (
            lambda: _readme_variant("Linux / macOS:", "```powershell\nWrite-Host extra\n```\n\nLinux / macOS:"),
            "two powershell blocks",
        ),
    ],
)
def test_a_readme_the_runner_cannot_read_faithfully_is_refused(variant, message):
    with pytest.raises(readme_commands.ReadmeError, match=re.escape(message)):
        readme_commands.commands(variant())


def test_the_command_file_holds_the_readme_command_verbatim(tmp_path):
    command = readme_commands.readme_command("test")
    script = readme_commands.script_file(command, tmp_path)
    assert script.suffix == ".ps1"
    first, middle, last = script.read_text(encoding="utf-8").splitlines()
    assert middle == command
    # A command that is not found (no `py`) must end the script with 1: under PowerShell's default
    # preference it does not stop the script, $LASTEXITCODE stays unset, and `exit $LASTEXITCODE` is exit 0.
    assert first == "$ErrorActionPreference = 'Stop'"
    assert last == r"if (-not (Test-Path variable:\LASTEXITCODE)) { exit 1 }; exit $LASTEXITCODE"
    assert readme_commands.shell_command("powershell", script)[0] == "powershell"
    assert readme_commands.shell_command("pwsh", script)[-2:] == ["-File", str(script)]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_waits_for_200_then_stops_the_server(tmp_path):
    port = _free_port()
    (tmp_path / "index.html").write_text("<title>guide</title>", encoding="utf-8")
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        page = readme_commands.wait_for_200(f"http://127.0.0.1:{port}/", server, timeout=60)
    finally:
        readme_commands.stop(server)
    assert "<title>guide</title>" in page
    assert server.poll() is not None  # stopped


def test_serve_fails_when_the_command_exits_or_never_answers(tmp_path):
    url = f"http://127.0.0.1:{_free_port()}/"
    ended = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    ended.wait(timeout=60)
    with pytest.raises(readme_commands.ReadmeError, match=r"exited \(3\) before"):
        readme_commands.wait_for_200(url, ended, timeout=30)
    silent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(readme_commands.ReadmeError, match="did not answer 200 within 3 s"):
            readme_commands.wait_for_200(url, silent, timeout=3)
    finally:
        readme_commands.stop(silent)


def test_the_runner_fails_in_one_line_on_a_broken_readme(tmp_path, monkeypatch):
    broken = tmp_path / "README.md"
    broken.write_text(README.replace("**Run the tests**", "**Tests**"), encoding="utf-8")
    monkeypatch.setattr(readme_commands, "README", broken)
    assert readme_commands.main(["show", "test"]) == 1


def test_a_timeout_stops_the_grandchildren_too(tmp_path):
    # A child whose own child still runs (as python runs under pwsh or cmd, holding the pipes): the timeout
    # must end both, and return. subprocess.run kills the child only (and on Windows then waits for the
    # pipes without a limit).
    pid_file = tmp_path / "grandchild.pid"
    parent = (
        "import subprocess, sys; "
        "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)']); "
        f"open({str(pid_file)!r}, 'w').write(str(p.pid)); p.wait()"
    )
    start = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        readme_commands.run_bounded([sys.executable, "-c", parent], timeout=5)
    assert time.monotonic() - start < 60
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(grandchild):
        time.sleep(0.1)
    assert not _alive(grandchild), "the grandchild outlived the timeout"


def test_run_bounded_returns_what_the_command_printed():
    result = readme_commands.run_bounded([sys.executable, "-c", "import sys; print('out'); sys.exit(3)"], timeout=60)
    assert (result.returncode, result.stdout.strip()) == (3, "out")


def _alive(pid: int) -> bool:
    if os.name == "nt":  # os.kill(pid, 0) would terminate it there
        listed = subprocess.run(["tasklist", "/FI", f"PID eq {pid}", "/NH"], capture_output=True, text=True)
        return str(pid) in listed.stdout
    # Linux: a process is alive while /proc has it and it is not a zombie (killed, not yet reaped).
    try:
        return not Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[-1].startswith("Z")
    except FileNotFoundError:
        return False
