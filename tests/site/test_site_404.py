"""A missing page answers in its edition's language, with a way back and a search of its own edition.

GitHub Pages serves one 404.html, the site root's, for every missing URL, /zh/... too (tests/site_server.py
does the same). The root page is English and sends a missing /zh/ URL on to zh/404.html, the Chinese
page (docs/overrides/404.html, docs/hooks/guide/not_found.py); before, both builds wrote one Chinese
404.html for every URL, its language menu pointing at the notebook page.
"""

from __future__ import annotations

import pytest

from browser_support import search, skip_module_without_browser

skip_module_without_browser()

EDITIONS = {
    # missing URL, language, heading, home link, a query both editions answer
    "en": ("no/such/page/", "en", "404 - Not found", "", "DirectML"),
    "zh": ("zh/no/such/page/", "zh", "404 - 页面不存在", "zh/", "DirectML"),
}


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_missing_page_answers_in_its_edition(site, context, edition):
    _, base = site
    missing, language, heading, home, query = EDITIONS[edition]
    page = context.new_page()
    statuses = []
    page.on("response", lambda r: statuses.append(r.status) if r.request.resource_type == "document" else None)
    page.goto(base + missing)
    page.wait_for_load_state("load")
    assert statuses[0] == 404, statuses
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("article h1").inner_text().strip() == heading
    header = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
    assert header == "sticky", "the 404 page's stylesheet did not load"
    way_back = page.locator("article a.md-button").first.evaluate("a => a.href")
    assert way_back == base + home, way_back
    menu = page.locator(".md-select__link").evaluate_all("links => links.map(a => [a.hreflang, a.href])")
    assert dict(menu) == {"en": base, "zh": base + "zh/"}, menu
    results = search(page, query)
    assert results, f"{edition}: the 404 page's search found nothing for {query!r}"
    other = [r for r in results if r.startswith("zh/") != (edition == "zh")]
    assert not other, f"{edition}: the 404 page's search shows the other edition's pages: {other[:5]}"
    page.close()
