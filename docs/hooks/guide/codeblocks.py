"""Each page as its reader sees it, written out for pytest-codeblocks: pins substituted, snippets included.

pytest-codeblocks reads Markdown files, but a page's source holds ``--8<--`` includes, not the code. So
``write_pages(folder)`` writes every page of both editions expanded, with each Python fence's site-block
directives turned into pytest-codeblocks' own comments just above the fence, and the fence labelled
``python`` alone (pytest-codeblocks skips ```` ```python title="doctor.py" ````, whose label it reads whole):

    <!-- site-block: directml=yes -->          ->  <!--pytest.mark.directml-->
    <!-- site-block: args="--epochs 1" -->     ->  <!--pytest.mark.args('--epochs', '1')-->

pytest-codeblocks then collects one test per Python block (tests/codeblocks_run.py, the plugin that writes
the pages into tests/pages/expanded/ and runs each block as a program).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from guide import DOCS
from guide.blocks import PYTHON_KEYS, PYTHON_LANGUAGES
from guide.config import expand
from guide.directives import fence_options
from guide.page import Page
from guide.pages import language_of, page_source, pages


def marks(options: dict[str, str]) -> list[str]:
    """pytest-codeblocks' comment lines for one fence's site-block keys."""
    lines = []
    if "directml" in options:
        lines.append("<!--pytest.mark.directml-->")
    if options.get("args"):
        arguments = ", ".join(repr(a) for a in shlex.split(options["args"]))
        lines.append(f"<!--pytest.mark.args({arguments})-->")
    return lines


def marked_source(source: str, where: str) -> str:
    """``source`` with the marks of each Python fence on the lines just above it, before expansion."""
    options = fence_options(source, where, PYTHON_LANGUAGES, PYTHON_KEYS)
    opening = {f.line: f for f in Page.parse(source, where).blocks(*PYTHON_LANGUAGES)}
    lines = []
    for number, line in enumerate(source.splitlines(), 1):
        fence = opening.get(number)
        if fence is not None:
            lines += [fence.indent + mark for mark in marks(options.get(number, {}))]
            line = fence.indent + fence.marker + "python"  # its title="..." is no code: the label alone
        lines.append(line)
    return "\n".join(lines) + "\n"


def write_pages(folder: Path) -> list[Path]:
    """Every page of both editions, expanded and marked, as ``folder``/EDITION/PAGE.md (en/setup.md,
    zh/setup.zh.md); the files written. Each file is replaced whole (a run beside this one may be reading
    it: .ci/run's two runs share the checkout), and a page no longer in docs/ is removed."""
    written = []
    for page in pages():
        target = folder / language_of(page) / page.relative_to(DOCS)
        target.parent.mkdir(parents=True, exist_ok=True)
        text = expand(marked_source(page_source(page), page.name))
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            partial = target.with_name(f"{target.name}.{os.getpid()}.tmp")
            partial.write_text(text, encoding="utf-8")
            os.replace(partial, target)
        written.append(target)
    for stale in set(folder.rglob("*.md")) - set(written):
        stale.unlink(missing_ok=True)
    return written
