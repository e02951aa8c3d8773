"""A few searches in Chromium, for what Node's run of the search (tests/js/search_site.js, which
tests/site/test_search_eval.py judges on every message) leaves out: that a page loads the search's scripts
and data, that Material's bundle hands them its messages as search_site.js plays them, and that the list a
reader sees is the one search_site.js reads off the answer."""

from __future__ import annotations

import pytest

from browser_support import node_search, sections_for, skip_module_without_browser

skip_module_without_browser()

# What the page hands Material's worker (each QUERY message), recorded before the page's scripts run.
RECORD_QUERIES = """
window.guideQueries = [];
const guidePost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message) {
  if (message && message.type === 2) window.guideQueries.push(message.data);
  return guidePost.apply(this, arguments);
};
"""

# Every result link, folded ones too, as "page/#section".
ALL_LINKS = r"els => els.map(e => e.href.replace(/^https?:\/\/[^/]+\/|\?h=[^#]*/g, ''))"

# One of each way through the page's search: a model number split, a long pasted message, the GPU table
# added to an answer, a Chinese run cut into the index's words, and a typed Chinese query run again with its
# words optional (two queries sent).
SEARCHES = [
    ("en", "RX580"),
    (
        "en",
        "RuntimeError: Could not allocate tensor with 4915840 bytes. There is not enough GPU video memory available!",
    ),
    ("en", "7900xtx"),
    ("zh", "难道说我以后遇到的问题都没法通过目前的wifi网络访问pip的清华源了吗"),
    ("zh", "程序被阻止"),
]


@pytest.fixture(scope="module")
def in_node(built_site):
    return dict(zip(SEARCHES, node_search(built_site.path, SEARCHES), strict=True))


@pytest.mark.parametrize("edition_name,text", SEARCHES)
def test_a_page_searches_as_node_does(site, browser, in_node, edition_name, text):
    _, base = site
    page = browser.new_page()
    page.add_init_script(RECORD_QUERIES)
    page.goto(base + ("zh/" if edition_name == "zh" else ""))
    found = sections_for(page, text)
    listed = [h for h in page.locator(".md-search-result__item a").evaluate_all(ALL_LINKS) if "#" in h]
    sent = page.evaluate("window.guideQueries")
    page.close()
    node = in_node[(edition_name, text)]
    assert sent[-len(node["sent"]) :] == node["sent"], f"Chromium sent {sent}, Node {node['sent']}"
    assert found[:3] == node["sections"][:3], f"Chromium showed {found[:3]}, Node {node['sections'][:3]}"
    assert listed[:5] == node["listed"][:5], f"Chromium listed {listed[:5]}, Node {node['listed'][:5]}"
