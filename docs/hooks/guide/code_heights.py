"""Each code block's line count in the page, so the browser's estimate of a block it skips is its height.

extra.css lets the browser skip code blocks that are off screen (``content-visibility: auto``) and
lay them out with an estimated height until they come near. With one estimate for every block (12em),
verification/ was estimated at 6,027 px on a phone and is 13,964 px: a link to a heading landed
thousands of pixels off (docs/javascripts/a11y.js corrects that), and while Lighthouse's accessibility
audit ran, blocks near the footer rendered at their real height and moved it, so axe-core measured the
footer's text over a code block's background (contrast 1.06:1 on four pages; issue 23).

This hook writes each block's number of lines as ``--lines`` (and ``--title: 1`` when the block has a
file name above it) on its ``div.highlight``; extra.css turns them into the estimate. A plain-text block
wraps (extra.css), so it also carries the lines it wraps into: ``--lines-wide`` at a desktop width and
``--lines-phone`` on a phone, counted at COLUMNS characters a line (a wide East Asian character counts
two). Without them, one section of long pytorch-directml messages made zh/troubleshooting/ 5 % shorter
on a phone before its blocks rendered than after (2026-12-04).
"""

from __future__ import annotations

import html
import math
import re
import unicodedata

BLOCK = re.compile(
    r'<div((?: [a-z-]+(?:="[^"]*")?)*? class="language-[a-z0-9]+ highlight"[^>]*)>'
    r'(<span class="filename">.*?</span>)?(<pre\b.*?</pre>)',
    re.S,
)
CODE = re.compile(r"<code\b[^>]*>(.*?)</code>", re.S)
TAG = re.compile(r"<[^>]+>")


def lines(code_html: str) -> int:
    """The number of lines a block shows (its text without the final newline)."""
    return html.unescape(TAG.sub("", code_html)).rstrip("\n").count("\n") + 1


# Characters of the code font in a plain-text block's line, measured in Chromium (2026-12-04): 78 at 1280 px,
# 44 at 412 px, 39 at 375 px, 38 at 360 px; the phone's count is a phone of about 375 px.
COLUMNS = {"wide": 78, "phone": 40}
WRAPS = ' class="language-text highlight"'


def columns(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def wrapped(code_html: str, width: int) -> int:
    """The number of lines a wrapping block shows at ``width`` characters a line."""
    text = html.unescape(TAG.sub("", code_html)).rstrip("\n")
    return sum(max(1, math.ceil(columns(line) / width)) for line in text.split("\n"))


def with_line_counts(page_html: str) -> str:
    def add(match: re.Match) -> str:
        attributes, title, pre = match.groups()
        code = CODE.search(pre)
        if code is None or " style=" in attributes:
            return match.group(0)
        style = f"--lines: {lines(code.group(1))}" + ("; --title: 1" if title else "")
        if WRAPS in attributes:
            style += "".join(f"; --lines-{name}: {wrapped(code.group(1), n)}" for name, n in COLUMNS.items())
        return f'<div{attributes} style="{style}">{title or ""}{pre}'

    return BLOCK.sub(add, page_html)


def on_page_content(html_text, page, config, files):  # MkDocs hook signature
    return with_line_counts(html_text)
