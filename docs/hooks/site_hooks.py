"""The site's MkDocs hooks (mkdocs.yml ``hooks:``), all from the package docs/hooks/guide/.

MkDocs puts this file's folder on sys.path while it loads it, so ``guide`` imports; each event keeps
the priority its module gives it (guide.i18n runs after mkdocs-static-i18n's on_files).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from mkdocs.plugins import event_priority

from guide import (
    cjk_join,
    code_buttons,
    code_heights,
    code_spans,
    gpu_pages,
    i18n,
    macros,
    notebook_page,
    runs,
    search_boost,
)
from guide.i18n import on_files
from guide.not_found import on_post_template

if TYPE_CHECKING:  # the hooks' types, as Material's own hooks give them
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page

__all__ = [
    "on_config",
    "on_files",
    "on_page_content",
    "on_page_markdown",
    "on_post_build",
    "on_post_page",
    "on_post_template",
    "on_startup",
]

# Material's own notice (material/templates/__init__.py in mkdocs-material 9.8.2: "Material for MkDocs reaches
# end of life on May 5, 2027", "Zensical is its maintained successor") shows only when the command is
# `mkdocs` and NO_MKDOCS_2_WARNING is unset; this line shows in every build. What a move needs, as measured
# here: docs/contributing/testing.md#material-end-of-life.
END_OF_LIFE = "Material for MkDocs reaches end of life on 2027-05-05; Zensical is its successor (see testing.md)"
log = logging.getLogger("mkdocs.hooks.site_hooks")


def on_startup(command: str, dirty: bool) -> None:
    """Material's end of life, said once per build or serve; then guide.i18n's start (jieba quiet)."""
    log.info(END_OF_LIFE)
    i18n.on_startup(command, dirty)


@event_priority(100)  # before Material's search plugin loads jieba's dictionary (its on_config, priority 0)
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """jieba's dictionary cache named after the dictionary, so that no other program's cache is read (guide.i18n)."""
    return i18n.on_config(config)


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Every {{ pin.X }}, {{ checked.X }} and {{ gpus.X ARG }} replaced through one grammar (guide.macros; an
    unknown namespace or name fails the build with the page and line); the search boost."""
    markdown = macros.on_page_markdown(markdown, page, config, files)
    markdown = runs.on_page_markdown(markdown, page, config, files)  # <!-- runs.table -->, assets/runs.json
    return search_boost.on_page_markdown(markdown, page, config, files)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The notebook page slimmed (guide.notebook_page); Python blocks kept out of the search index;
    highlighted code in fewer elements, the same colours (guide.code_spans); each block's line count for
    the browser's estimate of its height (guide.code_heights); a Chinese page's line breaks inside a
    sentence removed, so that the browser draws no space between two Chinese characters (guide.cjk_join)."""
    html = notebook_page.on_page_content(html, page, config, files)
    html = cjk_join.on_page_content(html, page, config, files)
    html = i18n.on_page_content(html, page, config, files)  # heading links titled in Chinese
    html = search_boost.on_page_content(html, page, config, files)
    html = code_spans.on_page_content(html, page, config, files)
    return code_heights.on_page_content(html, page, config, files)


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """Every code block's copy button written into the page (guide.code_buttons)."""
    return code_buttons.on_post_page(output, page, config)


@event_priority(10)  # guide.i18n's: before mkdocs-jupyter's on_post_build (0)
def on_post_build(config: MkDocsConfig) -> None:
    """Every notebook's cached rendering kept (guide.i18n); the scripts' archive that the chooser links,
    guide-scripts.zip, and the GPU table's names for the site search, gpus.json (guide.gpu_pages)."""
    i18n.on_post_build(config)
    gpu_pages.on_post_build(config)
