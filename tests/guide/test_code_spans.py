"""Highlighted code in fewer elements (docs/hooks/guide/code_spans.py): the same text, the same colours.

The hook unwraps token spans that add no colour and merges neighbours styled alike. These tests check
what it may not change: every character of every code block on the site, in both colour schemes, keeps
its colour, weight, style and background in the browser; the text is unchanged; and the built pages
carry the fewer elements it exists for.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

from guide import DOCS, code_spans
from guide.config import mkdocs_config

EXTRA_CSS = code_spans.extra_stylesheets(DOCS, mkdocs_config()["extra_css"])
BLOCK = re.compile(
    r'<div[^>]*class="language-([a-z0-9]+) highlight"[^>]*>(?:<span class="filename">.*?</span>)?'
    r"<pre[^>]*>(?:<span></span>)?(?:<nav .*?</nav>)?<code[^>]*>(.*?)</code></pre>",
    re.S,
)
TAG = re.compile(r"<[^>]+>")


def compact(raw: str) -> str:
    plain, group_of = code_spans.site_styles(EXTRA_CSS)
    return code_spans.compact_block(raw, plain, group_of)


def pygments_html(language: str, text: str) -> str:
    """A block's code as Pygments writes it before the hook: one span per token."""
    return highlight(text, get_lexer_by_name(language), HtmlFormatter(nowrap=True))


def site_blocks(site_dir: Path) -> list[tuple[str, str]]:
    """(language, text) of every highlighted block on the built site, each once."""
    found = {}
    for page in sorted(site_dir.rglob("*.html")):
        for language, code in BLOCK.findall(page.read_text(encoding="utf-8")):
            found.setdefault((language, html.unescape(TAG.sub("", code))), None)
    return list(found)


def test_plain_spans_go_and_neighbours_styled_alike_merge():
    raw = (
        '<span class="n">torch</span><span class="o">.</span><span class="n">ones</span>'
        '<span class="p">(</span><span class="mi">2</span><span class="p">)</span><span class="w"> </span>'
        '<span class="c1"># one</span>\n<span class="c1"># two</span>\n'
        '<span class="sa">f</span><span class="s2">&quot;</span><span class="si">{</span>'
        '<span class="gd">-a</span> <span class="gd">-b</span>'
        '<span class="hll"><span class="k">if</span></span><span class="k">x</span>'
    )
    assert compact(raw) == (
        'torch<span class="o">.</span>ones<span class="p">(</span><span class="mi">2</span>'
        '<span class="p">)</span> <span class="c1"># one\n# two</span>\n'
        'f<span class="s2">&quot;{</span>'
        '<span class="gd">-a</span> <span class="gd">-b</span>'
        '<span class="hll"><span class="k">if</span></span><span class="k">x</span>'
    )


def test_name_spans_stay_where_a_stylesheet_colours_names():
    """``n`` is plain only while names have the code's own colour; a sheet that sets one keeps them."""
    plain, _ = code_spans.site_styles(EXTRA_CSS + "\n:root{--md-code-hl-name-color:#c00}")
    assert "n" not in plain
    plain, _ = code_spans.site_styles(EXTRA_CSS + "\n.highlight .w{background:red}")
    assert "w" not in plain


# The tests below need the browser (the site fixture skips them without one, or fails them where required).
@pytest.fixture(scope="module")
def blocks(site):
    site_dir, _ = site
    found = site_blocks(site_dir)
    assert len(found) > 100, f"only {len(found)} code blocks found on the site: the pattern no longer matches"
    return found


def test_the_built_pages_carry_no_plain_spans(site):
    site_dir, _ = site
    page = (site_dir / "verification" / "index.html").read_text(encoding="utf-8")
    # Per line of code, so that a page that shows more code (gpu_identity.py beside the doctor) is not a failure:
    # 3.2 spans a line on 2026-12-05; Pygments' own markup, before the hook, made 8,259 on a smaller page.
    lines = sum(block.count("\n") for block in re.findall(r"<pre[^>]*>(.*?)</pre>", page, re.S))
    assert page.count("<span") < 3.5 * lines, f"verification/ has {page.count('<span')} spans for {lines} lines"
    for cls in ("n", "w"):
        assert f'<span class="{cls}">' not in page, f'verification/ still has <span class="{cls}">'


# Each block's characters in order, run-length: [[style, text], ...]; white space by the background it shows.
STYLES = """([blocks, scheme]) => {
  document.body.setAttribute('data-md-color-scheme', scheme);
  const host = document.querySelector('article.md-typeset');
  const runsOf = (inner) => {
    const box = document.createElement('div');
    box.className = 'highlight';
    box.innerHTML = '<pre><code>' + inner + '</code></pre>';
    host.append(box);
    // The background a character shows: its element's own, else the nearest one behind it.
    const shown = (el) => {
      while (el && getComputedStyle(el).backgroundColor === 'rgba(0, 0, 0, 0)') el = el.parentElement;
      return el ? getComputedStyle(el).backgroundColor : 'none';
    };
    const runs = [];
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const parent = walker.currentNode.parentElement;
      const s = getComputedStyle(parent);
      const background = shown(parent);
      for (const ch of walker.currentNode.data) {
        const key = ch.trim() ? [s.color, s.fontStyle, s.fontWeight, background].join('|') : background;
        const last = runs[runs.length - 1];
        if (last && last[0] === key) last[1] += ch; else runs.push([key, ch]);
      }
    }
    box.remove();
    return runs;
  };
  return blocks.map(([raw, compacted]) => [runsOf(raw), runsOf(compacted)]);
}"""


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_every_character_keeps_its_colour(site, context, blocks, scheme):
    _, base = site
    page = context.new_page()
    page.goto(base)
    pairs = []
    for language, text in blocks:
        raw = pygments_html(language, text)
        pairs.append((raw, compact(raw)))
    results = page.evaluate(STYLES, [pairs, scheme])
    differ = [text[:60] for (language, text), (before, after) in zip(blocks, results, strict=True) if before != after]
    spans_before = sum(raw.count("<span") for raw, _ in pairs)
    spans_after = sum(compacted.count("<span") for _, compacted in pairs)
    assert spans_after < spans_before * 0.8, f"{spans_before} -> {spans_after} spans: the hook saves little"
    assert not differ, f"{scheme}: {len(differ)} of {len(blocks)} blocks look different, first: {differ[:3]}"
