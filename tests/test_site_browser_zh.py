"""The Chinese edition in a real browser (Chromium through Playwright): search, language switch, copy.

tests/test_i18n.py checks the built files; this module checks what a reader does with them: types a Chinese
word into the search box (Material's search segments Chinese in the browser against the words jieba put in
the index), switches language on a page, and copies code from a Chinese page. Without Chromium or
Playwright it skips with the reason; under CI=true it fails instead.
"""

from __future__ import annotations

import os
import re

import pytest

from site_server import CHROMIUM, build_site, serve

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - reported below
    sync_playwright = None

MISSING = (
    f"no Chromium at {CHROMIUM}" if not CHROMIUM.is_file()
    else "Playwright for Python is not installed (pip install --group test)" if sync_playwright is None
    else None
)
if MISSING:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run: {MISSING}", pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site_dir = build_site(tmp_path_factory.mktemp("browser-site-zh"))
    with serve(site_dir) as base:
        yield site_dir, base


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


def search(page, query: str) -> list[str]:
    """Type ``query`` into the search box of a Chinese page; the result links in order ('page/#section')."""
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    box.press("End")  # the search reacts to key events, as when a reader types or pastes
    # "键入以开始搜索" (type to start searching) and "正在初始化搜索引擎" (initializing search): gone once the query ran.
    page.wait_for_function("() => !/键入以开始搜索|正在初始化/.test(document.querySelector('.md-search-result__meta').innerText)")
    page.wait_for_timeout(200)
    hrefs = page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    return [re.sub(r"^https?://[^/]+/|\?h=[^#]*", "", href) for href in hrefs]


# The section a reader should see first for each query (a string), or sections of which one must be
# among the first three shown (a tuple). 检查点: the troubleshooting page's boost (docs/hooks/search_boost.py,
# for pasted error messages) puts its memory section, which also advises a checkpoint, first; the chapter's
# checkpoint section comes second.
FIRST = {
    "检查点": ("zh/mnist-training/#4-checkpoints-that-survive-a-crash",),
    "显存": ("zh/troubleshooting/#memory-use-only-grows", "zh/troubleshooting/#out-of-gpu-memory"),
    "设备已移除": "zh/troubleshooting/#the-device-was-removed",
    "适配器": ("zh/glossary/#adapter", "zh/troubleshooting/#directml-uses-the-integrated-gpu"),
}


@pytest.mark.parametrize("query", FIRST)
def test_chinese_search_finds_the_right_section(site, browser, query):
    _, base = site
    page = browser.new_page()
    page.goto(base + "zh/")
    page.wait_for_timeout(500)  # the search worker loads the index
    sections = [r for r in search(page, query) if "#" in r]
    page.close()
    expected = FIRST[query]
    if isinstance(expected, str):
        assert sections and sections[0] == expected, f"{query}: first sections {sections[:3]}"
    else:
        assert set(expected) & set(sections[:3]), f"{query}: first sections {sections[:3]}, expected one of {expected}"


@pytest.mark.parametrize("path", ["", "setup/", "troubleshooting/", "train-mnist-notebook/", "contributing/gpu-runner/"])
def test_language_switch_keeps_the_page(site, browser, path):
    """The language menu on an English page leads to the same page in Chinese, and back."""
    _, base = site
    page = browser.new_page()
    page.goto(base + path)
    assert page.locator("html").get_attribute("lang") == "en"
    page.locator(".md-header .md-select").hover()
    page.locator('.md-header a[hreflang="zh"]').click()
    page.wait_for_load_state()
    assert page.url == base + "zh/" + path, page.url
    assert page.locator("html").get_attribute("lang") == "zh"
    page.locator(".md-header .md-select").hover()
    page.locator('.md-header a[hreflang="en"]').click()
    page.wait_for_load_state()
    assert page.url == base + path, page.url
    page.close()


def _copied_blocks(page, url: str) -> list[str]:
    page.goto(url)
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    buttons = page.locator("article button.md-code__button[data-md-type=copy]")
    copied = []
    for number in range(buttons.count()):
        page.evaluate("navigator.clipboard.writeText('')")
        buttons.nth(number).dispatch_event("click")  # also in closed tabs
        copied.append(page.evaluate("navigator.clipboard.readText()"))
    return copied


@pytest.mark.parametrize("path", ["setup/", "verification/", "mnist-training/", "troubleshooting/"])
def test_copy_buttons_on_a_chinese_page_copy_the_english_pages_code(site, browser, path):
    """What a reader copies from the Chinese page is what the tested English page gives: every block, in order."""
    _, base = site
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    english = _copied_blocks(page, base + path)
    chinese = _copied_blocks(page, base + "zh/" + path)
    context.close()
    assert len(english) >= 3 and all(text.strip() for text in english), english[:3]
    translated = _translated_blocks(path)
    assert len(chinese) == len(english)
    for number, (en, zh) in enumerate(zip(english, chinese)):
        if number not in translated:
            assert zh == en, f"zh/{path} code block {number + 1} copies other text than the English page's"


def _translated_blocks(path: str) -> set[int]:
    """Indexes of the code blocks that the Chinese page translates on purpose (<!-- i18n: translated -->)."""
    from guide_harness import DOCS, page_source
    from test_i18n import fences

    page = DOCS / ((path.rstrip("/") or "index") + ".zh.md")
    return {number for number, (_, _, translated) in enumerate(fences(page_source(page))) if translated}
