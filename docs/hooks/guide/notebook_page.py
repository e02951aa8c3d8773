"""Serve the notebook page with the site's own code styling, not the notebook renderer's.

mkdocs-jupyter inlines JupyterLab's whole stylesheet (about 590 KB of CSS) into the page, plus its
own copy-button script and a MathJax loader from a third-party host. The tutorial notebook has no
outputs, widgets or maths, so none of that is needed: this hook removes the inline styles and
scripts and turns each code cell into the same ``div.highlight > pre > code`` block that Material
renders for Markdown pages. The cells then get Material's colours (light and dark), its copy button
and its keyboard-reachable scrolling, and ``docs/stylesheets/extra.css`` lays out the cells.

Its headings get the anchors that the notebook's Markdown cells list (``"anchors"`` in their
metadata, from the ``{#id}`` of each heading in docs/hooks/train_mnist_notebook*.md): the renderer
derives ids from the text, which left the Chinese notebook with ``1``, ``2``, ``5`` and an empty id.
The page's table of contents gets the same anchors.

The page is left out of the search index: its prose and code are the training chapter's, which is
indexed (and links here), and its title made Material's prefix search (``no*``, ``not*`` ->
"notebook", boosted as a title) rank it first for error messages that merely contain "no" or "not".

Written against the HTML of the pinned mkdocs-jupyter; if that HTML changes shape, the build fails
here with a message instead of shipping a half-styled page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

STYLE = re.compile(r"<style\b[^>]*>.*?</style>\s*", re.S)
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>\s*", re.S)
# The renderer's copy button and the hidden copy of the cell's source it reads.
COPY_BUTTON = re.compile(
    r'<div class="zeroclipboard-container">\s*<clipboard-copy\b.*?</clipboard-copy>\s*</div>\s*', re.S
)
COPY_SOURCE = re.compile(r'<div class="clipboard-copy-txt" id="cell-\d+">.*?</div>\s*', re.S)
CODE = re.compile(r'<div class="highlight-ipynb hl-(\w+)[^"]*"><pre>(.*?)</pre></div>', re.S)
# Cell wrappers that mkdocs-jupyter makes focusable although they are not interactive.
FOCUSABLE_WRAPPER = re.compile(r'(<div class="jp-Cell-inputWrapper") tabindex="0"')
# A heading as the renderer writes it: <h2 id="1">1. 选择设备<a class="anchor-link" href="#1">¶</a></h2>
HEADING = re.compile(r'<h([1-6]) id="[^"]*">(.*?)<a class="anchor-link" href="#[^"]*">', re.S)


def notebook_anchors(notebook: Path) -> list[str]:
    """The anchors of the notebook's headings, in order (guide/notebook.py writes them)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [anchor for cell in cells for anchor in cell.get("metadata", {}).get("anchors", [])]


def set_heading_ids(html: str, anchors: list[str]) -> str:
    """The page's headings with ``anchors`` as their ids and links, in order; ValueError if the counts differ."""
    found = len(HEADING.findall(html))
    if found != len(anchors):
        raise ValueError(
            f"{found} headings on the page but {len(anchors)} anchors in the notebook: rebuild it "
            "(python docs/hooks/notebook.py)"
        )
    names = iter(anchors)

    def replace(match: re.Match) -> str:
        name = next(names)
        return f'<h{match.group(1)} id="{name}">{match.group(2)}<a class="anchor-link" href="#{name}">'

    return HEADING.sub(replace, html)


def _toc_links(links):
    for link in links:
        yield link
        yield from _toc_links(link.children)


def set_toc_ids(toc, anchors: list[str]) -> None:
    """The table of contents' links with the same anchors, in order."""
    links = list(_toc_links(toc))
    if len(links) != len(anchors):
        raise ValueError(f"{len(links)} entries in the table of contents but {len(anchors)} anchors")
    for link, anchor in zip(links, anchors, strict=True):
        link.id = anchor


def slim_notebook_html(html: str) -> str:
    """The notebook page's HTML without inline CSS and scripts, its code cells as Material code blocks."""
    if 'class="jupyter-wrapper"' not in html:
        raise ValueError("not the HTML of mkdocs-jupyter (no jupyter-wrapper div)")
    numbers = iter(range(1, 10_000))
    # Each <pre> gets an id of its own: Material's copy button targets "#<id> > code", and without
    # one it derives the id from the cell's "cell-id=..." attribute, whose "=" breaks that selector
    # (the button then copied nothing).
    html, code_cells = CODE.subn(
        lambda m: (
            f'<div class="language-{m.group(1)} highlight">'
            f'<pre id="__code_notebook_{next(numbers)}"><code>{m.group(2).removeprefix("<span></span>")}</code></pre></div>'
        ),
        html,
    )
    if code_cells == 0:
        raise ValueError("no code cell found in the notebook's HTML: has mkdocs-jupyter's output changed?")
    html = COPY_BUTTON.sub("", html)
    html = COPY_SOURCE.sub("", html)
    html = STYLE.sub("", html)
    html = SCRIPT.sub("", html)
    html = FOCUSABLE_WRAPPER.sub(r"\1", html)
    for leftover in ("<style", "<script", "clipboard-copy", "highlight-ipynb"):
        if leftover in html:
            raise ValueError(f"the notebook's HTML still holds {leftover!r}: has mkdocs-jupyter's output changed?")
    return html


def on_page_content(html, page, config, files):  # MkDocs hook signature
    if not page.file.src_uri.endswith(".ipynb"):
        return html
    from mkdocs.exceptions import PluginError

    page.meta.setdefault("search", {})["exclude"] = True
    try:
        anchors = notebook_anchors(Path(page.file.abs_src_path))
        set_toc_ids(page.toc, anchors)
        return set_heading_ids(slim_notebook_html(html), anchors)
    except ValueError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
