"""The site's MkDocs hooks (mkdocs.yml ``hooks:``), all from the package docs/hooks/guide/.

MkDocs puts this file's folder on sys.path while it loads it, so ``guide`` imports; each event keeps
the priority its module gives it (guide.i18n runs after mkdocs-static-i18n's on_files).
"""

from guide import checked, pins, search_boost
from guide.i18n import on_files, on_post_build, on_startup
from guide import notebook_page

__all__ = ["on_files", "on_page_content", "on_page_markdown", "on_post_build", "on_startup"]


def on_page_markdown(markdown, page, config, files):
    """{{ pin.NAME }} and {{ checked.NAME }} replaced (an unknown NAME fails the build); the search boost."""
    markdown = pins.on_page_markdown(markdown, page, config, files)
    markdown = checked.on_page_markdown(markdown, page, config, files)
    return search_boost.on_page_markdown(markdown, page, config, files)


def on_page_content(html, page, config, files):
    """The notebook page slimmed (guide.notebook_page); Python blocks kept out of the search index."""
    html = notebook_page.on_page_content(html, page, config, files)
    return search_boost.on_page_content(html, page, config, files)
