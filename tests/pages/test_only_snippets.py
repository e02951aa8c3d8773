"""Python on the site comes only from snippets/, and every snippet is on the site."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from guide.blocks import PYTHON_LANGUAGES
from guide.page import Page
from guide_harness import (
    DOCS,
    INCLUDE_LINE,
    ROOT,
    SNIPPETS,
    included_files,
    page_source,
    pages,
)

INCLUDE_ONLY = re.compile(r"^;?-+8<-+")


def inline_python(text: str) -> list[int]:
    """Lines of Python fences that hold anything but --8<-- includes."""
    bad = []
    for fence in Page.parse(text).blocks(*PYTHON_LANGUAGES):
        body = [line.strip() for line in fence.body.splitlines() if line.strip()]
        if not body or not all(INCLUDE_ONLY.match(line) for line in body):
            bad.append(fence.line)
    return bad


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_python_fences_only_include_snippets(page):
    bad = inline_python(page.read_text(encoding="utf-8"))
    assert not bad, f"{page.relative_to(ROOT)} has inline Python at line(s) {bad}: move it to snippets/ and include it"


@pytest.mark.parametrize(
    "text, expected",
    [
        ('```python\n--8<-- "snippets/a.py"\n```\n', []),
        ('```python title="a.py"\n--8<-- "snippets/a.py:main"\n```\n', []),
        ("```python\nprint(1)\n```\n", [1]),
        ('text\n\n    ```py\n    --8<-- "snippets/a.py"\n    x = 1\n    ```\n', [3]),
        ("~~~python\nimport torch\n~~~\n", [1]),
        ("```{.python .copy}\nimport torch\n```\n", [1]),
        ("```python\n```\n", [1]),
        ("```text\nimport torch\n```\n", []),
    ],
)
def test_inline_python_detector(text, expected):
    assert inline_python(text) == expected


def test_no_orphan_snippets():
    included = set()
    for page in pages():
        included |= included_files(page_source(page))
    snippet_files = {p.resolve() for p in SNIPPETS.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    orphans = sorted(p.relative_to(ROOT).as_posix() for p in snippet_files - included)
    assert not orphans, f"snippets included by no page: {orphans}"


def test_every_include_exists():
    for page in pages():
        for path in included_files(page_source(page)):
            assert path.is_file(), f"{page.relative_to(ROOT)} includes missing {path}"


SECTION_START = re.compile(r"^\s*#\s*-+8<-+\s*\[start:(\w+)\]", re.M)
NOTEBOOK_SOURCE = DOCS / "hooks" / "train_mnist_notebook.md"  # the notebook page's source


def included_sections(text: str) -> set[tuple[Path, str]]:
    """(file, section) for each ``--8<-- "FILE:section"`` line of ``text``."""
    found = set()
    for line in text.splitlines():
        match = INCLUDE_LINE.match(line)
        target = match and next(g for g in match.groups() if g)
        if target and ":" in target:
            path, _, section = target.partition(":")
            found.add(((ROOT / path).resolve(), section))
    return found


def unused_sections(sources: list[str]) -> list[str]:
    included = set().union(*(included_sections(text) for text in sources))
    return sorted(
        f"{path.relative_to(ROOT).as_posix()}:{name}"
        for path in SNIPPETS.rglob("*.py")
        for name in SECTION_START.findall(path.read_text(encoding="utf-8"))
        if (path.resolve(), name) not in included
    )


def test_every_section_is_included_by_a_page():
    sources = [page_source(page) for page in pages()] + [NOTEBOOK_SOURCE.read_text(encoding="utf-8")]
    unused = unused_sections(sources)
    assert not unused, f"# --8<-- [start:x] sections included by no page (remove the markers): {unused}"


def test_unused_section_detector():
    page = '```python\n--8<-- "snippets/train_mnist.py:train"\n```\n'
    unused = unused_sections([page])
    assert "snippets/train_mnist.py:train" not in unused
    assert "snippets/train_mnist.py:evaluate" in unused
