"""Which shell blocks install packages, which environment each builds, and one folder per environment.

On Windows tests/pages/test_site_shell_blocks.py runs the pages' PowerShell and cmd blocks. A block that installs
builds an environment of GBs (torch-directml with torch: 1.26 GB unpacked, tests/windows_environments.json).
So:

* Blocks whose install lines would build the same environment (the same requirements from the same index,
  whatever pip's options) share one project folder: the first run builds its ``.venv``, the later ones
  (the other shells, the other pages' blocks) run their commands on it again, as a reader who retypes them
  would; the folder is removed after the last of them (kept if one failed, for the report).
* ``SHELL_BLOCK_INSTALLS`` says which install blocks run at all:
  ``pypi`` (unset): those from PyPI; the vendor-index blocks (AMD's ROCm, PyTorch's XPU and CUDA indexes,
  several GB each) are skipped, tests/pages/test_install_commands.py checks their form;
  ``all``: those too (a machine with room for them, on purpose);
  ``none``: no block that installs runs (the GPU runner: nothing unhashed is installed on that PC).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import sys
from collections import Counter
from pathlib import Path

INSTALLS_VARIABLE = "SHELL_BLOCK_INSTALLS"
INSTALLS_SETTINGS = ("pypi", "all", "none")
# A line that installs: pip install, pip3 install, python -m pip install, uv pip install.
INSTALL_LINE = re.compile(r"^\s*(?:\S*python[\d.]*(?:\.exe)?\s+-m\s+)?(?:uv\s+)?pip3?\s+install\s+(?P<args>.+)$", re.I)
# pip options that change how, not what, an install builds.
MANNER_OPTIONS = {"-q", "--quiet", "-U", "--upgrade", "--force-reinstall", "--no-cache-dir", "--no-input"}
INDEX_OPTIONS = {"--index-url", "-i", "--extra-index-url"}


def install_lines(code: str) -> list[str]:
    return [m.group("args") for m in map(INSTALL_LINE.match, code.splitlines()) if m]


def requirements_key(block) -> str | None:
    """What the block's install lines ask for: requirements and indexes, sorted, options aside; None
    when it installs nothing."""
    lines = install_lines(block.code)
    if not lines:
        return None
    words = []
    for args in lines:
        parts = iter(shlex.split(args, posix=True))
        for part in parts:
            if part in INDEX_OPTIONS:
                words.append(f"{part} {next(parts, '')}")
            elif part.split("=", 1)[0] in INDEX_OPTIONS:
                words.append(part.replace("=", " ", 1))
            elif part not in MANNER_OPTIONS:
                words.append(part)
    return " ".join(sorted(set(words)))


def makes_venv(block) -> bool:
    return block.env == "venv" or bool(re.search(r"-m venv\b|^\s*uv\s+venv\b", block.code, re.M))


def environment_key(block) -> str | None:
    """The environment a block's installs build in a .venv (its own, or env=venv's), shared by every
    block with the same key. None when it builds none to share: it installs nothing, installs into the
    suite's own environment, or makes its .venv with uv (`uv venv` replaces a .venv it finds)."""
    if not makes_venv(block) or re.search(r"^\s*uv\s+venv\b", block.code, re.M):
        return None
    return requirements_key(block)


def installs_setting(environ=os.environ) -> str:
    """The setting; REQUIRE_DIRECTML=1 (the GPU PC, which keeps what a job leaves) is always `none`,
    whatever the variable says: a nested run or a later edit cannot bring unhashed installs there."""
    value = environ.get(INSTALLS_VARIABLE, "") or "pypi"
    if value not in INSTALLS_SETTINGS:
        raise ValueError(f"{INSTALLS_VARIABLE}={value!r}: use one of {', '.join(INSTALLS_SETTINGS)}")
    return "none" if environ.get("REQUIRE_DIRECTML") == "1" else value


def install_skip_reason(block, setting: str) -> str | None:
    """Why ``block`` does not run under the install setting, or None."""
    if not install_lines(block.code):
        return None
    if setting == "none":
        return (
            f"installs packages without hashes ({INSTALLS_VARIABLE}=none: "
            f"this machine installs only the hash-locked ones)"
        )
    if block.install_check == "vendor-index" and setting != "all":
        return (
            f"installs torch from a vendor's index (several GB; tests/pages/test_install_commands.py checks its "
            f"form): {INSTALLS_VARIABLE}=all installs it"
        )
    return None


def skip_reason(block, shell: str, on_windows: bool, setting: str, have=shutil.which) -> str | None:
    """Why this run of the block does not happen, or None: it runs (``have``: is this tool on PATH)."""
    if block.manual:
        return f"manual: {block.manual}"
    if not on_windows:
        return "shell blocks run on Windows only"
    for tool in [shell, *block.requires]:
        if not have(tool):
            return f"{tool} is not installed here"
    return install_skip_reason(block, setting)


def runs_of(blocks) -> list[tuple[object, str]]:
    """(block, shell) in the order the suite runs them: PowerShell blocks in pwsh and powershell, cmd in cmd."""
    return [(b, shell) for b in blocks for shell in (["pwsh", "powershell"] if b.shell == "powershell" else ["cmd"])]


def remove_tree(path: Path) -> None:
    """Remove a folder, read-only files included (Windows)."""

    def writable_then_retry(function, name, _):
        os.chmod(name, stat.S_IWRITE)
        function(name)

    if path.exists():
        if sys.version_info >= (3, 12):
            shutil.rmtree(path, onexc=writable_then_retry)
        else:
            shutil.rmtree(path, onerror=writable_then_retry)


class SharedEnvironments:
    """One project folder per environment key: built by the first run, reused, removed after the last."""

    def __init__(self, make_folder, wanted: Counter):
        self.make_folder = make_folder  # name -> a new empty folder (tmp_path_factory.mktemp)
        self.left = Counter(wanted)
        self.folders: dict[str, Path] = {}
        self.failed: set[str] = set()

    def folder(self, key: str) -> tuple[Path, bool]:
        """(the key's project folder, whether it was just made)."""
        if key in self.folders:
            return self.folders[key], False
        self.folders[key] = folder = self.make_folder(f"env{len(self.folders)}")
        return folder, True

    def scratch(self) -> Path:
        """A short project folder of its own (b0, b1, ...) for a block that shares none: its paths stay short."""
        return self.make_folder("b")

    def finished(self, key: str, passed: bool) -> None:
        self.left[key] -= 1
        if not passed:
            self.failed.add(key)
        if self.left[key] <= 0:
            self.release(key)

    def release(self, key: str) -> None:
        folder = self.folders.get(key)
        if folder is not None and key not in self.failed:
            remove_tree(folder)

    def release_all(self) -> None:
        for key in list(self.folders):
            self.release(key)


def peak_megabytes(runs: list[str | None], sizes: dict[str, float]) -> float:
    """The most disk the environments of a sequence of runs (their keys, in order) hold at once, each
    built at its first run and removed after its last."""
    last = {key: i for i, key in enumerate(runs) if key}
    live: set[str] = set()
    peak = 0.0
    for i, key in enumerate(runs):
        if key:
            live.add(key)
        peak = max(peak, sum(sizes[k] for k in live))
        if key and last[key] == i:
            live.discard(key)
    return peak


def measured(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))
