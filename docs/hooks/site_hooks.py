"""The site's MkDocs hooks (mkdocs.yml ``hooks:``), all from the package docs/hooks/guide/.

MkDocs puts this file's folder on sys.path while it loads it, so ``guide`` imports; each event keeps
the priority its module gives it (guide.i18n runs after mkdocs-static-i18n's on_files).
"""

from mkdocs.plugins import event_priority

from guide import checked, code_buttons, code_heights, code_spans, gpu_pages, i18n, pins, search_boost
from guide.i18n import on_files, on_startup
from guide import notebook_page
from guide.not_found import on_post_template

__all__ = ["on_files", "on_page_content", "on_page_markdown", "on_post_build", "on_post_page", "on_post_template",
           "on_startup"]


def on_page_markdown(markdown, page, config, files):
    """{{ gpus.NAME }} rendered from the one table of GPUs (it may bring the set-up page's commands, so it
    runs first), then {{ pin.NAME }} and {{ checked.NAME }} replaced (an unknown NAME fails the build); the
    search boost."""
    markdown = gpu_pages.on_page_markdown(markdown, page, config, files)
    markdown = pins.on_page_markdown(markdown, page, config, files)
    markdown = checked.on_page_markdown(markdown, page, config, files)
    return search_boost.on_page_markdown(markdown, page, config, files)


def on_page_content(html, page, config, files):
    """The notebook page slimmed (guide.notebook_page); Python blocks kept out of the search index;
    highlighted code in fewer elements, the same colours (guide.code_spans); each block's line count for
    the browser's estimate of its height (guide.code_heights)."""
    html = notebook_page.on_page_content(html, page, config, files)
    html = search_boost.on_page_content(html, page, config, files)
    html = code_spans.on_page_content(html, page, config, files)
    return code_heights.on_page_content(html, page, config, files)


def on_post_page(output, page, config):
    """Every code block's copy button written into the page (guide.code_buttons)."""
    return code_buttons.on_post_page(output, page, config)


@event_priority(10)  # guide.i18n's: before mkdocs-jupyter's on_post_build (0)
def on_post_build(config):
    """Every notebook's cached rendering kept (guide.i18n); the scripts' archive that the chooser links,
    guide-scripts.zip (guide.gpu_pages)."""
    i18n.on_post_build(config)
    gpu_pages.on_post_build(config)
