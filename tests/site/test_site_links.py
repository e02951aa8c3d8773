"""Links to a heading land on it: every heading of every page, at a desktop or a phone width, opened
afresh by its link (as a search result, a shared link or another page's link opens it) or by an in-page link
(as the table of contents opens it).

Afresh, the page is loaded for that heading (a different query string each time, as Material's search
results carry ``?h=``); in-page, the heading's id is set as the location's hash in the page as it stands.
Each heading is opened once (SHARE): by its number on its page, numbers 0-3 of each eight at the desktop
width and 4-7 at the phone width; the first of each eight's share (0 or 4) afresh and the others in-page,
and the page's title (number 0) is loaded at both widths. So each page is opened afresh at both widths,
and in-page at both if it has six headings or more; the headings opened afresh reach down the whole page,
one in eight. What moves a heading off is the page's layout above it at a width (code blocks that render
late), which a deep heading opened afresh meets as any other would. Every heading both ways at both widths
took 390 s of a CI run's core-seconds (2026-12-04); each once, half afresh, 154 s; a quarter afresh is about
100 s (a load costs 0.25-0.45 s, an in-page jump 0.01-0.10 s, measured here on 2026-12-04).
Each heading is left until it has stopped moving, and it must sit where
Material's ``:target`` scroll margin puts it under the header, within TOLERANCE px, or, near the end of a
page that cannot scroll further, the page must be scrolled to its end with the heading in view. Code
blocks that render late (``content-visibility: auto`` in extra.css) moved headings thousands of pixels off
before docs/javascripts/a11y.js laid out the blocks above a link's target.
"""

from __future__ import annotations

import re

import pytest

from browser_support import skip_module_without_browser
from site_server import page_urls

skip_module_without_browser()

TOLERANCE = 10
WIDTHS = (1280, 375)

# Where the heading is, where it should be, and whether the page is at its end; after the heading's
# position has held still for five animation frames in a row (at most 3 s). Everything that moves a
# heading after the load happens in a frame's rendering steps: a block rendering as it comes into view,
# a ResizeObserver callback (a11y.js lands again), a requestAnimationFrame (Material's tabs).
WHERE = """async (id) => {
  const heading = document.getElementById(id);
  if (!heading) return null;
  const frame = () => new Promise(r => requestAnimationFrame(() => r()));
  const start = performance.now();
  let last = null, still = 0;
  while (still < 5 && performance.now() - start < 3000) {
    await frame();
    const top = heading.getBoundingClientRect().top;
    still = last !== null && Math.abs(top - last) < 0.5 ? still + 1 : 0;
    last = top;
  }
  const root = document.scrollingElement;
  return {
    top: heading.getBoundingClientRect().top,
    margin: parseFloat(getComputedStyle(heading).scrollMarginTop) || 0,
    atEnd: root.scrollTop + innerHeight >= root.scrollHeight - 1,
    shown: heading.getBoundingClientRect().bottom <= innerHeight,
  };
}"""


def headings(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('article :is(h1,h2,h3,h4,h5,h6)[id]')]
             .filter(h => h.offsetParent !== null).map(h => h.id)"""
    )


# Which headings each width opens, by the heading's number on its page (number % 8); the first of the share
# afresh, the others in-page. The page's title (its h1, number 0) loads at both widths.
SHARE = {1280: (0, 1, 2, 3), 375: (4, 5, 6, 7)}
TITLE = re.compile(r'<h1 id="([^"]+)"')


def misses(page, base: str, url: str, width: int) -> tuple[int, list[str]]:
    """(headings on the page, 'page#id: how far off' for each of this width's share that did not land)."""
    title = TITLE.search(page.request.get(base + url).text())
    title = title.group(1) if title else None
    page.goto(f"{base}{url}?link=0#{title}" if title else base + url)
    ids = headings(page)
    missed = []
    for number, heading in enumerate(ids):
        loaded = number == 0 and heading == title  # the load above
        if not loaded and number % 8 not in SHARE[width]:
            continue
        fresh = loaded or number % 8 == SHARE[width][0]
        if fresh and not loaded:
            page.goto(f"{base}{url}?link={number}#{heading}")
        elif not fresh:
            page.evaluate("id => { location.hash = id; }", heading)
        where = page.evaluate(WHERE, heading)
        how = "afresh" if fresh else "in-page"
        if where is None:
            missed.append(f"{width} px {url}#{heading} ({how}): no such id")
            continue
        off = where["top"] - where["margin"]
        landed = abs(off) <= TOLERANCE or (where["atEnd"] and where["shown"] and off > 0)
        if not landed:
            missed.append(f"{width} px {url or 'home'}#{heading} ({how}): {off:+.0f} px from its place")
    return len(ids), missed


@pytest.mark.slow
@pytest.mark.parametrize("width", WIDTHS)
def test_every_heading_link_lands_on_its_heading(site, browser, width):
    site_dir, base = site
    context = browser.new_context(viewport={"width": width, "height": 800})
    # The search index plays no part in where a heading lands; each of the ~200 loads would fetch it
    # and build it in a worker, on a 2-core machine.
    context.route("**/search/search_index.json", lambda route: route.abort())
    page = context.new_page()
    opened, missed = 0, []
    for url in page_urls(site_dir):
        count, page_misses = misses(page, base, url, width)
        opened += count
        missed += page_misses
    context.close()
    assert opened > 150, f"only {opened} headings found"
    assert not missed, f"{len(missed)} of {opened} links did not land:\n" + "\n".join(missed)
