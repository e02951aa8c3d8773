"""The machinery behind the site tests: expand pages as MkDocs does, find their code blocks, run snippets.

Pages are expanded with pymdownx.snippets configured from mkdocs.yml (after the same {{ pin.X }}
substitution the MkDocs hook makes), and their blocks are extracted with pytest-codeblocks.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import types
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import markdown
import yaml
from pytest_codeblocks import extract_from_buffer

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
TESTS = ROOT / "tests"

PYTHON_LANGUAGES = {"python", "py", "python3", "pycon"}
# Any fence whose language is Python: ``` or ~~~, with or without {.python attr="..."} braces.
PYTHON_FENCE = re.compile(
    r"^([ \t]*)(`{3,}|~{3,})[ \t]*\{?\.?(python|py|python3|pycon)\b[^\n]*\n(.*?)^\1\2", re.M | re.S
)
INCLUDE_LINE = re.compile(r"""^\s*;?-+8<-+\s*(?:"([^"]+)"|'([^']+)'|(\S+))\s*$""")
# <!-- site-block: args="--epochs 1 --data-dir {fashion_mnist}" --> before a fence sets its arguments.
BLOCK_OPTIONS = re.compile(r"^<!--\s*site-block:(.*?)-->$")
ALLOWED_MARKS = {"pytest.mark.directml"}


class HarnessError(Exception):
    """A page that the harness cannot test faithfully; the message names the place."""


@dataclass
class SiteBlock:
    page: str  # relative to docs/
    line: int  # line of the opening fence in the page's source
    info: str  # the fence's info string, e.g. 'python title="verify.py"'
    code: str  # the code after snippet expansion
    marks: list[str] = field(default_factory=list)
    args: list[str] = field(default_factory=list)
    expected_output: str | None = None

    @property
    def test_id(self) -> str:
        return f"{self.page}:{self.line}"


def _load_hook():
    spec = importlib.util.spec_from_file_location("pins_hook", DOCS / "hooks" / "pins.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pins_hook = _load_hook()


def load_mkdocs_yml(text: str) -> dict:
    """mkdocs.yml as MkDocs reads it: safe YAML plus its ``!ENV`` tag (site_url and friends)."""
    from mkdocs.utils.yaml import get_yaml_loader

    return yaml.load(text, Loader=get_yaml_loader(yaml.SafeLoader))


@cache
def mkdocs_config() -> dict:
    return load_mkdocs_yml((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def snippets_config() -> dict:
    for extension in mkdocs_config()["markdown_extensions"]:
        if isinstance(extension, dict) and "pymdownx.snippets" in extension:
            config = dict(extension["pymdownx.snippets"] or {})
            # MkDocs resolves base_path from the directory it runs in: the repository root.
            config["base_path"] = [str(ROOT / p) for p in config.get("base_path", ["."])]
            return config
    raise HarnessError("mkdocs.yml does not enable pymdownx.snippets")


def pages() -> list[Path]:
    """Every page of both editions: docs/PAGE.md (English) and docs/PAGE.zh.md (Chinese)."""
    return sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.relative_to(DOCS).parts)


# The Chinese edition: docs/PAGE.zh.md beside docs/PAGE.md (mkdocs-static-i18n, suffix layout, mkdocs.yml).
TRANSLATIONS = ("zh",)


def language_of(page: Path) -> str:
    """'zh' for docs/setup.zh.md or train-mnist-notebook.zh.ipynb, 'en' for an untranslated name."""
    parts = page.name.split(".")
    return parts[-2] if len(parts) > 2 and parts[-2] in TRANSLATIONS else "en"


def english_pages() -> list[Path]:
    return [p for p in pages() if language_of(p) == "en"]


def translation_of(page: Path, language: str) -> Path:
    """docs/setup.md -> docs/setup.zh.md (the file need not exist)."""
    return page.with_name(f"{page.name.removesuffix(page.suffix)}.{language}{page.suffix}")


def page_source(page: Path) -> str:
    """The page as MkDocs hands it to Markdown: after the {{ pin.X }} hook."""
    return pins_hook.expand_pins(page.read_text(encoding="utf-8"))


def expand(text: str) -> str:
    """Expand --8<-- includes exactly as the site's pymdownx.snippets configuration does."""
    md = markdown.Markdown(extensions=["pymdownx.snippets"], extension_configs={"pymdownx.snippets": snippets_config()})
    return "\n".join(md.preprocessors["snippet"].run(text.split("\n")))


def _language(info: str | None) -> str:
    words = (info or "").strip().lstrip("{").split()
    return words[0].lstrip(".").lower() if words else ""


def _python_blocks(text: str, where: str):
    try:
        blocks = extract_from_buffer(io.StringIO(text))
    except RuntimeError as error:
        raise HarnessError(f"{where}: {error}") from None
    python = [b for b in blocks if _language(b.syntax) in PYTHON_LANGUAGES]
    fences = len(PYTHON_FENCE.findall(text))
    # pytest-codeblocks sees only ``` fences; count every Python fence so none escapes silently.
    # (A <!--pytest-codeblocks:cont--> block merges into the one before it, hence <=.)
    if len(python) > fences:
        raise HarnessError(f"{where}: found {len(python)} Python blocks but {fences} Python fences")
    return python, fences


def _options_before(lines: list[str], fence_line: int) -> dict[str, str]:
    options: dict[str, str] = {}
    index = fence_line - 2  # the line above the fence, 0-based
    while index >= 0 and (lines[index].strip().startswith("<!--") or not lines[index].strip()):
        match = BLOCK_OPTIONS.match(lines[index].strip())
        if match:
            for word in shlex.split(match.group(1)):
                key, _, value = word.partition("=")
                options[key] = value
        index -= 1
    return options


def site_blocks(page: Path) -> list[SiteBlock]:
    """Every Python block of ``page``, expanded, with the source line of its fence."""
    name = page.relative_to(DOCS).as_posix() if page.is_relative_to(DOCS) else page.name  # a test's scratch copy
    source = page_source(page)
    source_blocks, source_fences = _python_blocks(source, name)
    expanded_blocks, expanded_fences = _python_blocks(expand(source), f"{name} (expanded)")
    if len(source_blocks) != source_fences or len(expanded_blocks) != expanded_fences:
        # Only <!--pytest-codeblocks:cont--> may merge blocks; then the counts differ by the merges.
        merges = source.count("pytest-codeblocks:cont")
        if source_fences - len(source_blocks) != merges or expanded_fences - len(expanded_blocks) != merges:
            raise HarnessError(
                f"{name}: a Python fence is not seen by pytest-codeblocks (use ``` fences, not ~~~)"
            )
    if len(source_blocks) != len(expanded_blocks):
        raise HarnessError(f"{name}: an included file adds or removes Python fences")

    lines = source.splitlines()
    result = []
    for original, block in zip(source_blocks, expanded_blocks):
        unknown = set(block.marks) - ALLOWED_MARKS
        if unknown or block.importorskip:
            raise HarnessError(
                f"{name}:{original.lineno}: unsupported marker {sorted(unknown) or block.importorskip} "
                f"(allowed: {sorted(ALLOWED_MARKS)}); a block must run, not be skipped"
            )
        options = _options_before(lines, original.lineno)
        result.append(
            SiteBlock(
                page=name,
                line=original.lineno,
                info=(block.syntax or "").strip(),
                code=block.code,
                marks=list(block.marks),
                args=shlex.split(options.get("args", "")),
                expected_output=block.expected_output,
            )
        )
    return result


def all_site_blocks() -> list[SiteBlock]:
    """The Python blocks of the English pages. A translated page's blocks are not run a second time:
    tests/test_i18n.py proves them identical to its English page's blocks (code, arguments, marks)."""
    return [block for page in english_pages() for block in site_blocks(page)]


# --- shell blocks: PowerShell and cmd commands a reader types --------------------------------------------

# Fence label -> the shell family that runs it (PowerShell blocks run in pwsh and powershell, cmd in cmd).
SHELL_LANGUAGES = {"powershell": "powershell", "pwsh": "powershell", "ps1": "powershell", "bat": "cmd", "cmd": "cmd"}
# Labels of other shells: a page for Windows readers labels its commands powershell or bat (or text).
OTHER_SHELL_LANGUAGES = {"sh", "bash", "zsh", "shell", "console", "shell-session", "ps", "posh", "batch", "doscon"}
ANY_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*\{?\.?([\w+-]*)[^\n]*\n(.*?)^\1\2[ \t]*$", re.M | re.S)
# <!-- site-block: ... --> keys a shell block may carry:
#   manual="why"   it cannot run unattended (an installer, conda init, a GUI step, an admin change): not run,
#                  and listed with its reason at the end of every run;
#   env=venv       run with a fresh .venv in the scratch folder, activated (PATH), not the suite's environment;
#   directml=yes   needs a DirectML adapter (the `directml` marker: skipped without one, required on the GPU runner);
#   requires=TOOL  needs TOOL on PATH (e.g. uv); skipped, with that reason, where it is missing.
SHELL_OPTIONS = {"manual", "env", "directml", "requires"}


@dataclass
class ShellBlock:
    page: str  # relative to docs/
    line: int  # line of the opening fence in the page's source
    language: str  # the fence's label: powershell, pwsh, ps1, bat or cmd
    code: str  # after {{ pin.X }} and snippet expansion, de-indented
    manual: str | None = None
    env: str = "project"
    directml: bool = False
    requires: list[str] = field(default_factory=list)

    @property
    def shell(self) -> str:
        return SHELL_LANGUAGES[self.language]

    @property
    def test_id(self) -> str:
        return f"{self.page}:{self.line}"


def _fences(text: str) -> list[tuple[int, str, str]]:
    """(line of the opening fence, label, de-indented body) for every fenced block of ``text``."""
    found = []
    for match in ANY_FENCE.finditer(text):
        indent, label, body = match.group(1), match.group(3).lower(), match.group(4)
        lines = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in body.splitlines()]
        found.append((text.count("\n", 0, match.start()) + 1, label, "\n".join(lines).strip("\n")))
    return found


def shell_blocks_of(name: str, source: str) -> list[ShellBlock]:
    """The shell blocks of a page's source (after the pins hook), with their site-block options."""
    source_fences = [f for f in _fences(source) if f[1] in SHELL_LANGUAGES or f[1] in OTHER_SHELL_LANGUAGES]
    expanded_fences = [f for f in _fences(expand(source)) if f[1] in SHELL_LANGUAGES or f[1] in OTHER_SHELL_LANGUAGES]
    if [f[1] for f in source_fences] != [f[1] for f in expanded_fences]:
        raise HarnessError(f"{name}: an included file adds or removes shell blocks")
    lines = source.splitlines()
    blocks = []
    for (line, label, _), (_, _, code) in zip(source_fences, expanded_fences):
        where = f"{name}:{line}"
        if label in OTHER_SHELL_LANGUAGES:
            raise HarnessError(f"{where}: a ```{label} block on a page for Windows readers: "
                               f"label it powershell or bat (they run on Windows), or text")
        options = _options_before(lines, line)
        unknown = set(options) - SHELL_OPTIONS
        if unknown:
            raise HarnessError(f"{where}: unknown site-block option {sorted(unknown)} for a shell block "
                               f"(allowed: {sorted(SHELL_OPTIONS)})")
        if "manual" in options and not options["manual"].strip():
            raise HarnessError(f'{where}: manual="..." needs the reason the block cannot run unattended')
        if options.get("env", "project") not in {"project", "venv"}:
            raise HarnessError(f"{where}: env must be venv (or left out), not {options['env']!r}")
        if options.get("directml", "yes") != "yes":
            raise HarnessError(f"{where}: directml=yes or nothing, not {options['directml']!r}")
        if not code.strip():
            raise HarnessError(f"{where}: an empty {label} block")
        blocks.append(ShellBlock(
            page=name, line=line, language=label, code=code, manual=options.get("manual"),
            env=options.get("env", "project"), directml="directml" in options,
            requires=options.get("requires", "").split(),
        ))
    return blocks


def shell_blocks(page: Path) -> list[ShellBlock]:
    return shell_blocks_of(page.relative_to(DOCS).as_posix(), page_source(page))


def all_shell_blocks() -> list[ShellBlock]:
    """The shell blocks of the English pages; a Chinese page's are the same blocks with the same markers
    (tests/test_i18n.py), so they do not run twice."""
    return [block for page in english_pages() for block in shell_blocks(page)]


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
            out.append("if errorlevel 1 exit /b %errorlevel%")
    out.append("exit /b 0")
    return "\r\n".join(out) + "\r\n"


def shell_command(shell: str, script: Path) -> list[str]:
    if shell == "cmd":
        return ["cmd", "/d", "/c", str(script)]
    return [shell, "-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", str(script)]


def included_files(text: str) -> set[Path]:
    """Files that the --8<-- lines of ``text`` include (sections stripped)."""
    found = set()
    for line in text.splitlines():
        match = INCLUDE_LINE.match(line)
        if match:
            target = next(g for g in match.groups() if g)
            path, _, _section = target.partition(":")
            found.add((ROOT / path).resolve())
    return found


# What readers' consoles can show for certain (GBK, cp1252): ASCII. Snippets run with it (run_snippet, site blocks).
ASCII_CONSOLE = "ascii"


def clean_env(**extra: str) -> dict[str, str]:
    """The environment a reader's fresh terminal would have: no device override from the caller."""
    env = {k: v for k, v in os.environ.items() if k not in {"TORCH_DEVICE", "PYTHONPATH"}}
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


def run_python(args: list[str], cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_snippet(relative: str, *args: str, cwd: Path, timeout: float = 600, **env: str) -> subprocess.CompletedProcess:
    """Run snippets/<relative> as a reader runs it in PyCharm: a script, from its own folder's imports.

    Its stdout and stderr are ASCII-only (PYTHONIOENCODING=ascii): anything a GBK or cp1252 console
    could not show fails here with UnicodeEncodeError (tests/test_ascii_output.py)."""
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
