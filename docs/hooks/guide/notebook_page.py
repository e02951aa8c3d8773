"""Serve the notebook page with the site's own code styling, not the notebook renderer's.

mkdocs-jupyter inlines JupyterLab's whole stylesheet (about 590 KB of CSS) into the page, plus its
own copy-button script and a MathJax loader from a third-party host. The tutorial notebook has no
outputs, widgets or maths, so none of that is needed: this hook removes the inline styles and
scripts and turns each code cell into the same ``div.highlight > pre > code`` block that Material
renders for Markdown pages. The cells then get Material's colours (light and dark), its copy button
and its keyboard-reachable scrolling, and ``docs/stylesheets/extra.css`` lays out the cells.

The page is left out of the search index: its prose and code are the training chapter's, which is
indexed (and links here), and its title made Material's prefix search (``no*``, ``not*`` ->
"notebook", boosted as a title) rank it first for error messages that merely contain "no" or "not".

Written against the HTML of the pinned mkdocs-jupyter; if that HTML changes shape, the build fails
here with a message instead of shipping a half-styled page.
"""

from __future__ import annotations

import re

STYLE = re.compile(r"<style\b[^>]*>.*?</style>\s*", re.S)
SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>\s*", re.S)
# The renderer's copy button and the hidden copy of the cell's source it reads.
COPY_BUTTON = re.compile(r'<div class="zeroclipboard-container">\s*<clipboard-copy\b.*?</clipboard-copy>\s*</div>\s*', re.S)
COPY_SOURCE = re.compile(r'<div class="clipboard-copy-txt" id="cell-\d+">.*?</div>\s*', re.S)
CODE = re.compile(r'<div class="highlight-ipynb hl-(\w+)[^"]*"><pre>(.*?)</pre></div>', re.S)
# Cell wrappers that mkdocs-jupyter makes focusable although they are not interactive.
FOCUSABLE_WRAPPER = re.compile(r'(<div class="jp-Cell-inputWrapper") tabindex="0"')


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
        return slim_notebook_html(html)
    except ValueError as error:
        raise PluginError(f"{page.file.src_uri}: {error}") from None
