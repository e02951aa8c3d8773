"""The browser tests' shared part, a pytest plugin (tests/conftest.py loads it): the run's one built site,
served, Chromium through Playwright, and the search as a reader uses it.

A test module that drives the browser starts with ``skip_module_without_browser()``: without Chromium,
Playwright or axe-core it skips with the reason; under REQUIRE_BROWSER=1 (.ci/run) its tests fail
instead, one by one, and the rest of the suite still runs (tests/run_requirements.py).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from guide_harness import ROOT
from run_requirements import required, skip_or_fail
from site_server import CHROMIUM, chromium_missing, npm_tools, serve

MISSING = chromium_missing()


def skip_module_without_browser() -> None:
    """Call at a browser test module's top: skip it where the browser is missing and not required."""
    if MISSING and not required("browser"):
        pytest.skip(MISSING, allow_module_level=True)


def _check_browser() -> None:
    if MISSING:
        skip_or_fail("browser", f"the browser tests cannot run: {MISSING}")


@pytest.fixture(scope="session")
def site(built_site):
    """(site folder, base URL): the run's one built site (tests/conftest.py's built_site), served on 127.0.0.1."""
    _check_browser()
    with serve(built_site.path) as base:
        yield built_site.path, base


@pytest.fixture(scope="session")
def browser():
    _check_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    yield context
    context.close()


# The search's status line: its prompt when the box is empty, "Initializing" until the index is built,
# otherwise the count of results for the query in the box (English and Chinese).
PROMPT = "/Type to start|键入以开始搜索/"
WORKING = "/Type to start|Initializing|键入以开始搜索|正在初始化/"
STATUS = "document.querySelector('.md-search-result__meta').innerText"
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def search(page, query: str) -> list[str]:
    """Type ``query`` into the site search; the result links in order, as 'page/#section' or 'page/'.

    The box is emptied first and the prompt awaited, so that the status line changes only with this query's
    answer (the search reacts to key events, as with a paste); then two frames for the list to render."""
    box = "input.md-search__input"
    page.fill(box, "")
    page.press(box, "End")
    page.wait_for_function(f"() => {PROMPT}.test({STATUS})")
    page.fill(box, query)
    page.press(box, "End")
    page.wait_for_function(f"() => !{WORKING}.test({STATUS})")
    page.evaluate(FRAMES)
    hrefs = page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    return [re.sub(r"^https?://[^/]+/|\?h=[^#]*", "", href) for href in hrefs]


# The result links a reader sees without opening a page's "N more on this page" fold.
VISIBLE_LINKS = "els => els.filter(e => !e.closest('details:not([open])')).map(e => e.href)"


def sections_for(page, query: str) -> list[str]:
    """The sections shown for ``query``, in order, leaving out those folded under a page's "N more on
    this page" (a reader does not see them)."""
    search(page, query)
    hrefs = page.locator(".md-search-result__item a").evaluate_all(VISIBLE_LINKS)
    return [h for h in (re.sub(r"^https?://[^/]+/|\?h=[^#]*", "", href) for href in hrefs) if "#" in h]


SEARCH_SITE = ROOT / "tests" / "js" / "search_site.js"


def node_search(site: Path, queries: list[tuple[str, str]]) -> list[dict]:
    """Each (edition, text) searched on the built ``site`` as its pages search, in Node with no browser
    (tests/js/search_site.js): {sent: the queries sent to Material's worker, sections: those a reader sees,
    entries: the answer's entries}."""
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not on PATH: the search tests run in Node.js 20 or newer (the README's test command)")
    stdin = json.dumps([{"edition": e, "query": q} for e, q in queries])
    result = subprocess.run(
        [node, str(SEARCH_SITE), str(site)], input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=300
    )
    if result.returncode != 0:
        pytest.fail(f"tests/js/search_site.js failed: {result.stderr.strip()}", pytrace=False)
    return json.loads(result.stdout)


def first_section(results: list[str]) -> str | None:
    """The first result a reader sees: the first section of the first page in the list."""
    return next((r for r in results if "#" in r), None)


AXE_RUN = (
    "async (options) => (await axe.run(document, options)).violations.map("
    "v => ({id: v.id, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
)
# The rules whose verdict depends on the colour scheme (the colours they measure); the others read the markup.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


# What the page builds in the browser after its load event, done: Material's code-block button bars,
# named by docs/javascripts/a11y.js (once a frame), and the search dialog's name. Waiting for this
# instead of the network going quiet (the search index arrives after the load) saves about 0.8 s a page.
BUILT = """() => document.querySelector('.md-search[aria-label]') !== null
  && document.querySelector('.md-code__nav:not([aria-label])') === null"""


def open_built(page, url: str):
    """Load url and wait until what Material and a11y.js build in the browser is there; the page's response."""
    response = page.goto(url)
    page.wait_for_function(BUILT)
    page.evaluate(FRAMES)
    return response


def axe_violations(page, label: str, only: list[str] | None = None, skip: list[str] | None = None) -> list[str]:
    """axe-core's violations on the page as it stands (of the rules ``only``, else of all but ``skip``), one
    line each: 'label id: [the first 3 nodes]'."""
    page.add_script_tag(path=str(npm_tools() / "axe-core" / "axe.min.js"))
    if only:
        options = {"runOnly": {"type": "rule", "values": only}}
    else:
        options = {"rules": {rule: {"enabled": False} for rule in skip or []}}
    return [f"{label} {v['id']}: {v['nodes']}" for v in page.evaluate(AXE_RUN, options)]
