"""Build the tutorial notebook from its Markdown source and the snippet files it includes.

    python docs/hooks/notebook.py          # write docs/train-mnist-notebook.ipynb (and .zh.ipynb)
    python docs/hooks/notebook.py --check  # exit 1 if a committed notebook is out of date

The source, docs/hooks/train_mnist_notebook.md, is prose plus Python fences that hold only
``--8<-- "snippets/file.py:section"`` lines: each fence becomes one code cell, expanded with the
site's own pymdownx.snippets settings, and the prose between fences becomes Markdown cells.
So the notebook's code is the snippets' code, never a hand-kept copy, with one change: imports of
the project's own modules (``from mnist_data import batches``) are left out, because in the notebook
an earlier cell defines those names; the downloaded notebook then needs no other file.
A fence preceded by ``<!-- site-block: tags=parameters -->`` gets those cell tags (papermill's convention).
Every heading carries its anchor, as on the site's pages (``## 1. 选择设备 {#1-choose-the-device}``: the
Chinese heading keeps the English one's): the notebook shows the heading without it, and the Markdown
cell's metadata lists the anchors in order (``"anchors"``), which the notebook page gives its headings
(guide/notebook_page.py); the renderer's own ids came from the text, empty or ``1`` for Chinese.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from guide import ROOT, SNIPPETS, write_or_check
from guide.config import expand
from guide.directives import fence_options, is_directive
from guide.page import Page

SOURCE = ROOT / "docs" / "hooks" / "train_mnist_notebook.md"
NOTEBOOK = ROOT / "docs" / "train-mnist-notebook.ipynb"
# The Chinese edition's notebook: Chinese prose, the same code cells (tests/pages/test_i18n.py compares them).
TRANSLATED = {
    "zh": (ROOT / "docs" / "hooks" / "train_mnist_notebook.zh.md", ROOT / "docs" / "train-mnist-notebook.zh.ipynb")
}
CELL_KEYS = {"tags"}  # the site-block keys of a notebook cell (guide.directives.KEYS)
HEADING = re.compile(r"^#{1,6}[ \t].*$", re.M)
ANCHOR = re.compile(r"[ \t]+\{#([a-z0-9][a-z0-9-]*)\}[ \t]*$")


def markdown_cell(prose: str, source_name: str):
    """A Markdown cell for ``prose``: headings without their ``{#anchor}``, the anchors in its metadata."""
    import nbformat.v4 as nbf

    anchors = []

    def strip(match: re.Match) -> str:
        anchor = ANCHOR.search(match.group(0))
        if anchor is None:
            raise ValueError(f"{source_name}: a heading without its anchor ({{#id}}): {match.group(0)!r}")
        anchors.append(anchor.group(1))
        return match.group(0)[: anchor.start()]

    cell = nbf.new_markdown_cell(HEADING.sub(strip, prose))
    if anchors:
        cell.metadata["anchors"] = anchors
    return cell


def project_import(line: str, snippets: Path = SNIPPETS) -> bool:
    """True for ``from mnist_data import ...`` / ``import lenet``: an import of a file in snippets/."""
    match = re.match(r"^(?:from\s+(\w+)\s+import\s|import\s+(\w+)\s*$)", line)
    return bool(match) and (snippets / f"{match.group(1) or match.group(2)}.py").is_file()


def code_cell_source(include_lines: list[str], root: Path = ROOT) -> str:
    """The code a fence of includes stands for, less imports of the project's own modules."""
    lines = [
        line
        for line in expand("\n".join(include_lines), root).splitlines()
        if not project_import(line, root / "snippets")
    ]
    return re.sub(r"\n{4,}", "\n\n\n", "\n".join(lines)).strip("\n")


IMPORT = re.compile(r"^(?:from\s+[\w.]+\s+import\s+[^(]+|import\s+[\w., ]+)$")


def imported_names(line: str) -> list[str]:
    """The names an import line binds: ``import a.b`` -> a; ``from a import b as c, d`` -> c, d."""
    if line.startswith("from "):
        parts = line.split(" import ", 1)[1].split(",")
    else:
        parts = line[len("import ") :].split(",")
    return [part.split(" as ")[-1].strip().split(".")[0] for part in parts]


def hoist_imports(sources: list[str]) -> tuple[str, list[str]]:
    """One imports cell for the notebook: every cell's imports, once each, the unused ones left out."""
    imports, bodies = [], []
    for source in sources:
        kept = []
        for line in source.splitlines():
            if IMPORT.match(line):
                if line not in imports:
                    imports.append(line)
            elif line.startswith(("import ", "from ")):
                raise ValueError(f"an import the notebook builder cannot move: {line!r}")
            else:
                kept.append(line)
        bodies.append(re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip("\n"))
    code = "\n".join(bodies)
    used = [
        line
        for line in imports
        if line.startswith("from __future__")
        or any(re.search(rf"\b{re.escape(name)}\b", code) for name in imported_names(line))
    ]
    future = [line for line in used if line.startswith("from __future__")]
    stdlib = [line for line in used if line not in future and line.split()[1].split(".")[0] in sys.stdlib_module_names]
    others = [line for line in used if line not in future and line not in stdlib]
    blocks = [block for block in (future, sorted(stdlib, key=_import_key), sorted(others, key=_import_key)) if block]
    return "\n\n".join("\n".join(block) for block in blocks), bodies


def _import_key(line: str) -> tuple[bool, str]:
    return (line.startswith("from "), line.split()[1])


def build(source: Path = SOURCE, root: Path = ROOT):
    """Return the notebook (an nbformat NotebookNode) that ``source`` describes; snippets from ``root``."""
    import nbformat.v4 as nbf

    text = source.read_text(encoding="utf-8")
    options = fence_options(text, source.name, {"python"}, CELL_KEYS)
    cells = []
    lines = text.splitlines()
    after = 0  # the index of the line after the last Python fence
    for fence in Page.parse(text, source.name).blocks("python"):
        prose = lines[after : fence.line - 1]
        tags = options.get(fence.line, {}).get("tags", "").split()
        prose = "\n".join(line for line in prose if not is_directive(line)).strip()
        if prose:
            cells.append(markdown_cell(prose, source.name))
        body = [line for line in fence.body.splitlines() if line.strip()]
        if not body or not all(line.lstrip().startswith("--8<--") for line in body):
            raise ValueError(f"{source.name}: a Python fence may only include snippets (--8<-- lines)")
        cell = nbf.new_code_cell(code_cell_source(body, root))
        if tags:
            cell.metadata["tags"] = tags
        cells.append(cell)
        after = fence.end
    rest = "\n".join(lines[after:]).strip()
    if rest:
        cells.append(markdown_cell(rest, source.name))

    code_cells = [cell for cell in cells if cell.cell_type == "code"]
    imports, bodies = hoist_imports([cell.source for cell in code_cells])
    for cell, body in zip(code_cells, bodies, strict=True):
        cell.source = body
    cells.insert(cells.index(code_cells[0]), nbf.new_code_cell(imports))
    notebook = nbf.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.metadata["language_info"] = {"name": "python"}
    # Stable ids keep the generated file identical from one run to the next.
    for number, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{number:02d}"
    return notebook


def render(notebook) -> str:
    import nbformat

    return nbformat.writes(notebook) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the committed notebook is current")
    args = parser.parse_args(argv)
    status = 0
    for source, notebook in [(SOURCE, NOTEBOOK), *TRANSLATED.values()]:
        try:
            wanted = render(build(source))
        except ValueError as error:  # a directive or fence the builder cannot honour (page:line)
            print(f"error: {error}", file=sys.stderr)
            return 1
        status = max(status, write_or_check(notebook, wanted, args.check, "python docs/hooks/notebook.py"))
    return status
