"""Copy buttons written into the built page (docs/hooks/guide/code_buttons.py), while Material sets code
blocks up only as they scroll into view (content.lazy): every button is there at load, a reader moving
with Tab reaches each one, and a wide block still gets its keyboard scrolling once it is on screen.

That the buttons copy their block's text is tests/site/test_site_browser.py's test_each_page_on_a_desktop.
"""

from __future__ import annotations

import pytest

from guide.code_buttons import with_copy_buttons

PAGE = """<html class="no-js" lang="{lang}"><body><article>
<div class="language-text highlight"><pre><span></span><code>error one
</code></pre></div>
<div class="language-python highlight"><span class="filename">doctor.py</span><pre><span></span><code><span class="kn">import</span> torch
</code></pre></div>
<pre id="__code_notebook_1"><code>x = 1</code></pre>
</article><script id="__config" type="application/json">{{"translations": {{"clipboard.copy": "{copy}"}}}}</script>
</body></html>"""


def test_every_block_gets_a_named_bar_and_a_button_that_targets_its_code():
    built = with_copy_buttons(PAGE.format(lang="en", copy="Copy to clipboard"))
    assert built.count('<button class="md-code__button" title="Copy to clipboard" ') == 3
    assert (
        '<pre><span></span><nav class="md-code__nav" aria-label="Code block 1 actions"><button class="md-code__button" '
        'title="Copy to clipboard" data-clipboard-target="#__copy_1" data-md-type="copy"></button></nav>'
        '<code id="__copy_1" tabindex="0">error one'
    ) in built
    assert 'aria-label="Code block 2 (doctor.py) actions"' in built
    assert '<pre id="__code_notebook_1"><nav class="md-code__nav" aria-label="Code block 3 actions">' in built
    assert '<code id="__copy_3" tabindex="0">x = 1</code>' in built


def test_the_chinese_edition_names_its_bars_in_chinese():
    built = with_copy_buttons(PAGE.format(lang="zh", copy="复制"))
    assert 'aria-label="代码块 2（doctor.py） 的操作"' in built
    assert 'title="复制"' in built


def test_a_page_without_materials_config_fails_the_build():
    with pytest.raises(RuntimeError, match="__config"):
        with_copy_buttons("<html lang='en'><pre><code>x</code></pre></html>")


# The browser tests below skip without Chromium (the site fixture), or fail where it is required.
# Blocks by their place among the article's code blocks, whoever made their buttons.
TAB_STOP = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  const blocks = [...document.querySelectorAll('article pre > code')];
  const pre = a.matches('button.md-code__button') ? a.closest('pre') : null;
  return {block: pre ? blocks.indexOf(pre.querySelector(':scope > code')) : null, footer: a.closest('footer') !== null};
}"""
VISIBLE_BLOCKS = """() => [...document.querySelectorAll('article pre > code')]
  .map((code, index) => code.checkVisibility() ? index : null).filter(index => index !== null)"""


def copy_buttons_reached_by_tab(page, url: str) -> tuple[list[int], list[int]]:
    """(the code blocks whose copy button Tab reaches from the top of the page to its footer, the
    blocks a reader can see: not in a closed tab or a collapsed note), by their place on the page."""
    page.goto(url)
    page.wait_for_load_state()
    visible = page.evaluate(VISIBLE_BLOCKS)
    reached = []
    for _ in range(2000):
        page.keyboard.press("Tab")
        stop = page.evaluate(TAB_STOP)
        if stop and stop["block"] is not None:
            reached.append(stop["block"])
        if stop and stop["footer"]:
            return reached, visible
    raise AssertionError(f"{url}: 2,000 presses of Tab never reached the footer")


@pytest.mark.parametrize("width", [1280, 375])
@pytest.mark.parametrize("path", ["troubleshooting/", "zh/verification/"])
def test_tab_reaches_every_copy_button(site, browser, path, width):
    """A block below the screen is set up only when it scrolls into view; its button must not wait."""
    _, base = site
    page = browser.new_page(viewport={"width": width, "height": 800})
    reached, visible = copy_buttons_reached_by_tab(page, base + path)
    page.close()
    assert len(visible) >= 5, f"{path}: only {len(visible)} code blocks a reader can see"
    missed = [block + 1 for block in visible if block not in reached]
    assert not missed, (
        f"{path} at {width} px: Tab skips the copy button of {len(missed)} of {len(visible)} blocks: {missed[:8]}"
    )


def test_blocks_are_set_up_as_they_come_into_view(site, browser):
    """Material still sets each block up (content.lazy): once a block is scrolled into view (Material
    then names its <pre> __code_...), one wider than its column stays focusable (arrow keys scroll it)
    and one that fits leaves the Tab order. At 1280 px, where keyboards are."""
    _, base = site
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + "setup/")
    page.wait_for_load_state()
    ids = page.evaluate("""() => [...document.querySelectorAll('article pre > code')]
      .filter(c => c.checkVisibility()).map(c => c.id)""")
    wide, fits, wrong = [], [], []
    for code_id in ids:
        page.locator(f"#{code_id}").scroll_into_view_if_needed()
        page.wait_for_function(
            f"document.getElementById('{code_id}').parentElement.id.startsWith('__code_')", timeout=5000
        )
        scrolls, tabindex = page.evaluate(f"""() => {{ const c = document.getElementById('{code_id}');
          return [c.scrollWidth > c.clientWidth + 1, c.getAttribute('tabindex')]; }}""")
        (wide if scrolls else fits).append(code_id)
        if tabindex != ("0" if scrolls else None):
            wrong.append(f"{code_id} ({'wide' if scrolls else 'fits'}, tabindex {tabindex})")
    page.close()
    assert len(wide) >= 3 and len(fits) >= 3, f"setup/ at 1280 px: {len(wide)} of {len(ids)} blocks wide"
    assert not wrong, f"setup/ at 1280 px: blocks not set up once on screen: {wrong}"
