"""The site's pages, both editions: which there are, their language, their text as MkDocs reads it."""

from __future__ import annotations

import re
from pathlib import Path

from guide import DOCS, ROOT, checked, pins

# The Chinese edition: docs/PAGE.zh.md beside docs/PAGE.md (mkdocs-static-i18n, suffix layout, mkdocs.yml).
TRANSLATIONS = ("zh",)
INCLUDE_LINE = re.compile(r"""^\s*;?-+8<-+\s*(?:"([^"]+)"|'([^']+)'|(\S+))\s*$""")


def pages() -> list[Path]:
    """Every page of both editions: docs/PAGE.md (English) and docs/PAGE.zh.md (Chinese)."""
    return sorted(p for p in DOCS.rglob("*.md") if "hooks" not in p.relative_to(DOCS).parts)


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
    """The page as MkDocs hands it to Markdown: after the {{ pin.X }} and {{ checked.X }} hooks."""
    return checked.expand_checked(pins.expand_pins(page.read_text(encoding="utf-8")))


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
