"""The chooser's runs of the chosen GPU (docs/javascripts/chooser_runs.js), in the browser: a report whose strings
hold markup is shown as text, with a report served in place of assets/runs.json (the test's browser only: the site
never shows it; the runs page's table, guide/runs.py, escapes it: tests/guide/test_runs.py). The runs page's seeded
runs, and an answer's runs box before any report, are checked on the page journeys (tests/site/test_site_browser.py).
"""

from __future__ import annotations

from browser_support import open_built, skip_module_without_browser
from guide import runs

skip_module_without_browser()

ATTACK = '<img src=x onerror="window.hacked=1"><script>window.hacked=2</script>'


def test_the_chooser_shows_the_runs_of_the_chosen_gpu_as_text(site, browser):
    _, base = site
    served = {
        "command": runs.COMMAND,
        "runs": [
            dict(
                next(r for r in runs.summaries() if r["issue"] is None),  # a seeded run, as an issue's
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
    open_built(page, f"{base}choose/?gpu=7900 XTX&win=11")
    box = page.locator("#chooser-runs")
    box.locator("li").wait_for()
    assert ATTACK in box.locator("li").inner_text() and "issue #9" in box.inner_text()
    assert page.evaluate("document.querySelectorAll('#chooser-runs img, #chooser-runs script').length") == 0
    assert page.evaluate("window.hacked") is None
    page.close()
