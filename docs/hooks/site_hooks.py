"""The site's MkDocs hooks (mkdocs.yml ``hooks:``), all from the package docs/hooks/guide/.

MkDocs puts this file's folder on sys.path while it loads it, so ``guide`` imports; each event keeps
the priority its module gives it (guide.i18n runs after mkdocs-static-i18n's on_files).
"""

from guide import pins, search_boost
from guide.i18n import on_files, on_post_build, on_startup
from guide.not_found import on_post_template
from guide.notebook_page import on_page_content

__all__ = ["on_files", "on_page_content", "on_page_markdown", "on_post_build", "on_post_template", "on_startup"]


def on_page_markdown(markdown, page, config, files):
    """{{ pin.NAME }} replaced (an unknown NAME fails the build); the troubleshooting page's search boost."""
    markdown = pins.on_page_markdown(markdown, page, config, files)
    return search_boost.on_page_markdown(markdown, page, config, files)
