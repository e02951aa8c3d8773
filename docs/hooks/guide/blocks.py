"""A page's code blocks as the tests run them: Python blocks (SiteBlock) and shell blocks (ShellBlock).

A page is read after the {{ pin.X }} substitution and expanded with the site's pymdownx.snippets settings;
its fences are the page model's (guide.page) and their site-block directives come from guide.directives.
No other syntax is read: pytest-codeblocks' ``<!--pytest...-->`` comments are refused (guide.directives).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from guide import DOCS
from guide.config import expand
from guide.directives import PageError, edition_regions, fence_options
from guide.page import Fence, Page
from guide.pages import english_pages, page_source, pages

PYTHON_LANGUAGES = {"python", "py", "python3", "pycon"}
PYTHON_KEYS = {"args", "directml"}


@dataclass
class SiteBlock:
    page: str  # relative to docs/
    line: int  # line of the opening fence in the page's source
    info: str  # the fence's info string, e.g. 'python title="verify.py"'
    code: str  # the code after snippet expansion
    args: list[str] = field(default_factory=list)
    directml: bool = False  # <!-- site-block: directml=yes -->: needs a DirectML adapter

    @property
    def test_id(self) -> str:
        return f"{self.page}:{self.line}"


def _name(page: Path) -> str:
    return page.relative_to(DOCS).as_posix() if page.is_relative_to(DOCS) else page.name  # a test's scratch copy


def _source_and_expanded(name: str, source: str, languages: set[str], what: str) -> list[tuple[Fence, Fence]]:
    """Each fence of ``languages`` in the page's source, paired with the same fence after snippet expansion."""
    fences = Page.parse(source, name).blocks(*languages)
    expanded = Page.parse(expand(source), f"{name} (expanded)").blocks(*languages)
    if [f.language for f in fences] != [f.language for f in expanded]:
        raise PageError(f"{name}: an included file adds or removes {what}")
    for fence in fences:
        if not fence.closed:
            raise PageError(f"{name}:{fence.line}: a ```{fence.language} fence that never closes")
    return list(zip(fences, expanded, strict=True))


def site_blocks(page: Path) -> list[SiteBlock]:
    """Every Python block of ``page``, expanded, with the source line of its fence."""
    name = _name(page)
    source = page_source(page)
    options = fence_options(source, name, PYTHON_LANGUAGES, PYTHON_KEYS)
    result = []
    for fence, expanded in _source_and_expanded(name, source, PYTHON_LANGUAGES, "Python fences"):
        keys = options.get(fence.line, {})
        result.append(
            SiteBlock(
                page=name,
                line=fence.line,
                info=fence.info,
                code=expanded.body,
                args=shlex.split(keys.get("args", "")),
                directml="directml" in keys,
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


def shell_blocks_of(name: str, source: str) -> list[ShellBlock]:
    """The shell blocks of a page's source (after the pins hook), with their site-block options."""
    languages = set(SHELL_LANGUAGES) | OTHER_SHELL_LANGUAGES
    all_options = fence_options(source, name, set(SHELL_LANGUAGES), SHELL_KEYS)
    blocks = []
    for fence, expanded in _source_and_expanded(name, source, languages, "shell blocks"):
        where, label, code = f"{name}:{fence.line}", fence.language, expanded.body.strip("\n")
        if label in OTHER_SHELL_LANGUAGES:
            raise PageError(
                f"{where}: a ```{label} block on a page for Windows readers: "
                f"label it powershell or bat (they run on Windows), or text"
            )
        if not code.strip():
            raise PageError(f"{where}: an empty {label} block")
        options = all_options.get(fence.line, {})
        blocks.append(
            ShellBlock(
                page=name,
                line=fence.line,
                language=label,
                code=code,
                manual=options.get("manual"),
                env=options.get("env", "project"),
                directml="directml" in options,
                requires=options.get("requires", "").split(),
                install_check=options.get("install-check"),
            )
        )
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
