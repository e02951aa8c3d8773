"""Weigh pages in the site search: the troubleshooting page up, the contributors' pages down.

A reader pastes a whole error message into the search box. Material's search does not normalise by
length, so a long section of the training chapter that merely repeats "not", "device" and "torch" could
outrank the short section that holds the message word for word. Boosting the page that exists to answer
error messages puts that section first (tests/site/test_site_browser.py checks it for every message on the
page). The contributors' pages (contributing/: the GPU runner's set-up, how the guide is tested) are
long and full of set-up words (PowerShell, Python, pip, PyCharm, runner), so they came first for
readers' own set-up errors; they are weighed down, still found by a search for what only they hold.
tests/site/test_search_eval.py measures the weights on messages readers pasted in public threads. Set here
rather than in each page's front matter so the pages stay plain Markdown.

What is indexed: the Python scripts shown on the pages are left out of the search index (Material skips
an element marked data-search-exclude). A section that shows a whole script (find_cpu_fallbacks.py under
"An operator falls back to the CPU", same_device.py under "unbox expects ...") held every word a pasted
message has, import, torch, device, error, module, and came first for messages it has nothing to do
with. Error messages (text blocks), commands (PowerShell, cmd) and the prose that names each function
stay searchable.
"""

import re

BOOSTS = {"troubleshooting.md": 2}
# Contributors' pages and the chooser (a tool: its answers are generated from the GPU table, and the
# rest of its prose names every GPU and path) are found by their own words, not by a reader's message.
PREFIX_BOOSTS = {"contributing/": 0.3, "choose": 0.5}


def boost_for(src_uri: str) -> float | None:
    """The search boost of a page (its English source path), or None for the default."""
    if src_uri in BOOSTS:
        return BOOSTS[src_uri]
    return next((b for prefix, b in PREFIX_BOOSTS.items() if src_uri.startswith(prefix)), None)


SCRIPT_BLOCK = re.compile(r'<div class="language-python highlight"')


def on_page_content(html, page, config, files):  # MkDocs hook signature
    """The page's HTML with its Python blocks marked data-search-exclude (they stay on the page)."""
    return SCRIPT_BLOCK.sub('<div data-search-exclude class="language-python highlight"', html)


def on_page_markdown(markdown, page, config, files):  # MkDocs hook signature
    # The Chinese edition's page (troubleshooting.zh.md) gets the same boost as the English one.
    boost = boost_for(page.file.src_uri.replace(".zh.md", ".md"))
    if boost is not None:
        page.meta.setdefault("search", {})["boost"] = boost
    return markdown
