"""``<!-- site-block: key=value ... -->`` before a fence: the pages' one directive syntax, and its parser.

One or more such comments may stand above a fence, with blank lines between. Values are shell words:
``manual="two words"``. Every key is in KEYS, with what it means. Each reader of fences names the fence languages it reads and the keys it
accepts there. With the page:line, these fail: a key not in KEYS, a key the reader does not accept, a
value that is not one of the key's values, a key given twice, a directive that stands above no fence,
a whole-line comment in another directive's form (``<!-- install-check: historical -->``), and
pytest-codeblocks' ``<!--pytest.mark.X-->`` (nothing reads it: the suite runs blocks through this syntax).
Fences are the page model's (guide.page), so a directive sees the fences the build and the tests see.

One key stands above no fence: ``<!-- site-block: edition=zh -->`` opens a stretch of one edition's own
content (a China-network section on the Chinese page) and ``<!-- site-block: edition=end -->`` closes it
(``edition_regions``). tests/pages/test_i18n.py leaves such a stretch out of the parity check, and the suite runs its
shell blocks as it runs the English pages' (guide.blocks); it may hold no Python block and no include.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace

from guide.page import Page


@dataclass(frozen=True)
class Key:
    doc: str
    values: tuple[str, ...] = ()  # the values it takes; () for any text, which may not be empty


KEYS = {
    "args": Key('the command-line arguments a Python block runs with: args="--data-dir {fashion_mnist}"'),
    "manual": Key(
        "the reason a shell block cannot run unattended (an installer, a GUI step, an administrator's "
        "change): it does not run, and every run lists it with the reason"
    ),
    "env": Key(
        "env=venv: the shell block runs in a fresh, activated .venv in the scratch folder, not in the "
        "suite's own environment",
        ("venv",),
    ),
    "directml": Key(
        "directml=yes: the block needs a DirectML adapter (skipped without one, required on the GPU runner)", ("yes",)
    ),
    "requires": Key("requires=TOOL: the shell block needs TOOL on PATH (uv); skipped where it is missing"),
    "install-check": Key(
        "how tests/pages/test_install_commands.py treats the fence's install commands: vendor-index "
        "(from a vendor's own index: their form is checked, not resolved) or historical (old "
        "recipes that must no longer install)",
        ("vendor-index", "historical"),
    ),
    "tags": Key(
        "the notebook cell's tags, space-separated (tags=parameters: papermill's convention), in "
        "docs/hooks/train_mnist_notebook*.md"
    ),
    "i18n": Key(
        "i18n=translated: a code block of a Chinese page translated on purpose (a file tree with "
        "descriptions; a shell block's comment lines, its commands unchanged); it keeps the English "
        "block's line count",
        ("translated",),
    ),
    "edition": Key(
        "edition=zh (or en) opens a stretch of lines that only that edition's page has, edition=end "
        "closes it: stands alone, above no fence",
        ("zh", "en", "end"),
    ),
}


class PageError(ValueError):
    """A page that cannot be read faithfully (a directive, a fence); the message starts with the page:line."""


COMMENT = re.compile(r"^[ \t]*<!--\s*(.*?)\s*-->[ \t]*$")
SITE_BLOCK = re.compile(r"^site-block:(.*)$", re.S)
OTHER_DIRECTIVE = re.compile(r"^[A-Za-z][\w.-]*\s*:")  # <!-- name: ... -->


@dataclass
class Directive:
    fence_line: int  # the line of the fence it stands above, from 1
    language: str  # that fence's label, lower case
    options: dict[str, str]


def is_directive(line: str) -> bool:
    """True for a ``<!-- site-block: ... -->`` line (a notebook cell's prose leaves it out)."""
    comment = COMMENT.match(line)
    return bool(comment) and bool(SITE_BLOCK.match(comment.group(1)))


def _parse(body: str, where: str) -> dict[str, str]:
    try:
        words = shlex.split(body)
    except ValueError as error:
        raise PageError(f"{where}: site-block directive: {error}") from None
    options: dict[str, str] = {}
    for word in words:
        key, _, value = word.partition("=")
        if key not in KEYS:
            raise PageError(f"{where}: unknown site-block key {key!r} (keys: {', '.join(KEYS)})")
        allowed = KEYS[key].values
        if not value.strip() or (allowed and value not in allowed):
            wanted = " or ".join(f"{key}={v}" for v in allowed) if allowed else f'{key}="..." (not empty)'
            raise PageError(f"{where}: {wanted}, not {word!r}: {KEYS[key].doc}")
        options[key] = value
    return options


def directives(text: str, where: str) -> list[Directive]:
    """Every fence of ``text`` that has site-block directives above it, validated against KEYS."""
    found: list[Directive] = []
    pending: dict[str, str] = {}
    first = 0  # the line of the first pending directive
    for number, line, fence in Page.parse(text, where).lines():
        if fence is not None:
            if pending:
                found.append(Directive(number, fence.language, pending))
            pending, first = {}, 0
            continue
        comment = COMMENT.match(line)
        if comment:
            body = comment.group(1)
            site_block = SITE_BLOCK.match(body)
            if site_block and _edition_marker(site_block.group(1), f"{where}:{number}") is not None:
                if pending:
                    raise PageError(
                        f"{where}:{first}: a site-block directive stands above an edition marker, not above a fence"
                    )
                continue
            if site_block:
                for key, value in _parse(site_block.group(1), f"{where}:{number}").items():
                    if key in pending:
                        raise PageError(f"{where}:{number}: site-block key {key!r} given twice for one fence")
                    pending[key] = value
                first = first or number
            elif body.startswith("pytest"):
                raise PageError(
                    f"{where}:{number}: <!-- {body} --> is pytest-codeblocks' syntax, which nothing "
                    f"reads here: write <!-- site-block: directml=yes --> (keys: {', '.join(KEYS)})"
                )
            elif OTHER_DIRECTIVE.match(body):
                raise PageError(
                    f"{where}:{number}: <!-- {body} --> is not a directive the pages use: "
                    f"write <!-- site-block: key=value --> (keys: {', '.join(KEYS)})"
                )
            continue
        if not line.strip():
            continue
        if pending:
            raise PageError(f"{where}:{first}: a site-block directive stands above text, not above a fence")
    if pending:
        raise PageError(f"{where}:{first}: a site-block directive at the end of the page, above no fence")
    return found


def with_directives(page: Page) -> Page:
    """``page`` with each fence carrying its site-block keys, checked against KEYS (a PageError names a
    bad one)."""
    found = {d.fence_line: d.options for d in directives(page.source, page.where)}
    return page.with_fences([replace(f, directives=found.get(f.line, {})) for f in page.fences])


def fence_options(text: str, where: str, languages: set[str] | None, accepts: set[str]) -> dict[int, dict[str, str]]:
    """{fence line: options} for the fences of ``languages`` (None: every fence), whose keys must be in ``accepts``."""
    result = {}
    for directive in directives(text, where):
        if languages is not None and directive.language not in languages:
            continue
        refused = sorted(set(directive.options) - accepts)
        if refused:
            raise PageError(
                f"{where}:{directive.fence_line}: site-block key {refused[0]!r} does not apply to a "
                f"```{directive.language} block here (it accepts: {', '.join(sorted(accepts))})"
            )
        result[directive.fence_line] = directive.options
    return result


# --- one edition's own content: <!-- site-block: edition=zh --> ... <!-- site-block: edition=end -->


def _edition_marker(body: str, where: str) -> str | None:
    """The value of an ``edition=`` directive (which must stand alone), or None for any other directive."""
    options = _parse(body, where)
    if "edition" not in options:
        return None
    if len(options) > 1:
        raise PageError(
            f"{where}: edition= stands alone in its directive, not with {sorted(set(options) - {'edition'})}"
        )
    return options["edition"]


@dataclass(frozen=True)
class Region:
    start: int  # the line of <!-- site-block: edition=X -->, from 1
    end: int  # the line of <!-- site-block: edition=end -->
    edition: str


def edition_regions(text: str, where: str, language: str | None = None) -> list[Region]:
    """The stretches of ``text`` that belong to one edition. With the page:line, these fail: a stretch left
    open, an end without a start, one stretch inside another, a stretch of another edition than the page's
    ``language``, and a Python block or an include inside a stretch (those are shared by both editions)."""
    regions: list[Region] = []
    opened: tuple[int, str] | None = None
    for number, line, fence in Page.parse(text, where).lines():
        if fence is not None:
            if opened and fence.language in {"python", "py", "python3", "pycon"}:
                raise PageError(
                    f"{where}:{number}: a Python block inside an edition's own stretch: Python "
                    f"blocks are shared by both editions (tests/pages/test_i18n.py)"
                )
            continue
        if opened and re.match(r"^\s*;?-+8<-+", line):
            raise PageError(
                f"{where}:{number}: an include inside an edition's own stretch: includes are shared by both editions"
            )
        comment = COMMENT.match(line)
        site_block = SITE_BLOCK.match(comment.group(1)) if comment else None
        value = _edition_marker(site_block.group(1), f"{where}:{number}") if site_block else None
        if value is None:
            continue
        if value == "end":
            if opened is None:
                raise PageError(f"{where}:{number}: edition=end without an edition=... above it")
            regions.append(Region(opened[0], number, opened[1]))
            opened = None
        elif opened is not None:
            raise PageError(
                f"{where}:{number}: edition={value} inside the edition={opened[1]} stretch opened at "
                f"line {opened[0]}: close it first (edition=end)"
            )
        elif language is not None and value != language:
            raise PageError(f"{where}:{number}: edition={value} on a page of the {language} edition")
        else:
            opened = (number, value)
    if opened is not None:
        raise PageError(f"{where}:{opened[0]}: edition={opened[1]} is never closed (<!-- site-block: edition=end -->)")
    return regions


def without_edition_content(text: str, where: str, language: str | None = None) -> str:
    """``text`` less its editions' own stretches (markers included): what the other edition must mirror."""
    lines = text.splitlines(keepends=True)
    for region in reversed(edition_regions(text, where, language)):
        del lines[region.start - 1 : region.end]
    return "".join(lines)


def in_edition_content(text: str, where: str, line: int) -> bool:
    """True when ``line`` (from 1) lies inside one of ``text``'s edition stretches."""
    return any(r.start < line < r.end for r in edition_regions(text, where))
