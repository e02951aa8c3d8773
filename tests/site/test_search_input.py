"""Search starts however the text enters the box, not on a key alone (docs/overrides/partials/search_input.html).

A reader pastes an error message from the context menu or with a phone's long-press, drags it in, or
commits a word with an IME: no key is released in the box, and Material searches on keyup only. Each
test opens the search, waits until it is ready, puts the text in the box with the events a browser
fires for that way in (and no key event), and expects results of its edition, with the chooser's answer on top
for a query that names a GPU, in both editions.
"""

from __future__ import annotations

import pytest

from browser_support import FRAMES, PROMPT, STATUS, WORKING, skip_module_without_browser

skip_module_without_browser()


# The events each way fires, in the browser's order. A synthetic paste or drop inserts nothing by
# itself, so the script puts the text in the box where the browser would.
ENTER = {
    # Right-click > Paste, or a phone's long-press > Paste: paste, the text, input (insertFromPaste).
    "paste": """(box, text) => {
        const data = new DataTransfer(); data.setData('text/plain', text);
        box.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
        box.value = text;
        box.dispatchEvent(new InputEvent('input', {inputType: 'insertFromPaste', bubbles: true}));
    }""",
    # Text dragged from another window and dropped into the box: the drop event alone.
    "drop": """(box, text) => {
        const data = new DataTransfer(); data.setData('text/plain', text);
        box.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
        box.value = text;
    }""",
    # An IME (pinyin): the box fills while composing, then compositionend commits the word.
    "compositionend": """(box, text) => {
        box.dispatchEvent(new CompositionEvent('compositionstart', {bubbles: true}));
        box.value = text;
        box.dispatchEvent(new InputEvent('input', {isComposing: true, bubbles: true}));
        box.dispatchEvent(new CompositionEvent('compositionend', {data: text, bubbles: true}));
    }""",
    # Autofill, a browser extension or a script: the value, then an input event.
    "input": """(box, text) => { box.value = text; box.dispatchEvent(new Event('input', {bubbles: true})); }""",
}

# (what the reader enters, the chooser's answer docs/javascripts/search/bridge.js puts above the results of a query
# that names a GPU or asks about a vendor's GPUs: pipeline.js's chooserAnswer, match.js on the chooser's table)
QUERIES = {
    "": ("Is Intel Arc B580 supported?", "choose/?gpu=Intel%28R%29+Arc%28TM%29+B580+Graphics"),
    "zh/": ("可以用A卡训练吗", "zh/choose/"),
}


@pytest.mark.parametrize("edition", QUERIES, ids=["en", "zh"])
@pytest.mark.parametrize("way", ENTER)
def test_text_entered_without_a_key_searches(site, browser, edition, way):
    _, base = site
    page = browser.new_page()
    page.goto(base + edition)
    page.click("input.md-search__input")  # opens the search; focus alone reads the (empty) box
    page.wait_for_function(  # the worker has the index: the panel asks for a query
        f"() => {PROMPT}.test({STATUS})"
    )
    page.evaluate(
        f"([text]) => ({ENTER[way]})(document.querySelector('input.md-search__input'), text)", [QUERIES[edition][0]]
    )
    try:
        page.wait_for_function(f"() => !{WORKING}.test({STATUS})", timeout=5000)
    except Exception:  # playwright's TimeoutError
        meta = page.inner_text(".md-search-result__meta")
        pytest.fail(f"{edition or 'en'}: text entered by {way} searched nothing; the panel says {meta!r}")
    page.evaluate(FRAMES)  # the list renders
    hrefs = page.locator(".md-search-result__item a").evaluate_all("els => els.map(e => e.href)")
    page.wait_for_selector("#guide-search-chooser a", timeout=10000)
    chooser = page.get_attribute("#guide-search-chooser a", "href")
    # docs/javascripts/search/bridge.js starts Material's worker through docs/assets/javascripts/workers/
    # search_guard.js (lunr's token-set fault, tests/js/search_guard.test.js): the search ran there.
    workers = [worker.url for worker in page.workers]
    page.close()
    assert len(workers) == 1 and "/assets/javascripts/workers/search_guard.js?worker=search." in workers[0], workers
    paths = [href.removeprefix(base) for href in hrefs]
    assert paths, f"{edition or 'en'}: {way}: the search ran and found nothing"
    other = [p for p in paths if p.startswith("zh/") != (edition == "zh/")]
    assert not other, f"{edition or 'en'}: {way}: results from the other edition {other[:3]}"
    assert chooser.removeprefix(base) == QUERIES[edition][1], chooser
