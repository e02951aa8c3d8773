"""Each code block's line count in the page (docs/hooks/guide/code_heights.py), so that the browser's
estimate of a block it skips (content-visibility in extra.css) is its height: the page is as tall before
the blocks render as after, and nothing below them moves when they do (the footer did, under
Lighthouse's accessibility audit)."""

from __future__ import annotations

import pytest

from guide.code_heights import with_line_counts


def test_a_block_carries_its_line_count_and_its_title():
    page = (
        '<div class="language-text highlight"><pre><span></span><code>one\ntwo &amp; <span class="n">x</span>\n'
        '</code></pre></div>\n<div data-search-exclude class="language-python highlight"><span class="filename">'
        "doctor.py</span><pre><span></span><code>a = 1\n</code></pre></div>"
    )
    built = with_line_counts(page)
    assert '<div class="language-text highlight" style="--lines: 2; --lines-wide: 2; --lines-phone: 2"><pre>' in built
    assert (
        '<div data-search-exclude class="language-python highlight" style="--lines: 1; --title: 1"><span class="filename">'
        in built
    )


def test_a_plain_text_block_counts_the_lines_it_wraps_into():
    """A message of 100 characters and one of 10 wide characters: a text block wraps, code scrolls."""
    message = "E" * 100 + "\n" + "\u663e" * 10 + "\n"
    text = with_line_counts(f'<div class="language-text highlight"><pre><code>{message}</code></pre></div>')
    assert 'style="--lines: 2; --lines-wide: 3; --lines-phone: 4"' in text  # 100/78 -> 2, 100/40 -> 3; 20 columns
    code = with_line_counts(f'<div class="language-python highlight"><pre><code>{message}</code></pre></div>')
    assert 'style="--lines: 2"' in code


# A wrapped block's estimate counts whole lines at a fixed width (words wrap before the edge), so the margin is
# not zero. With the wrapped counts, six long pages at 375, 412 and 1280 px are within 0.8 % (2026-12-04); before
# them zh/troubleshooting/ at 412 px was 5.1 % short (40,881 of 43,059 px), and with one estimate for every
# block (12em) verification/ at 412 px was 57 % short (6,027 of 13,964 px).
MARGIN = 0.02


@pytest.mark.parametrize("width", [412, 1280])
@pytest.mark.parametrize("path", ["verification/", "mnist-training/", "zh/troubleshooting/"])
def test_the_page_is_as_tall_before_its_blocks_render(site, browser, path, width):
    _, base = site
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(base + path)
    page.wait_for_load_state()
    estimated = page.evaluate("document.documentElement.scrollHeight")
    page.evaluate(
        "document.querySelectorAll('.md-typeset div.highlight').forEach(d => d.style.contentVisibility = 'visible')"
    )
    real = page.evaluate("document.documentElement.scrollHeight")
    page.close()
    assert abs(estimated - real) <= MARGIN * real, (
        f"{path} at {width} px: estimated {estimated} px tall, {real} px rendered"
    )
