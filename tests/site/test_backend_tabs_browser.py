"""The reader's back-end follows them (docs/javascripts/backend_tabs.js), in Chromium.

The chooser calls window.guideSelectBackend(label) with the reader's back-end; from then on set-up,
PyCharm and verification open on that back-end's tab, through Material's own linked-tabs storage: the
function's own rules, then a shared answer opened in a fresh browser. That the chooser calls it with each
reader's label is tests/site/test_readers.py's.
"""

from __future__ import annotations

from browser_support import open_built, skip_module_without_browser

skip_module_without_browser()

# Every chapter with back-end tabs, opened by the reader's own navigation (the menu, a bookmark).
ALL_CHAPTERS = ("setup/", "pycharm/", "verification/", "mnist-training/")

# The label checked in each tab set of the page that has a tab of this label (back-end sets: "ROCm"; shells: "cmd").
CHECKED = """(tab) => [...document.querySelectorAll('article .tabbed-set')]
  .map(set => [...set.querySelectorAll(':scope > .tabbed-labels > label')])
  .filter(labels => labels.some(l => l.innerText.trim() === tab))
  .map(labels => labels.find(l => document.getElementById(l.htmlFor).checked).innerText.trim())"""


def test_the_choice_replaces_the_last_one_and_keeps_the_shell(site, context):
    _, base = site
    page = context.new_page()
    open_built(page, base + "verification/")
    page.locator("article .tabbed-labels label", has_text="cmd").first.click()  # the reader's shell
    assert page.evaluate("() => window.guideSelectBackend('XPU')") is True
    assert set(page.evaluate(CHECKED, "ROCm")) == {"XPU"}  # this page switches at once
    assert page.evaluate("() => window.guideSelectBackend('CUDA')") is True
    assert page.evaluate("() => window.guideSelectBackend('Intel XPU')") is False  # not a tab's label
    open_built(page, base + "setup/")
    assert set(page.evaluate(CHECKED, "ROCm")) == {"CUDA"}
    cmd = page.evaluate(CHECKED, "cmd")
    assert cmd and set(cmd) == {"cmd"}, cmd
    page.close()


# (a shared answer, the tab every chapter must open on): chooser.js runs before backend_tabs.js on the chooser's
# page, so an answer given while the page loads must still be stored.
SHARED = [
    ("choose/?gpu=AMD+Radeon+RX+7900+XTX&win=11", "", "ROCm"),
    ("zh/choose/?gpu=Intel%28R%29+Arc%28TM%29+B580+Graphics&win=11&py=3.13", "zh/", "XPU"),
    ("choose/?gpu=NVIDIA+GeForce+GTX+1060+6GB&win=10", "", "CUDA"),
]


def test_a_shared_answer_opens_every_chapter_on_its_tab(site, browser):
    """A fresh browser opens a shared chooser link, reads the answer, then set-up, PyCharm, verification and
    training, each from the menu: every back-end tab set is on the answer's back-end."""
    _, base = site
    for url, edition, tab in SHARED:
        context = browser.new_context()
        page = context.new_page()
        open_built(page, base + url)
        page.locator("#chooser-recipe").wait_for()
        found = {}
        for chapter in ALL_CHAPTERS:  # each opened anew in the same browser context
            open_built(page, base + edition + chapter)
            found[chapter] = page.evaluate(CHECKED, "ROCm")
        context.close()
        assert all(labels and set(labels) == {tab} for labels in found.values()), (url, found)
