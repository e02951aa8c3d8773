"""Chinese sentences without stray spaces: a line break of the Markdown source between two Chinese
characters is removed from the built page.

The Chinese pages are written with hard-wrapped lines, like the English ones. HTML turns each line break
inside a paragraph into a space, and Chromium (Chrome, Edge and most browsers used in mainland China)
draws that space between two Han characters: "接着， 一个脚本" (the Chinese review of 2026-12 measured 294
of 319 wraps on the 15 zh pages showing as a space). CSS Text 3 asks browsers to drop such a break;
Chromium does not. So the build drops it: in a Chinese page's HTML, whitespace holding a line break goes
when the visible character before it and the one after it are both CJK (a Han character or Chinese
punctuation, full-width forms included), or when the one before is closing full-width punctuation (，。；：）”…)
or the one after an opening one (（“…), whatever the other side (then typed spaces go too: "解决： 按"),
looked up across inline tags (``<a>``, ``<strong>``, ``<code>``
counts as Latin text). A break next to a Latin word stays a space ("torch-directml\n只有" reads
"torch-directml 只有", as Chinese typesetting wants). Code (``pre``, ``code``), scripts and styles are
left as they are. The search index is built from the same HTML, so it gets the joined sentences too.

tests/guide/test_cjk_join.py checks the joining; tests/site/test_site_build.py checks the built zh pages.
"""

from __future__ import annotations

import re

# Han (with extensions and compatibility ideographs), CJK punctuation, kana/bopomofo, CJK compatibility
# forms, full-width forms, and the quotes, dash and ellipsis Chinese text uses (“” ‘’ —— ……).
CJK = (
    "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\u2018\u2019\u201c\u201d\u2014\u2026"
)
CJK_CHAR = re.compile(f"[{CJK}]")
# Full-width punctuation carries its own spacing: no break after a closing or pausing mark, none before an
# opening one, whatever stands on the other side ("2026-01-28；legacy", "torch-directml（本指南）").
CLOSING = re.compile("[，。；：、？！）」』》〉”’]")
OPENING = re.compile("[（「『《〈“‘]")
TOKEN = re.compile(r"<!--.*?-->|<[^>]*>|[^<]+", re.S)
# Elements whose text is kept exactly: what is inside them is code, not a sentence.
VERBATIM = {"pre", "code", "script", "style", "textarea", "kbd", "samp"}
# Inline elements: a sentence runs on through them. Any other tag ends the text on its side.
INLINE = {"a", "strong", "em", "b", "i", "span", "abbr", "sup", "sub", "mark", "small", "del", "ins", "u"}
TAG_NAME = re.compile(r"</?([a-zA-Z][a-zA-Z0-9-]*)")
# A line break with the blanks around it, or blanks alone (a typed space: only the full-width rule removes it).
BREAK = re.compile(r"[ \t]*\n\s*|[ \t]+")
# A verbatim element's text stands in as this: Latin, so a break next to inline code stays a space.
LATIN = "a"


def _tag(token: str) -> tuple[str, bool] | None:
    """(name, closing) of a tag token, or None for text and comments."""
    match = TAG_NAME.match(token)
    return (match.group(1).lower(), token.startswith("</")) if match else None


def join_lines(page_html: str) -> str:
    """``page_html`` with every line break between two CJK characters (outside code) removed."""
    tokens = TOKEN.findall(page_html)
    # The visible text around each token, as the reader sees it: None where a block boundary cuts it.
    visible: list[str | None] = []
    depth = 0
    for token in tokens:
        tag = _tag(token)
        if tag is None:
            visible.append(
                LATIN if depth and not token.startswith("<!--") else ("" if token.startswith("<!--") else token)
            )
            continue
        name, closing = tag
        if name in VERBATIM and not token.endswith("/>"):
            depth += -1 if closing else 1
            depth = max(depth, 0)
            visible.append("")
        else:
            visible.append("" if name in INLINE else None)

    def neighbour(index: int, step: int) -> str:
        """The first visible character before (step -1) or after (step 1) token ``index``."""
        index += step
        while 0 <= index < len(tokens):
            text = visible[index]
            if text is None:
                return ""
            stripped = text.strip()
            if stripped:
                return stripped[-1] if step < 0 else stripped[0]
            index += step
        return ""

    out = []
    depth = 0
    for index, token in enumerate(tokens):
        tag = _tag(token)
        if tag is not None:
            name, closing = tag
            if name in VERBATIM and not token.endswith("/>"):
                depth = max(depth + (-1 if closing else 1), 0)
            out.append(token)
            continue
        if depth or token.startswith("<!--") or not BREAK.search(token):
            out.append(token)
            continue
        out.append(_join_text(token, lambda i=index: neighbour(i, -1), lambda i=index: neighbour(i, 1)))
    return "".join(out)


def _join_text(text: str, before, after) -> str:
    """One text token with its CJK-to-CJK line breaks, and the blanks after closing (before opening)
    full-width punctuation, removed; ``before``/``after`` give the visible character beyond its ends."""

    def replace(match: re.Match) -> str:
        start, end = match.start(), match.end()
        left = text[:start].rstrip()
        right = text[end:].lstrip()
        prev = left[-1] if left else before()
        nxt = right[0] if right else after()
        if not (prev and nxt):
            return match.group(0)
        if CLOSING.match(prev) or OPENING.match(nxt):
            return ""
        if "\n" in match.group(0) and CJK_CHAR.match(prev) and CJK_CHAR.match(nxt):
            return ""
        return match.group(0)

    return BREAK.sub(replace, text)


def is_chinese(page) -> bool:
    """A page of the Chinese edition (PAGE.zh.md, or the notebook's .zh.ipynb)."""
    return re.search(r"\.zh\.[a-z]+$", page.file.src_uri) is not None


def on_page_content(html, page, config, files):  # MkDocs hook signature
    """A Chinese page's HTML with its in-sentence line breaks removed."""
    return join_lines(html) if is_chinese(page) else html
