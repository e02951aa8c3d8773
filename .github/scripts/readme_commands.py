"""The README's two commands, read from README.md itself, and run as a reader runs them (the Windows workflow).

    python .github/scripts/readme_commands.py show serve|test [--language powershell|sh]
    python .github/scripts/readme_commands.py run test --shell pwsh|powershell
    python .github/scripts/readme_commands.py serve --shell pwsh|powershell [--timeout 1200]

`run` writes the README's PowerShell block, unchanged, into a .ps1 file and runs it with the given shell
(PowerShell 7 is `pwsh`, Windows PowerShell 5.1 is `powershell`), passing on its exit status. `serve`
starts the serve command, waits until http://127.0.0.1:8000/ answers 200, then stops it and everything it
started. Nothing is retyped: change the README and the workflow runs the new command.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# guide.page (docs/hooks/guide/, standard library only): the page model that reads the README's fences.
sys.path.insert(0, str(ROOT / "docs" / "hooks"))

README = ROOT / "README.md"
# Each command sits under its bold label, one fence per platform, in this order.
LABELS = {
    "serve": "**Serve the site**",
    "test": "**Run the tests**",
    "current": "**Run the scripts' tests on current torch too**",
}
URL = "http://127.0.0.1:8000/"


class ReadmeError(Exception):
    """README.md does not have the shape the workflow relies on; the message says where."""


def commands(text: str) -> dict[str, dict[str, str]]:
    """{label: {language: command}} for the two labelled sections of the README."""
    from guide.page import Page

    starts = {}
    for label, marker in LABELS.items():
        if text.count(marker) != 1:
            raise ReadmeError(f"README.md must contain {marker!r} exactly once")
        starts[label] = text.index(marker)
    order = sorted(starts, key=starts.get)
    found = {}
    for i, label in enumerate(order):
        end = starts[order[i + 1]] if i + 1 < len(order) else text.find("\n## ", starts[label])
        section = text[starts[label] : end if end != -1 else len(text)]
        blocks = {}
        for fence in Page.parse(section, "README.md").blocks():
            language, body = fence.language, fence.body
            if language in blocks:
                raise ReadmeError(f"{LABELS[label]}: two {language} blocks")
            lines = [line for line in body.splitlines() if line.strip()]
            if len(lines) != 1:
                raise ReadmeError(f"{LABELS[label]}: the {language} block must be one line, not {len(lines)}")
            blocks[language] = lines[0].strip()
        for language in ("sh", "powershell"):
            if language not in blocks:
                raise ReadmeError(f"{LABELS[label]}: no {language} block")
        found[label] = blocks
    return found


def readme_command(label: str, language: str = "powershell") -> str:
    return commands(README.read_text(encoding="utf-8"))[label][language]


# Before the command: a command that is not found (no `py`) ends the script with exit 1. Under PowerShell's
# default preference CommandNotFound does not stop it, $LASTEXITCODE stays unset and `exit $null` is exit 0.
# (Native commands' exit codes are unaffected: $PSNativeCommandUseErrorActionPreference is off by default.)
SCRIPT_START = "$ErrorActionPreference = 'Stop'"
# After it: no native command run at all is exit 1 (as the runner's own steps check); else the last one's status.
SCRIPT_END = "if (-not (Test-Path variable:\\LASTEXITCODE)) { exit 1 }; exit $LASTEXITCODE"


def script_file(command: str, folder: Path) -> Path:
    """A .ps1 holding the command as the README shows it, between a start and an end that never turn
    a command that did not run into exit 0."""
    script = folder / "readme-command.ps1"
    script.write_text(f"{SCRIPT_START}\n{command}\n{SCRIPT_END}\n", encoding="utf-8")
    return script


def shell_command(shell: str, script: Path) -> list[str]:
    if shell in ("pwsh", "powershell"):
        return [shell, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", str(script)]
    return [shell, str(script)]  # tests: any program that runs the file


def stop(process: subprocess.Popen) -> None:
    """Stop the shell and what it started (mkdocs under python under PowerShell): on Windows the whole
    process tree (taskkill /T); elsewhere its process group, where it was started in one of its own."""
    if process.poll() is None:
        if os.name == "nt":
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(process.pid)], capture_output=True, check=False)
        elif _leads_its_group(process):
            os.killpg(process.pid, signal.SIGKILL) if hasattr(os, "killpg") else process.kill()
        else:
            process.kill()
    process.wait(timeout=60)


def _leads_its_group(process: subprocess.Popen) -> bool:
    try:
        return os.getpgid(process.pid) == process.pid
    except OSError:
        return False


def run_bounded(args: list[str], timeout: float, **popen) -> subprocess.CompletedProcess:
    """subprocess.run(args, capture_output=True, text=True) whose timeout also ends the grandchildren.

    subprocess.run kills only its child on a timeout, then waits without a limit for the pipes, which a
    grandchild (python under pwsh or cmd) still holds on Windows. Here the whole tree is stopped, and the
    pipes are read for at most 60 s more. Raises subprocess.TimeoutExpired with what was printed."""
    popen.setdefault("start_new_session", hasattr(os, "setsid"))  # POSIX: its own process group, for stop()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        stop(process)
        try:
            stdout, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            stdout, stderr = "", "(the pipes stayed open 60 s after the process tree was stopped)"
        raise subprocess.TimeoutExpired(args, timeout, output=stdout, stderr=stderr) from None
    return subprocess.CompletedProcess(args, process.returncode, stdout, stderr)


def wait_for_200(url: str, process: subprocess.Popen, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    last = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ReadmeError(f"the serve command exited ({process.returncode}) before {url} answered: {last}")
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                if response.status == 200:
                    return response.read(4096).decode("utf-8", "replace")
                last = f"HTTP {response.status}"
        except (urllib.error.URLError, OSError) as error:
            last = f"{type(error).__name__}: {error}"
        time.sleep(2)
    raise ReadmeError(f"{url} did not answer 200 within {timeout:.0f} s ({last})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["show", "run", "serve"])
    parser.add_argument("label", nargs="?", choices=sorted(LABELS))
    parser.add_argument("--language", default="powershell", choices=["powershell", "sh"])
    parser.add_argument("--shell", default="pwsh", help="pwsh (PowerShell 7) or powershell (Windows PowerShell 5.1)")
    parser.add_argument("--timeout", type=float, default=1200, help="serve: seconds to wait for HTTP 200")
    parser.add_argument("--url", default=URL)
    args = parser.parse_args(argv)
    label = "serve" if args.action == "serve" else args.label
    if label is None:
        parser.error("which command: serve or test")
    try:
        command = readme_command(label, args.language)
        if args.action == "show":
            print(command)
            return 0
        with tempfile.TemporaryDirectory() as folder:
            script = script_file(command, Path(folder))
            print(f"README {label} command ({args.shell}): {command}", flush=True)
            if args.action == "run":
                return subprocess.run(shell_command(args.shell, script), cwd=ROOT).returncode
            process = subprocess.Popen(shell_command(args.shell, script), cwd=ROOT)
            try:
                page = wait_for_200(args.url, process, args.timeout)
            finally:
                stop(process)
            print(f"{args.url} answered 200 ({len(page)} bytes read); the server is stopped", flush=True)
            return 0
    except ReadmeError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
