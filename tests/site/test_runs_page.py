"""The "Runs on real hardware" page and the chooser's runs, in the browser, both editions.

The runs page's seeded runs, in a table that scrolls on its own, are checked on the phone journey's load of it
(tests/site/test_site_browser.py). A report whose strings hold markup is shown as
text by chooser_runs.js, with a report served in place of assets/runs.json (the test's browser only: the site
never shows it; the runs page's table, guide/runs.py, escapes it: tests/guide/test_runs.py).
"""

from __future__ import annotations

import pytest

from browser_support import (
    axe_violations,
    open_built,
    skip_module_without_browser,
)
from guide import runs

skip_module_without_browser()

PHONE = {"width": 375, "height": 800}
EDITIONS = {
    "en": ("", "No run reported yet."),
    "zh": ("zh/", "还没有人报告运行结果。"),
}
ATTACK = '<img src=x onerror="window.hacked=1"><script>window.hacked=2</script>'


def seeded() -> list[dict]:
    return [r for r in runs.summaries() if r["issue"] is None]


def open_answer(page, base: str, prefix: str, gpu: str) -> None:
    open_built(page, f"{base}{prefix}choose/?gpu={gpu}&win=11")
    page.wait_for_selector("#chooser-answer p strong")


@pytest.mark.parametrize("edition", list(EDITIONS))
def test_the_chooser_says_no_run_yet_with_the_one_command(site, browser, edition):
    _, base = site
    prefix, none = EDITIONS[edition]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    open_answer(page, base, prefix, "AMD Radeon RX 7900 XTX")
    box = page.locator("#chooser-runs")
    box.locator("code").wait_for()
    text = box.inner_text()
    assert none in text and "python report.py --download" in text
    assert box.locator("a").get_attribute("href").endswith(prefix + "runs/")
    assert axe_violations(page, prefix + "choose/") == []
    context.close()


def test_the_chooser_shows_the_runs_of_the_chosen_gpu_as_text(site, browser):
    _, base = site
    served = {
        "command": runs.COMMAND,
        "runs": [
            dict(
                seeded()[0],
                gpu=ATTACK,
                table_gpu="AMD Radeon RX 7900 XTX",
                keys=["7900xtx"],
                backend="DirectML",
                issue=9,
                url="https://github.com/o/r/issues/9",
            )
        ],
    }
    page = browser.new_page()
    page.route("**/assets/runs.json", lambda route: route.fulfill(json=served))
    open_answer(page, base, "", "7900 XTX")
    box = page.locator("#chooser-runs")
    box.locator("li").wait_for()
    assert ATTACK in box.locator("li").inner_text() and "issue #9" in box.inner_text()
    assert page.evaluate("document.querySelectorAll('#chooser-runs img, #chooser-runs script').length") == 0
    assert page.evaluate("window.hacked") is None
    page.close()
