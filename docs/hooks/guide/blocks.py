"""A page's code blocks as the tests run them: Python blocks (SiteBlock) and shell blocks (ShellBlock).

A page is read after the {{ pin.X }} substitution and expanded with the site's pymdownx.snippets settings,
and its Python blocks are extracted with pytest-codeblocks (imported here only: the MkDocs build does not
need pytest). Their site-block directives come from guide.directives.
"""

from __future__ import annotations

import io
import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from pytest_codeblocks import extract_from_buffer

from guide import DOCS
from guide.config import expand
from guide.directives import PageError, edition_regions, fence_options
from guide.pages import english_pages, page_source, pages

PYTHON_LANGUAGES = {"python", "py", "python3", "pycon"}
# Any fence whose language is Python: ``` or ~~~, with or without {.python attr="..."} braces.
PYTHON_FENCE = re.compile(
    r"^([ \t]*)(`{3,}|~{3,})[ \t]*\{?\.?(python|py|python3|pycon)\b[^\n]*\n(.*?)^\1\2", re.M | re.S
)
ALLOWED_MARKS = {"pytest.mark.directml"}
PYTHON_KEYS = {"args"}


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


def _language(info: str | None) -> str:
    words = (info or "").strip().lstrip("{").split()
    return words[0].lstrip(".").lower() if words else ""


def _python_blocks(text: str, where: str):
    try:
        blocks = extract_from_buffer(io.StringIO(text))
    except RuntimeError as error:
        raise PageError(f"{where}: {error}") from None
    python = [b for b in blocks if _language(b.syntax) in PYTHON_LANGUAGES]
    fences = len(PYTHON_FENCE.findall(text))
    # pytest-codeblocks sees only ``` fences; count every Python fence so none escapes silently.
    # (A <!--pytest-codeblocks:cont--> block merges into the one before it, hence <=.)
    if len(python) > fences:
        raise PageError(f"{where}: found {len(python)} Python blocks but {fences} Python fences")
    return python, fences


def _name(page: Path) -> str:
    return page.relative_to(DOCS).as_posix() if page.is_relative_to(DOCS) else page.name  # a test's scratch copy


def site_blocks(page: Path) -> list[SiteBlock]:
    """Every Python block of ``page``, expanded, with the source line of its fence."""
    name = _name(page)
    source = page_source(page)
    source_blocks, source_fences = _python_blocks(source, name)
    expanded_blocks, expanded_fences = _python_blocks(expand(source), f"{name} (expanded)")
    if len(source_blocks) != source_fences or len(expanded_blocks) != expanded_fences:
        # Only <!--pytest-codeblocks:cont--> may merge blocks; then the counts differ by the merges.
        merges = source.count("pytest-codeblocks:cont")
        if source_fences - len(source_blocks) != merges or expanded_fences - len(expanded_blocks) != merges:
            raise PageError(
                f"{name}: a Python fence is not seen by pytest-codeblocks (use ``` fences, not ~~~)"
            )
    if len(source_blocks) != len(expanded_blocks):
        raise PageError(f"{name}: an included file adds or removes Python fences")

    options = fence_options(source, name, PYTHON_LANGUAGES, PYTHON_KEYS)
    result = []
    for original, block in zip(source_blocks, expanded_blocks):
        unknown = set(block.marks) - ALLOWED_MARKS
        if unknown or block.importorskip:
            raise PageError(
                f"{name}:{original.lineno}: unsupported marker {sorted(unknown) or block.importorskip} "
                f"(allowed: {sorted(ALLOWED_MARKS)}); a block must run, not be skipped"
            )
        result.append(
            SiteBlock(
                page=name,
                line=original.lineno,
                info=(block.syntax or "").strip(),
                code=block.code,
                marks=list(block.marks),
                args=shlex.split(options.get(original.lineno, {}).get("args", "")),
                expected_output=block.expected_output,
            )
        )
    return result


def all_site_blocks() -> list[SiteBlock]:
    """The Python blocks of the English pages. A translated page's blocks are not run a second time:
    tests/pages/test_i18n.py proves them identical to its English page's blocks (code, arguments, marks)."""
    return [block for page in english_pages() for block in site_blocks(page)]


# --- shell blocks: PowerShell and cmd commands a reader types --------------------------------------------

# Fence label -> the shell family that runs it (PowerShell blocks run in pwsh and powershell, cmd in cmd).
SHELL_LANGUAGES = {"powershell": "powershell", "pwsh": "powershell", "ps1": "powershell", "bat": "cmd", "cmd": "cmd"}
# Labels of other shells: a page for Windows readers labels its commands powershell or bat (or text).
OTHER_SHELL_LANGUAGES = {"sh", "bash", "zsh", "shell", "console", "shell-session", "ps", "posh", "batch", "doscon"}
ANY_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})[ \t]*\{?\.?([\w+-]*)[^\n]*\n(.*?)^\1\2[ \t]*$", re.M | re.S)
# The site-block keys of a shell block (guide.directives.KEYS says what each means). install-check is
# read from the same fences by tests/pages/test_install_commands.py; i18n=translated marks a Chinese block whose
# comments are translated (tests/pages/test_i18n.py).
SHELL_KEYS = {"manual", "env", "directml", "requires", "install-check", "i18n"}


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
    install_check: str | None = None  # vendor-index: installs from a vendor's own index (GBs)

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
        raise PageError(f"{name}: an included file adds or removes shell blocks")
    all_options = fence_options(source, name, set(SHELL_LANGUAGES), SHELL_KEYS)
    blocks = []
    for (line, label, _), (_, _, code) in zip(source_fences, expanded_fences):
        where = f"{name}:{line}"
        if label in OTHER_SHELL_LANGUAGES:
            raise PageError(f"{where}: a ```{label} block on a page for Windows readers: "
                            f"label it powershell or bat (they run on Windows), or text")
        if not code.strip():
            raise PageError(f"{where}: an empty {label} block")
        options = all_options.get(line, {})
        blocks.append(ShellBlock(
            page=name, line=line, language=label, code=code, manual=options.get("manual"),
            env=options.get("env", "project"), directml="directml" in options,
            requires=options.get("requires", "").split(), install_check=options.get("install-check"),
        ))
    return blocks


def shell_blocks(page: Path) -> list[ShellBlock]:
    return shell_blocks_of(page.relative_to(DOCS).as_posix(), page_source(page))


def edition_shell_blocks(page: Path) -> list[ShellBlock]:
    """The shell blocks inside a translated page's own stretches (<!-- site-block: edition=zh -->): the
    English page has no copy of them, so they run from the translated page."""
    name, source = page.relative_to(DOCS).as_posix(), page_source(page)
    regions = edition_regions(source, name)
    return [b for b in shell_blocks(page) if any(r.start < b.line < r.end for r in regions)]


def all_shell_blocks() -> list[ShellBlock]:
    """The shell blocks of the English pages, and those of the translated pages' own stretches; the rest of
    a Chinese page's blocks are the English page's blocks with the same markers (tests/pages/test_i18n.py), so
    they do not run twice."""
    english = [block for page in english_pages() for block in shell_blocks(page)]
    own = [block for page in pages() if page not in english_pages() for block in edition_shell_blocks(page)]
    return english + own
