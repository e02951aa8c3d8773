"""The guide's page machinery: one package for the MkDocs build, the scripts in docs/hooks/ and the tests.

    pins            {{ pin.NAME }} -> the version pinned in pyproject.toml
    checked         {{ checked.NAME }} -> the day a source was last checked (docs/hooks/data/)
    config          mkdocs.yml as MkDocs reads it, and --8<-- snippet expansion with its settings
    pages           the pages of both editions, their languages, their source after the pins
    macros          {{ pin.X }}, {{ checked.X }}, {{ gpus.X ARG }}: one grammar, one dispatch, one error
    directives      <!-- site-block: key=value ... --> before a fence: the one syntax, its keys, its parser
    page            one parsed page: its fences (language, attributes, directives, lines), headings, includes
    blocks          a page's Python and shell blocks, as the tests run them (read through page)
    notebook        the tutorial notebooks, built from their Markdown sources and the snippets
    notebook_page   the notebook page's HTML with the site's own code styling
    code_spans      highlighted code in fewer elements, with the same colours
    code_buttons    every code block's copy button written into the page (Material sets blocks up lazily)
    code_heights    each code block's line count, for the browser's estimate of a block it skips
    i18n            the Chinese edition's fix-ups to the build (notebooks stay pages, jieba quiet)
    search_boost    the troubleshooting page ranks first in the site search
    gpus            the one table of GPUs (docs/hooks/data/gpus.yml): loaded and validated
    gpu_names       GPU names read by docs/javascripts/gpu/match.js (through Node), on the guide's GPUs joined
                    with the device table (snippets/gpu_devices.json)
    gpu_pages       {{ gpus.NAME }} on a page: the chooser and the GPU tables, rendered from that table; its
                    parts gpu_tables, gpu_answers, gpu_chooser, gpu_site and gpu_text (words: text/*.yml)
    benchmark_chart the SVG chart of the benchmark scripts' JSON

docs/hooks/ is on sys.path for the tests (pyproject.toml), for the scripts in docs/hooks/ (their own
folder) and for MkDocs while it loads docs/hooks/site_hooks.py: ``from guide import pins``.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"


def write_or_check(path: Path, text: str, check: bool, command: str) -> int:
    """A generated file: write ``text`` to ``path``, or with ``check`` exit 1 (one line) if it differs."""
    if check:
        if (path.read_text(encoding="utf-8") if path.is_file() else "") != text:
            print(f"error: {path.relative_to(ROOT)} is out of date: run {command}", file=sys.stderr)
            return 1
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="\n")
    print(f"wrote {path.relative_to(ROOT)}")
    return 0
