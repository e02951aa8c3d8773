"""Each code block's copy button is in the page as built, so Material can set up code blocks lazily.

Material adds a copy button to every code block when the page loads, and measures each block after
adding it (is it wider than the screen?). On troubleshooting/ that was 41 blocks: 41 forced layouts in
one task of 920 ms on Lighthouse's throttled phone, most of the page's blocking time (issue 23). Its
``content.lazy`` feature (mkdocs.yml; "Mount code block lazily" in Material's
src/templates/assets/javascripts/components/content/code/_/index.ts) sets up a block only when it
scrolls into view: that task fell to 120 ms. But a block set up late gets its copy button late, and a
reader moving with Tab skipped the buttons of blocks below the screen (27 of 37 reached on
troubleshooting/, against 37).

So the buttons are written here, as Material writes them (``nav.md-code__nav`` before the ``code``, a
``button.md-code__button`` with ``data-clipboard-target``), with the bar's accessible name in the page's
language, and mkdocs.yml turns Material's own button off (``content.code.copy``). Material copies
through one listener on the whole document for any ``[data-clipboard-target]``, whatever made the
button, and shows its "Copied to clipboard" (in the page's language) as for its own buttons.

The target is the ``code`` element's own id: Material renames the ``pre`` when it sets the block up
(``__code_`` + the nearest id), so an id on the ``pre`` would go stale.

Each ``code`` also starts focusable (``tabindex="0"``), as Material makes a block wider than the screen
so that arrow keys scroll it: a block not set up yet cannot say whether it is wider (axe-core flagged
the wide ones below the screen), and when it scrolls into view Material keeps the tabindex on a wide
block and removes it from the others. A reader who reaches the block with Tab lands on its copy
button first, which brings it into view.
"""

from __future__ import annotations

import html
import itertools
import json
import re

CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.S)
LANG = re.compile(r'<html\b[^>]*\blang="([^"]+)"')
# A code block as the page has it: <pre ...>, pymdownx's empty <span></span>, <code ...>.
BLOCK = re.compile(r"(<pre\b[^>]*>(?:<span></span>)?)<code\b([^>]*)>")
FILENAME = re.compile(r'<span class="filename">(.*?)</span>\s*$', re.S)


def bar_name(number: int, title: str | None, chinese: bool) -> str:
    """The accessible name of block ``number``'s button bar (many <nav>s on a page need their own)."""
    if chinese:
        return f"代码块 {number}" + (f"（{title}）" if title else "") + " 的操作"
    return f"Code block {number}" + (f" ({title})" if title else "") + " actions"


def with_copy_buttons(output: str) -> str:
    """The page's HTML with a copy button in every code block (see the module's docstring)."""
    config = CONFIG.search(output)
    if config is None:
        raise RuntimeError("code_buttons: the page has no Material __config: the theme changed its template")
    copy = json.loads(config.group(1))["translations"]["clipboard.copy"]
    lang = LANG.search(output)
    chinese = bool(lang) and lang.group(1).startswith("zh")
    numbers = itertools.count(1)

    def add(match: re.Match) -> str:
        pre, code_attributes = match.groups()
        if " id=" in code_attributes:
            raise RuntimeError(f"code_buttons: a <code> has an id already: {match.group(0)[:80]}")
        number = next(numbers)
        before = output[max(0, match.start() - 300) : match.start()]
        title = FILENAME.search(before.rsplit("<div", 1)[-1])
        title = html.unescape(title.group(1)) if title else None
        target = f"__copy_{number}"
        return (
            f'{pre}<nav class="md-code__nav" aria-label="{html.escape(bar_name(number, title, chinese))}">'
            f'<button class="md-code__button" title="{html.escape(copy)}" '
            f'data-clipboard-target="#{target}" data-md-type="copy"></button></nav>'
            f'<code id="{target}" tabindex="0"{code_attributes}>'
        )

    return BLOCK.sub(add, output)


def on_post_page(output, page, config):  # MkDocs hook signature
    return with_copy_buttons(output)
