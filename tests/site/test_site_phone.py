"""The site on a phone (375 px): a tree that keeps its columns, a wide table that says it scrolls, and
copy buttons that leave the code readable."""

from __future__ import annotations

import pytest

from browser_support import skip_module_without_browser

skip_module_without_browser()

PHONE = {"width": 375, "height": 800}


@pytest.fixture(scope="module")
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield page
    context.close()


def test_the_project_tree_does_not_wrap(site, phone):
    """Plain-text blocks wrap (tests/site/test_site_browser.py); a tree must not: each of its lines is one
    rendered line, and the block scrolls sideways instead."""
    _, base = site
    phone.goto(base + "mnist-training/")
    tree = phone.evaluate("""() => {
      const code = [...document.querySelectorAll('article div.highlight code')]
        .find(c => c.textContent.includes('├── choose_device.py'));
      if (!code) return null;
      const lines = code.textContent.replace(/\\n$/, '').split('\\n').length;
      const range = document.createRange();
      range.selectNodeContents(code);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      return {lines, rendered: tops.size, scrolls: code.scrollWidth > code.clientWidth};
    }""")
    assert tree is not None, "no project tree on the training page"
    assert tree["rendered"] == tree["lines"], f"the tree's {tree['lines']} lines take {tree['rendered']} rendered lines"
    assert tree["scrolls"], "the tree fits a phone: this check no longer tells wrapping from not"


def _strip(page, selector: str, side: str) -> bytes:
    """A 14 px strip of the element's edge, of the part of it on screen (a table taller than the screen
    scrolled into view starts above the top: a clip there would be outside the image)."""
    box = page.locator(selector).bounding_box()
    x = box["x"] + box["width"] - 14 if side == "right" else box["x"]
    top = max(box["y"], 0)
    bottom = min(box["y"] + box["height"], page.viewport_size["height"], top + 300)
    return page.screenshot(clip={"x": x, "y": top, "width": 14, "height": bottom - top})


def test_a_table_wider_than_the_screen_shows_that_it_scrolls(site, phone):
    """why-directml's options table is wider than a phone. Its right edge shows a shadow while there is
    more to the right (the same pixels differ with and without the shadow), and none once scrolled to
    the end; the left edge the other way round."""
    _, base = site
    phone.goto(base + "why-directml/")
    wrap = "article .md-typeset__scrollwrap >> nth=0"
    phone.locator(wrap).scroll_into_view_if_needed()
    sizes = phone.locator(wrap).evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] > sizes[1], f"the table fits a phone ({sizes}): nothing to cue"

    def edges() -> tuple[bytes, bytes]:
        return _strip(phone, wrap, "left"), _strip(phone, wrap, "right")

    def without_cue() -> tuple[bytes, bytes]:
        phone.locator(wrap).evaluate("e => e.style.setProperty('background', 'none', 'important')")
        shot = edges()
        phone.locator(wrap).evaluate("e => e.style.removeProperty('background')")
        return shot

    start, start_bare = edges(), without_cue()
    assert start[1] != start_bare[1], "no cue at the right edge of a table that scrolls to the right"
    assert start[0] == start_bare[0], "a cue at the left edge before the reader has scrolled"
    phone.locator(wrap).evaluate("e => { e.scrollLeft = e.scrollWidth }")
    end, end_bare = edges(), without_cue()
    assert end[0] != end_bare[0], "no cue at the left edge once scrolled to the end"
    assert end[1] == end_bare[1], "a cue at the right edge with nothing more to the right"


@pytest.mark.parametrize("path", ["mnist-training/", "troubleshooting/", "zh/setup/"])
def test_the_copy_button_leaves_the_first_line_readable(site, phone, path):
    _, base = site
    phone.goto(base + path)
    phone.wait_for_selector("article .md-code__nav")
    covered = phone.evaluate("""() => [...document.querySelectorAll('article div.highlight pre')]
      .filter(pre => pre.offsetParent !== null && pre.querySelector('.md-code__nav'))
      .map(pre => {
        pre.parentElement.style.contentVisibility = 'visible';
        const button = pre.querySelector('.md-code__nav').getBoundingClientRect();
        const code = pre.querySelector('code');
        const range = document.createRange();
        range.selectNodeContents(code);
        const first = range.getClientRects()[0];
        const box = pre.getBoundingClientRect();
        const right = Math.min(first.right, box.right), bottom = first.bottom;
        const overlap = button.left < right && button.top < bottom && button.bottom > first.top;
        return overlap ? code.textContent.split('\\n')[0].slice(0, 50) : null;
      }).filter(Boolean)""")
    assert not covered, f"{path}: the copy button covers the first line of {len(covered)} blocks: {covered[:5]}"
