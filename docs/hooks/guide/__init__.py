"""The guide's page machinery: one package for the MkDocs build, the scripts in docs/hooks/ and the tests.

    pins            {{ pin.NAME }} -> the version pinned in pyproject.toml
    config          mkdocs.yml as MkDocs reads it, and --8<-- snippet expansion with its settings
    pages           the pages of both editions, their languages, their source after the pins
    directives      <!-- site-block: key=value ... --> before a fence: the one syntax, its keys, its parser
    blocks          a page's Python and shell blocks, as the tests run them (needs pytest-codeblocks)
    notebook        the tutorial notebooks, built from their Markdown sources and the snippets
    notebook_page   the notebook page's HTML with the site's own code styling
    i18n            the Chinese edition's fix-ups to the build (notebooks stay pages, jieba quiet)
    search_boost    the troubleshooting page ranks first in the site search
    benchmark_chart the SVG chart of the benchmark scripts' JSON
    hooks           the MkDocs event handlers (docs/hooks/site_hooks.py re-exports them)

docs/hooks/ is on sys.path for the tests (pyproject.toml), for the scripts in docs/hooks/ (their own
folder) and for MkDocs while it loads docs/hooks/site_hooks.py: ``from guide import pins``.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
SNIPPETS = ROOT / "snippets"
