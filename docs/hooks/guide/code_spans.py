"""Highlighted code in fewer elements, with the same colours: token spans that add no colour unwrapped.

Pygments wraps every token of a block in its own ``<span class="...">``: a name, a dot, a space.
On the code-heavy pages those spans are most of the page (2,711 of 3,929 elements on
troubleshooting/, 8,259 of 8,687 on verification/), and the browser styles and lays out each one as
Material builds the page; Lighthouse counted that as blocking time on a phone (issue 23). Two kinds
of span change nothing a reader sees:

- a span whose class no stylesheet colours (``w``, whitespace; ``sa``, the ``f`` of an f-string) or
  whose colour is the code's own text colour (``n``, a name: Material gives it
  ``--md-code-hl-name-color: var(--md-code-fg-color)``): its text is written bare;
- a span next to one that the stylesheets style the same way, with at most white space between them
  (the lines of a docstring, ``).``): the two become one span.

Which classes those are is read from the stylesheets the site ships (Material's own and
docs/stylesheets/extra.css), not listed here, so a theme update that colours a new class keeps its
spans. The text of every block is unchanged, character for character, so the copy button, the search
index and the tests that run the blocks see what they saw; tests/guide/test_code_spans.py checks the
colours of every character in the browser.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pygments.token import STANDARD_TYPES

# The short class of every Pygments token type ("n", "p", "s2" ...); other classes are not touched.
TOKEN_CLASSES = frozenset(c for c in STANDARD_TYPES.values() if c)
# A token span with only text inside, as Pygments writes it.
TOKEN_SPAN = re.compile(r'<span class="([a-z0-9]+)">([^<]*)</span>')
BLOCK = re.compile(r"(<pre\b[^>]*>)(.*?)(</pre>)", re.S)
# ".highlight .n, .highlight .kc{color:var(--md-code-hl-name-color)}" -> its selectors and declarations.
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
HIGHLIGHT_CLASS = re.compile(r"^\.highlight\s+(?:span)?\.([a-z0-9]+)$")
NAME_IS_TEXT = "--md-code-hl-name-color:var(--md-code-fg-color)"
# Classes with a background (a diff's added and removed lines) show their white space: never widened.
BACKGROUND = re.compile(r"background|border|box-shadow|outline|padding|margin|display")


def theme_css() -> str:
    """Material's main stylesheet as installed (the one the build copies into the site)."""
    import material

    sheets = sorted((Path(material.__file__).parent / "templates/assets/stylesheets").glob("main.*.min.css"))
    if not sheets:
        raise RuntimeError("code_spans: Material's main.*.min.css not found; the theme changed its layout")
    return sheets[0].read_text(encoding="utf-8")


def token_styles(css: str) -> dict[str, tuple[str, ...]]:
    """Each token class a ``.highlight .X`` rule styles, with all its declarations in order."""
    styles: dict[str, list[str]] = {}
    for selectors, body in RULE.findall(re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        for selector in selectors.split(","):
            match = HIGHLIGHT_CLASS.match(" ".join(selector.split()))
            if match and match.group(1) in TOKEN_CLASSES:
                styles.setdefault(match.group(1), []).append(" ".join(body.split()))
    return {cls: tuple(decls) for cls, decls in styles.items()}


@cache
def site_styles(extra_css: str) -> tuple[frozenset[str], dict[str, str]]:
    """(the token classes whose spans add nothing, each other class's group name) for these sheets.

    Two classes are one group when the stylesheets give them the same declarations; spans of one
    group may merge. A class no sheet styles is plain; so is ``n`` while Material colours names with
    the code's text colour and extra.css does not set a colour of its own for them.
    """
    theme = theme_css()
    styles = token_styles(theme)
    for cls, decls in token_styles(extra_css).items():
        styles[cls] = styles.get(cls, ()) + decls
    plain = set(TOKEN_CLASSES - styles.keys())
    name_decls = styles.get("n", ())
    if (
        NAME_IS_TEXT in theme.replace(" ", "")
        and "--md-code-hl-name-color" not in extra_css
        and all(d.replace(" ", "") == "color:var(--md-code-hl-name-color)" for d in name_decls)
    ):
        plain.add("n")
    groups: dict[tuple[str, ...], str] = {}
    group_of = {}
    for cls in sorted(styles.keys() - plain):
        if not any(BACKGROUND.search(d) for d in styles[cls]):
            group_of[cls] = groups.setdefault(styles[cls], cls)
    return frozenset(plain), group_of


def compact_block(code: str, plain: frozenset[str], group_of: dict[str, str]) -> str:
    """One ``<pre>``'s inside with plain spans unwrapped and neighbouring spans of a group merged."""
    code = TOKEN_SPAN.sub(lambda m: m.group(2) if m.group(1) in plain else m.group(0), code)
    out: list[str] = []
    open_group = None  # the group of the span that ends ``out``, if ``out`` ends with one
    pos = 0
    for match in TOKEN_SPAN.finditer(code):
        cls, text = match.groups()
        between = code[pos : match.start()]
        pos = match.end()
        group = group_of.get(cls)
        if group is not None and group == open_group and not between.strip():
            out[-1] = out[-1][: -len("</span>")] + between + text + "</span>"
            continue
        out.append(between + match.group(0))
        open_group = group
    out.append(code[pos:])
    return "".join(out)


def compact(html: str, extra_css: str) -> str:
    """A page's HTML with every code block compacted (see the module's docstring)."""
    plain, group_of = site_styles(extra_css)
    return BLOCK.sub(lambda m: m.group(1) + compact_block(m.group(2), plain, group_of) + m.group(3), html)


def extra_stylesheets(docs_dir, sheets) -> str:
    """The text of the site's own stylesheets (mkdocs.yml ``extra_css``, under docs_dir), as one string."""
    return "\n".join((Path(docs_dir) / str(sheet)).read_text(encoding="utf-8") for sheet in sheets)


def on_page_content(html, page, config, files):  # MkDocs hook signature
    return compact(html, extra_stylesheets(config["docs_dir"], config["extra_css"]))
