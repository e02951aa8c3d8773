"""The built site in a real browser (Chromium through Playwright): what readers copy, find and see. Each page
is loaded once at a desktop's width and once at a phone's, and each load runs every check of that width.

The site is built once, served on 127.0.0.1, and opened in Debian's Chromium (no browser download).
Without Chromium, Playwright or axe-core (`npm ci` in tests/browser) these tests skip with the
reason; under REQUIRE_BROWSER=1 (.ci/run) each of them fails instead (tests/run_requirements.py).
"""

from __future__ import annotations

import json
import re
import textwrap

import pytest

from browser_support import (
    COLOUR_RULES,
    axe_violations,
    first_section,
    open_built,
    search,
    skip_module_without_browser,
)
from guide import runs
from guide.page import Page
from guide_harness import DOCS, ROOT, page_source
from site_server import page_urls

skip_module_without_browser()

INCLUDE = re.compile(r"""^-+8<-+\s+["']?([^"':\s]+)(?::(\w+))?["']?\s*$""")
MARKER = re.compile(r"^\s*# --8<-- \[(start|end):(\w+)\]\s*$")


# ---------------------------------------------------------------- copy buttons


def snippet_text(relative: str, section: str | None) -> str:
    """What an include stands for, read straight from the file: the whole file less section markers,
    or the section's lines (dedented, as the site's dedent_subsections does)."""
    lines = (ROOT / relative).read_text(encoding="utf-8").splitlines()
    if section is None:
        return "\n".join(line for line in lines if not MARKER.match(line))
    inside, kept = False, []
    for line in lines:
        marker = MARKER.match(line)
        if marker and marker.group(2) == section:
            inside = marker.group(1) == "start"
            continue
        if inside and not MARKER.match(line):
            kept.append(line)
    assert kept, f"no section {section!r} in {relative}"
    return textwrap.dedent("\n".join(kept))


def expected_blocks(url: str) -> list[tuple[str, str | None]]:
    """(text the block shows, what its include stands for or None) for each code block of the page, in order.
    A page of the Chinese edition (zh/...) comes from docs/PAGE.zh.md (and the Chinese notebook)."""
    suffix = ".md"
    if url.startswith("zh/") or url == "zh":
        url, suffix = url.removeprefix("zh").lstrip("/"), ".zh.md"
    if url == "train-mnist-notebook/":
        notebook_file = "train-mnist-notebook.ipynb" if suffix == ".md" else "train-mnist-notebook.zh.ipynb"
        notebook = json.loads((DOCS / notebook_file).read_text(encoding="utf-8"))
        return [("".join(cell["source"]), None) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    page = DOCS / (("index" if url == "" else url.rstrip("/")) + suffix)
    from guide_harness import expand

    raw = page_source(page)
    expanded = expand(raw)
    raw_blocks = [textwrap.dedent(f.body) for f in Page.parse(raw, page.name).fences]
    shown = [textwrap.dedent(f.body) for f in Page.parse(expanded, page.name).fences]
    assert len(raw_blocks) == len(shown), f"{page.name}: an include changed the number of code blocks"
    result = []
    for body, text in zip(raw_blocks, shown, strict=True):
        include = INCLUDE.match(body.strip()) if len(body.strip().splitlines()) == 1 else None
        result.append((text, snippet_text(include.group(1), include.group(2)) if include else None))
    return result


def clean(text: str) -> str:
    return text.strip("\n")


def copy_buttons(page, url: str) -> tuple[int, int]:
    """Each copy button of the page copies its block, and an included snippet's copy is the snippet as written:
    (blocks checked, of which included)."""
    expected = expected_blocks(url)
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")  # as a reader would
    buttons = page.locator("article button.md-code__button[data-md-type=copy]")
    assert buttons.count() == len(expected), f"{url or 'home'}: {buttons.count()} copy buttons, {len(expected)} blocks"
    included = 0
    for number, (shown, include) in enumerate(expected):
        page.evaluate("navigator.clipboard.writeText('')")
        buttons.nth(number).dispatch_event("click")  # also in closed tabs and collapsed details
        copied = page.evaluate("navigator.clipboard.readText()")
        where = f"{url or 'home'}, code block {number + 1}"
        assert clean(copied) == clean(shown), f"{where}: the copy button copies other text than the block"
        if include is not None:
            assert clean(copied) == clean(include), f"{where}: the copied text is not the included snippet"
            included += 1
    return len(expected), included


# ---------------------------------------------------------------- each page, loaded once for all its checks

# The colour rules measure colours, which follow the scheme and the kind of element, not the language: so
# they run on the English pages in the light scheme and on the Chinese ones in the dark, and the markup rules
# on every page (in the light scheme). tests/pages/test_i18n.py holds the two editions to the same blocks,
# admonitions, tables and tabs; the Chinese edition's own stretches are measured in the dark only. The colour
# rules were 85 % of the axe run's time: every page in both schemes took 117 s of a run's core-seconds
# (2026-12-04).
PALETTE_TOGGLE = "label.md-header__button[for^='__palette']:visible"
NO_RUN_YET = {"en": "No run reported yet.", "zh": "还没有人报告运行结果。"}
# The theme's own words and the code bars' (docs/hooks/guide/code_buttons.py) speak the page's language: the
# dark-mode toggle, an admonition written without a title, the search box and a code block's bar, on gpu-runner/.
CONTROLS = """() => ({toggle: document.querySelector('label.md-header__button[for^="__palette"]').getAttribute('title'),
  notes: [...new Set([...document.querySelectorAll('.admonition-title')].map(e => e.textContent.trim())
    .filter(t => t === 'Note' || t === '注意'))],
  search: document.querySelector('input.md-search__input').getAttribute('placeholder'),
  codebar: document.querySelector('.md-code__nav[aria-label]').getAttribute('aria-label').replace(/ \\d.*$/, '')})"""
CONTROLS_IN = {
    "en": {"toggle": "Switch to dark mode", "notes": ["Note"], "search": "Search", "codebar": "Code block"},
    "zh": {"toggle": "切换到深色模式", "notes": ["注意"], "search": "搜索", "codebar": "代码块"},
}


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["en", "zh"])
def test_each_page_on_a_desktop(site, browser, edition):
    """Every page of the edition, the chooser's answers (ANSWERS) and its missing-page answer, each loaded once at
    1280 px in the light scheme (the palette follows the system's until the reader toggles it): axe-core finds no
    violation, on a Chinese page also once the reader has toggled the dark scheme; every copy button copies its
    block; the missing page answers as check_missing_page says."""
    site_dir, base = site
    zh = edition == "zh"
    context = browser.new_context(color_scheme="light", permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    urls = [u for u in [*page_urls(site_dir), *ANSWERS] if u.startswith("zh/") == zh] + [
        f"{'zh/' if zh else ''}no/such/page/"
    ]
    report, checked, included = [], 0, 0
    for url in urls:
        response = open_built(page, base + url)
        if "?gpu=" in url:
            page.wait_for_function("window.guideChooserReady === true")  # the answer is drawn
            box = page.locator("#chooser-runs")
            if box.count():  # no reader's run of this GPU yet: the one command that reports one, and the runs page
                box.locator("code").wait_for()  # chooser_runs.js fills it from assets/runs.json
                assert NO_RUN_YET[edition] in box.inner_text() and "python report.py --download" in box.inner_text()
                assert box.locator("a").get_attribute("href").endswith(("zh/" if zh else "") + "runs/"), url
        assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "default", url
        if url.endswith("contributing/gpu-runner/"):
            assert page.evaluate(CONTROLS) == CONTROLS_IN[edition], url
        if zh:
            # The dark pass first: a second axe run on a page measured code against the first run's background
            # (#f5f5f5 behind slate's colours). The markup rules do not read colours.
            page.locator(PALETTE_TOGGLE).click()
            assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate", url
            report += axe_violations(page, f"{url} [slate]", only=COLOUR_RULES)
            page.locator(PALETTE_TOGGLE).click()  # back to light, which the next page opens in
        report += axe_violations(page, f"{url or 'home'} [default]", skip=COLOUR_RULES if zh else None)
        if "no/such/" in url:
            check_missing_page(page, base, response.status, zh)
        # The chooser's blocks are built for each reader by its script (guide/recipes.py);
        # tests/site/test_readers.py checks what it shows and its copy buttons.
        if "no/such/" not in url and "choose/" not in url:
            blocks, snippets = copy_buttons(page, url)
            checked += blocks
            included += snippets
    context.close()
    assert not report, "\n".join(report)
    assert checked > 25 and included > 10, (checked, included)


def check_missing_page(page, base: str, status: int, zh: bool) -> None:
    """A missing page answers in its edition's language, styled, with a way back and a search of its own edition's
    pages. GitHub Pages serves the root's 404.html for every missing URL, /zh/... too (tests/site_server.py does the
    same); it sends a missing /zh/ URL on to zh/404.html (docs/overrides/404.html, docs/hooks/guide/not_found.py):
    before, both builds wrote one Chinese 404.html for every URL, its language menu pointing at the notebook page."""
    assert status == 404, status
    assert page.evaluate("document.documentElement.lang") == ("zh" if zh else "en")
    assert page.locator("article h1").inner_text().strip() == ("404 - 页面不存在" if zh else "404 - Not found")
    header = page.evaluate("getComputedStyle(document.querySelector('.md-header')).position")
    assert header == "sticky", "the 404 page's stylesheet did not load"
    assert page.locator("article a.md-button").first.evaluate("a => a.href") == base + ("zh/" if zh else "")
    menu = page.locator(".md-select__link").evaluate_all("links => links.map(a => [a.hreflang, a.href])")
    assert dict(menu) == {"en": base, "zh": base + "zh/"}, menu
    results = search(page, "DirectML")
    assert results and all(r.startswith("zh/") == zh for r in results), f"the 404 page's search: {results[:5]}"


# The chooser's answers as its script builds them for a reader (the page sweep loads choose/ without one): both
# journeys load them, for axe on a desktop and for a phone's width.
ANSWERS = ["choose/?gpu=AMD+Radeon+RX+7900+XTX&py=3.13", "choose/?gpu=AMD+Radeon(TM)+Graphics", "zh/choose/?gpu=6700XT"]
# Pages whose code blocks are checked on a phone: error messages and trees, Python, and a Chinese set-up.
CODE_PAGES = ("mnist-training/", "troubleshooting/", "zh/setup/")

# Each block's language class and white-space, and the first line of each shown block whose copy button
# covers it (the block laid out first: content-visibility leaves it unrendered off screen).
CODE_BLOCKS = """() => ({
  blocks: [...document.querySelectorAll('article div.highlight')].map(d => ({
    cls: d.className, ws: getComputedStyle(d.querySelector('code')).whiteSpace})),
  covered: [...document.querySelectorAll('article div.highlight pre')]
    .filter(pre => pre.offsetParent !== null && pre.querySelector('.md-code__nav'))
    .map(pre => {
      pre.parentElement.style.contentVisibility = 'visible';
      const button = pre.querySelector('.md-code__nav').getBoundingClientRect();
      const code = pre.querySelector('code');
      const range = document.createRange();
      range.selectNodeContents(code);
      const first = range.getClientRects()[0];
      const right = Math.min(first.right, pre.getBoundingClientRect().right);
      const overlap = button.left < right && button.top < first.bottom && button.bottom > first.top;
      return overlap ? code.textContent.split('\\n')[0].slice(0, 50) : null;
    }).filter(Boolean)})"""

# The project tree's lines, the lines it takes on screen, and whether it scrolls sideways.
TREE = """() => {
  const code = [...document.querySelectorAll('article div.highlight code')]
    .find(c => c.textContent.includes('├── choose_device.py'));
  if (!code) return null;
  const lines = code.textContent.replace(/\\n$/, '').split('\\n').length;
  const range = document.createRange();
  range.selectNodeContents(code);
  const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
  return {lines, rendered: tops.size, scrolls: code.scrollWidth > code.clientWidth};
}"""


def code_blocks_on_a_phone(page, url: str) -> tuple[set[str], list[str]]:
    """(the blocks' language classes, what is wrong): error messages and the project tree wrap
    (the reader sees the whole line) but a tree ({.text .tree}) keeps its columns; code keeps its lines and
    scrolls sideways, as in an editor (extra.css tells them apart by each block's language- class); and no
    copy button covers the first line of its block."""
    found = page.evaluate(CODE_BLOCKS)
    wrong = [f"{url}: the copy button covers the first line of {line!r}" for line in found["covered"]]
    for block in found["blocks"]:
        text = block["cls"].startswith("language-text") and "tree" not in block["cls"].split()
        if (block["ws"] == "pre-wrap") != text:
            wrong.append(f"{url}: a {block['cls'].split()[0]} block has white-space {block['ws']}")
    return {b["cls"].split()[0] for b in found["blocks"]}, wrong


def _strip(page, selector: str, side: str) -> bytes:
    """A 14 px strip of the element's edge, of the part of it on screen (a table taller than the screen
    scrolled into view starts above the top: a clip there would be outside the image)."""
    box = page.locator(selector).bounding_box()
    x = box["x"] + box["width"] - 14 if side == "right" else box["x"]
    top = max(box["y"], 0)
    bottom = min(box["y"] + box["height"], page.viewport_size["height"], top + 300)
    return page.screenshot(clip={"x": x, "y": top, "width": 14, "height": bottom - top})


def wide_table_cues(page) -> list[str]:
    """why-directml's options table is wider than a phone. Its right edge shows a shadow while there is
    more to the right (the same pixels differ with and without the shadow), and none once scrolled to
    the end; the left edge the other way round."""
    wrap = "article .md-typeset__scrollwrap >> nth=0"
    page.locator(wrap).scroll_into_view_if_needed()
    sizes = page.locator(wrap).evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert sizes[0] > sizes[1], f"the table fits a phone ({sizes}): nothing to cue"

    def edges(cue: bool) -> tuple[bytes, bytes]:
        if not cue:
            page.locator(wrap).evaluate("e => e.style.setProperty('background', 'none', 'important')")
        shot = _strip(page, wrap, "left"), _strip(page, wrap, "right")
        page.locator(wrap).evaluate("e => e.style.removeProperty('background')")
        return shot

    start, start_bare = edges(True), edges(False)
    page.locator(wrap).evaluate("e => { e.scrollLeft = e.scrollWidth }")
    end, end_bare = edges(True), edges(False)
    wrong = {
        "no cue at the right edge of a table that scrolls to the right": start[1] == start_bare[1],
        "a cue at the left edge before the reader has scrolled": start[0] != start_bare[0],
        "no cue at the left edge once scrolled to the end": end[0] == end_bare[0],
        "a cue at the right edge with nothing more to the right": end[1] != end_bare[1],
    }
    return [f"why-directml/: {what}" for what, bad in wrong.items() if bad]


SEEDED = [r for r in runs.summaries() if r["issue"] is None]  # the maintainers' runs (docs/hooks/data/runs/)
INDEX = "search_index.json"
INDEX_TIMES = f"""() => ({{
    index: performance.getEntriesByType('resource').find(e => e.name.endsWith('{INDEX}')).startTime,
    paint: performance.getEntriesByName('first-contentful-paint')[0].startTime,
    load: performance.getEntriesByType('navigation')[0].loadEventEnd}})"""


def test_each_page_on_a_phone(site, browser):
    """Every page (and two of the chooser's answers) loaded once at 375 px: no console error, no request to
    another host, nothing wider than the screen, the search index asked for after the page has painted; on the
    code pages, blocks that wrap or scroll as their kind should and copy buttons that leave the code readable; the
    project tree keeps its columns; a wide table shows that it scrolls."""
    site_dir, base = site
    context = browser.new_context(viewport={"width": 375, "height": 800})
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    outside = []
    page.on(
        "request",
        lambda r: (
            outside.append(r.url)
            if not r.url.startswith(base.split("/", 3)[0] + "//127.0.0.1") and not r.url.startswith(("data:", "blob:"))
            else None
        ),
    )
    wrong, kinds = [], set()
    for url in [*page_urls(site_dir), *ANSWERS]:
        # Each edition's home is left until the network is quiet: its search index arrives and is built in the
        # worker, whose errors would show here. The index is the same for every page of an edition, so the other
        # pages are checked once built (the index, fetched after the load, is cut off by the next page): building
        # it on each of 34 pages took half of this test's 40 s (2026-12-04).
        if url in ("", "zh/"):
            page.goto(base + url, wait_until="networkidle")
        else:
            open_built(page, base + url)
        if "?gpu=" in url:
            page.wait_for_function("window.guideChooserReady === true")  # the answer is drawn
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if width[0] > width[1]:
            wrong.append(f"{url or 'home'}: {width[0]} px wide in a {width[1]} px window")
        if url in CODE_PAGES:
            classes, bad = code_blocks_on_a_phone(page, url)
            kinds |= classes
            wrong += bad
        if url == "mnist-training/":
            tree = page.evaluate(TREE)
            assert tree is not None, "no project tree on the training page"
            assert tree["scrolls"], "the tree fits a phone: this check no longer tells wrapping from not"
            if tree["rendered"] != tree["lines"]:
                wrong.append(f"the tree's {tree['lines']} lines take {tree['rendered']} rendered lines")
        if url == "why-directml/":
            wrong += wide_table_cues(page)
        if url.endswith("runs/"):  # each seeded run in a row with its label, in a table that scrolls on its own
            rows = page.locator("article .md-typeset__scrollwrap table tbody tr").evaluate_all(
                "rs => rs.map(r => r.innerText)"
            )
            label = "维护者自测" if url.startswith("zh/") else "seeded by the maintainers"
            for run in SEEDED:
                if not any(run["gpu"] in r and label in r and f"{run['seconds_per_epoch']:.1f}" in r for r in rows):
                    wrong.append(f"{url}: no row for the seeded run on {run['gpu']}: {rows}")
        if url == "measuring/":  # the index (both editions) must not compete with the page's first render
            page.wait_for_function(f"performance.getEntriesByType('resource').some(e => e.name.endsWith('{INDEX}'))")
            times = page.evaluate(INDEX_TIMES)
            assert times["index"] >= times["paint"] and times["index"] >= times["load"], times
    context.close()
    assert not errors, "\n".join(errors)
    assert not wrong, "\n".join(wrong)
    assert not outside, f"requests to other hosts: {sorted(set(outside))}"
    assert {"language-text", "language-python"} <= kinds, f"blocks without their language class: {sorted(kinds)}"
    assert SEEDED, "no seeded run in docs/hooks/data/runs/"


# ---------------------------------------------------------------- search


PROBLEMS_JS = """() => [...document.querySelectorAll('article h3[id], article h4[id]')].map(h => {
  const next = h.nextElementSibling;
  const block = next && next.matches('div.highlight') && !next.querySelector('.filename') ? next.querySelector('code') : null;  // textContent: innerText is empty for a block the browser has not laid out yet
  return {id: h.id, message: block ? block.textContent : null};
})"""


def test_each_error_message_finds_its_section_first(site, browser):
    """Each message the troubleshooting page quotes under its heading, pasted whole into the page's search."""
    _, base = site
    page = browser.new_page()
    page.goto(base + "troubleshooting/")
    problems = [p for p in page.evaluate(PROBLEMS_JS) if p["message"]]
    assert len(problems) >= 8, problems  # read from the page: new sections are covered without editing this test
    failures = []
    for problem in problems:
        message = " ".join(problem["message"].split())  # pasted whole: the lines of the block in one query
        got = first_section(search(page, message))
        if got != f"troubleshooting/#{problem['id']}":
            failures.append(f"{message[:80]!r} -> first result {got}, expected #{problem['id']}")
    page.close()
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    "identifier",
    ["aten::_thnn_fused_lstm_cell", "GetDeviceRemovedReason", "inference_mode", "torch_directml.device"],
)
def test_code_identifiers_find_their_section(site, browser, identifier):
    """One of the first three sections found holds the identifier exactly (the separator splits it into
    words for the index, so a section that merely shares the words does not count)."""
    _, base = site
    page = browser.new_page()
    page.goto(base)
    sections = [r for r in search(page, identifier) if "#" in r][:3]
    assert sections, f"{identifier}: no result"
    texts = []
    for found in sections:
        page.goto(base + found)
        texts.append(
            page.evaluate(
                """id => { const h = document.getElementById(id); let text = h.innerText, n = h.nextElementSibling;
               while (n && !/^H[1-3]$/.test(n.tagName)) { text += '\\n' + n.innerText; n = n.nextElementSibling; }
               return text; }""",
                found.split("#", 1)[1],
            )
        )
    page.close()
    assert any(identifier in text for text in texts), f"{identifier}: none of {sections} contains it"
