"""The running side of the site tests: run snippets and shell blocks as a reader does, check their failures.

The page side (pages, their pins, snippet expansion, site-block directives, code-block extraction) is the
package docs/hooks/guide/, which the MkDocs build uses too; its names that the tests use are re-exported here.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import warm_python
from guide import DOCS, ROOT, SNIPPETS
from guide.blocks import (
    SHELL_LANGUAGES,
    ShellBlock,
    all_shell_blocks,
    all_site_blocks,
    shell_blocks_of,
    site_blocks,
)
from guide.config import (
    expand,
    load_mkdocs_yml,
    mkdocs_config,
    snippets_config,
)
from guide.directives import PageError
from guide.pages import (
    INCLUDE_LINE,
    english_pages,
    included_files,
    language_of,
    page_source,
    pages,
    translation_of,
)

__all__ = [  # the page side, re-exported for the tests
    "DOCS",
    "INCLUDE_LINE",
    "ROOT",
    "SHELL_LANGUAGES",
    "SNIPPETS",
    "PageError",
    "all_shell_blocks",
    "all_site_blocks",
    "english_pages",
    "expand",
    "included_files",
    "language_of",
    "load_mkdocs_yml",
    "mkdocs_config",
    "page_source",
    "pages",
    "shell_blocks_of",
    "site_blocks",
    "snippets_config",
    "translation_of",
]

TESTS = ROOT / "tests"


def _commands(code: str, comment: str) -> list[str]:
    return [line for line in code.splitlines() if line.strip() and not line.strip().lower().startswith(comment)]


def powershell_script(block: ShellBlock) -> str:
    """The block as a .ps1 file: its lines unchanged, each followed by a stop if it failed."""
    out = []
    for line in block.code.splitlines():
        out.append(line)
        if line in _commands(block.code, "#"):
            out.append("if (-not $?) { exit 1 }")
    out.append("exit 0")
    return "\r\n".join(out) + "\r\n"


def cmd_script(block: ShellBlock) -> str:
    """The block as a .cmd file. Typed at a prompt, `x.bat` returns; in a batch file only `call x.bat` does."""
    out = []
    for line in block.code.splitlines():
        commands = _commands(block.code, "rem")
        if line in commands and re.match(r"^\S+\.(bat|cmd)\b", line.strip(), re.I):
            line = f"call {line}"
        out.append(line)
        if line.removeprefix("call ") in commands:
            # Not `if errorlevel 1` (true for 1 and above only): a crash's NTSTATUS code is negative
            # (0xC0000005 is -1073741819). Each line of a .cmd is parsed when it runs: %errorlevel% is current.
            out.append("if %errorlevel% neq 0 exit /b %errorlevel%")
    out.append("exit /b 0")
    return "\r\n".join(out) + "\r\n"


def shell_command(shell: str, script: Path) -> list[str]:
    if shell == "cmd":
        return ["cmd", "/d", "/c", str(script)]
    return [shell, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", str(script)]


# What readers' consoles can show for certain (GBK, cp1252): ASCII. Snippets run with it (run_snippet, site blocks).
ASCII_CONSOLE = "ascii"


def clean_env(**extra: str) -> dict[str, str]:
    """The environment a reader's fresh terminal would have: no device override from the caller."""
    env = {k: v for k, v in os.environ.items() if k not in {"TORCH_DEVICE", "PYTHONPATH"}}
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def run_python(args: list[str], cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    """``python *args`` as a reader's terminal runs it. On Linux a script runs in a fork of a Python that has
    already imported torch (tests/warm_python.py: the same run, a second sooner), elsewhere in a fresh one."""
    environment = clean_env(**env)
    warm = warm_python.run(args, cwd, environment, timeout)
    if warm is not None:
        return warm
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_snippet(relative: str, *args: str, cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    """Run snippets/<relative> as a reader runs it in PyCharm: a script, from its own folder's imports.

    Its stdout and stderr are ASCII-only (PYTHONIOENCODING=ascii): anything a GBK or cp1252 console
    could not show fails here with UnicodeEncodeError (tests/pages/test_ascii_output.py)."""
    env.setdefault("PYTHONIOENCODING", ASCII_CONSOLE)
    return run_python([str(SNIPPETS / relative), *args], cwd=cwd, timeout=timeout, **env)


def load_snippet(relative: str) -> types.ModuleType:
    """Import snippets/<relative> (e.g. "train_mnist" or "troubleshooting/pick_adapter") in-process.

    snippets/ is on sys.path (pyproject.toml's pytest ``pythonpath``), as the reader's project folder is
    in PyCharm, so a snippet imports its neighbours, and every test shares one copy of each module.
    """
    return importlib.import_module(relative.removesuffix(".py").replace("/", "."))


def assert_one_line_error(result: subprocess.CompletedProcess, *needles: str) -> str:
    """The failure contract: non-zero exit, no traceback, one 'error: ...' line on stderr."""
    assert result.returncode != 0, f"expected a failure, got exit 0:\n{result.stdout}"
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got:\n{result.stderr}"
    assert lines[0].startswith("error: "), lines[0]
    for needle in needles:
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"
    return lines[0]
